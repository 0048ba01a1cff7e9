import type { DayFlag, DayStatus } from '../../../shared/attendance.js';
import type { PersonChoice } from '../../components/PersonPicker.js';
import { apiCall, queryString } from '../../session/http.js';

const BASE = '/api/asistencia';

/** A person's day as the server computed it. */
export interface AttendanceDay {
  Fecha: string;
  Estado: DayStatus;
  EntradaPlan: string | null;
  SalidaPlan: string | null;
  PrimeraEntrada: string | null;
  UltimaSalida: string | null;
  MinutosTrabajados: number;
  MinutosRefrigerio: number;
  MinutosTardanza: number;
  MinutosSalidaTemprana: number;
  MinutosExtraAntes: number;
  MinutosExtraDespues: number;
  MinutosJustificados: number;
  Marcas: number;
  Alertas: string | null;
  Feriado: string | null;
  Cerrado: 'S' | 'N';
  Pendiente: 'S' | 'N';
}

export interface DayMarking {
  IdMarcacion: number;
  Fecha: string;
  Hora: string;
  FechaHora: string;
  Funcion: 'E' | 'S';
  Resultado: 'P' | 'D';
  Origen: string;
}

export interface PersonDays {
  persona: {
    IdPersona: number;
    Documento: string;
    Apellido: string;
    Nombre: string;
    Compania: string | null;
  };
  dias: AttendanceDay[];
  marcaciones: DayMarking[];
  zonaHoraria: string;
  hoy: string;
}

export const flagsOf = (day: AttendanceDay): DayFlag[] =>
  day.Alertas ? (day.Alertas.split(',') as DayFlag[]) : [];

export const attendanceApi = {
  people: (texto: string) => apiCall<PersonChoice[]>('GET', `${BASE}/personas?${queryString({ texto })}`),
  days: (id: number, desde: string, hasta: string) =>
    apiCall<PersonDays>('GET', `${BASE}/personas/${id}/dias?${queryString({ desde, hasta })}`),
  compute: (body: { desde: string; hasta: string; IdPersona?: number }) =>
    apiCall<{ dias: number }>('POST', `${BASE}/calcular`, body),
};
