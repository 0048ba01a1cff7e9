import type { DayFlag, DayStatus, PeriodTotals } from '../../../shared/attendance.js';

export type { PeriodTotals };

import type { PersonChoice } from '../../components/PersonPicker.js';
import { downloadFile } from '../../files.js';
import { ApiRequestError, apiCall, apiFetch, queryString } from '../../session/http.js';
import { restList } from '../../session/records.js';

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
  justificaciones: DayJustificationRow[];
  zonaHoraria: string;
  hoy: string;
}

/** A justification of a person's day. */
export interface DayJustificationRow {
  IdJustificacionPersona: number;
  Fecha: string;
  IdJustificacion: number;
  Descripcion: string;
  CodigoReferencia: string;
  Tipo: 'F' | 'T' | 'H';
  Horas: number | null;
  Observacion: string | null;
  Origen: 'M' | 'I';
}

/** A justification of the client's catalogue, with its rules. */
export interface JustificationChoice {
  IdJustificacion: number;
  Descripcion: string;
  CodigoReferencia: string;
  AplicaFuturo: 'S' | 'N';
  HorasMaximo: number | null;
  RequiereObservacion: 'S' | 'N';
  Pagado: 'S' | 'N';
}

export interface PeriodPerson {
  IdPersona: number;
  Documento: string;
  Persona: string;
  Compania: string | null;
  CodigoPlanilla: string | null;
  dias: Array<
    Pick<
      AttendanceDay,
      'Fecha' | 'Estado' | 'MinutosTrabajados' | 'MinutosTardanza' | 'Cerrado' | 'Pendiente' | 'Alertas'
    >
  >;
  totales: PeriodTotals;
}

export interface PeriodFilters {
  desde: string;
  hasta: string;
  IdDivision?: number;
  IdCompania?: number;
  IdPlanilla?: number;
  Estado?: DayStatus;
}

export interface PayrollPeriods {
  hoy: string;
  planillas: Array<{
    IdPlanilla: number;
    Codigo: string;
    Descripcion: string;
    Periodicidad: 'S' | 'Q' | 'M';
    DiaCierre: number;
    Activo: 'S' | 'N';
    actual: { desde: string; hasta: string };
    anterior: { desde: string; hasta: string };
    cierres: Array<{
      Desde: string;
      Hasta: string;
      Personas: number;
      Dias: number;
      CerradoPor: string;
      CerradoEn: string;
    }>;
  }>;
}

export const flagsOf = (day: AttendanceDay): DayFlag[] =>
  day.Alertas ? (day.Alertas.split(',') as DayFlag[]) : [];

export const attendanceApi = {
  people: (texto: string) => apiCall<PersonChoice[]>('GET', `${BASE}/personas?${queryString({ texto })}`),
  days: (id: number, desde: string, hasta: string) =>
    apiCall<PersonDays>('GET', `${BASE}/personas/${id}/dias?${queryString({ desde, hasta })}`),
  compute: (body: { desde: string; hasta: string; IdPersona?: number }) =>
    apiCall<{ dias: number }>('POST', `${BASE}/calcular`, body),
  /** The client's active justifications, for a supervisor's entry and the import. */
  justifications: async () =>
    (await restList<JustificationChoice>('justification', { Activo: 'S' }, '[0,499]')).sort((a, b) =>
      a.Descripcion.localeCompare(b.Descripcion),
    ),
  justify: (body: {
    IdPersona: number;
    IdJustificacion: number;
    Fecha: string;
    Tipo: 'F' | 'T' | 'H';
    Horas?: number;
    Observacion?: string;
  }) => apiCall<{ id: number }>('POST', '/api/rest/person-justification', body),
  unjustify: (id: number) => apiCall<unknown>('DELETE', `/api/rest/person-justification/${id}`),
  period: (filters: PeriodFilters & { pagina?: number }) =>
    apiCall<{ total: number; pagina: number; porPagina: number; personas: PeriodPerson[] }>(
      'GET',
      `${BASE}/periodo?${queryString({ ...filters })}`,
    ),
  periodExcel: (filters: PeriodFilters) =>
    downloadFile(`${BASE}/periodo/excel?${queryString({ ...filters })}`, 'asistencia.xlsx'),
  payrolls: () => apiCall<PayrollPeriods>('GET', `${BASE}/planillas`),
  close: (payroll: number, fecha: string) =>
    apiCall<{ IdPlanilla: number; Desde: string; Hasta: string; Personas: number; Dias: number }>(
      'POST',
      `${BASE}/planillas/${payroll}/cerrar`,
      { fecha },
    ),
  closingExcel: (payroll: number, desde: string) =>
    downloadFile(`${BASE}/planillas/${payroll}/cierres/${desde}/excel`, 'cierre.xlsx'),
  template: () => downloadFile(`${BASE}/justificaciones/plantilla`, 'plantilla.xlsx'),
  async importFile(company: number | undefined, justification: number | undefined, file: File) {
    const form = new FormData();
    if (company) form.set('IdCompania', String(company));
    if (justification) form.set('IdJustificacion', String(justification));
    form.set('file', file, file.name);
    const response = await apiFetch(`${BASE}/justificaciones/importar`, { method: 'POST', body: form });
    const text = await response.text();
    const json = text
      ? (JSON.parse(text) as { result?: { importadas: number }; message?: string })
      : undefined;
    if (!response.ok) throw new ApiRequestError(json?.message ?? response.statusText, response.status, json);
    return json?.result as { importadas: number };
  },
};
