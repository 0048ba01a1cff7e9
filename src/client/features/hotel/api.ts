import type {
  AvailabilityGrid,
  LodgingDashboard,
  LodgingTurn,
  ProposalLine,
  ReservationState,
} from '../../../shared/hotel.js';
import { apiCall, queryString as query } from '../../session/http.js';
import { restList } from '../../session/records.js';

export interface CampModule {
  IdModuloHotel: number;
  Descripcion: string;
  Genero: 'M' | 'F' | 'X';
}

export interface Camp {
  IdCampamento: number;
  Descripcion: string;
  DiasMaximoEstadia: number | null;
  HoraSalida: string | null;
  modulos: CampModule[];
}

export interface CampChoices {
  /** False for a requester: it reserves for its company's people, and cancels, nothing else. */
  administrador: boolean;
  /** False for a user with the lodging screens who runs no camp: not assigned as hotel administrator. */
  asignado: boolean;
  campamentos: Camp[];
  tiposHabitacion: Array<{ IdTipoHabitacion: number; Descripcion: string }>;
}

/** A person the session may reserve for. */
export interface Candidate {
  IdPersona: number;
  Documento: string;
  Persona: string;
  Compania: string | null;
  Origen: 'A' | 'S';
  FechaInicio: string | null;
  FechaFin: string | null;
}

/** A row of the reservations list. */
export interface ReservationRow {
  IdReserva: number;
  IdCampamento: number;
  Campamento: string;
  IdCama: number;
  Cama: string;
  Habitacion: string;
  IdPersona: number;
  Documento: string;
  Persona: string;
  Compania: string | null;
  FechaInicio: string;
  FechaFin: string;
  Turno: LodgingTurn;
  Estado: ReservationState;
  Origen: 'I' | 'M' | 'W';
}

export interface OccupancyReport {
  desde: string;
  hasta: string;
  dias: Array<{ fecha: string; camas: number; ocupadas: number; reservadas: number }>;
  companias: Array<{ IdCompania: number; Compania: string; noches: number; personas: number }>;
}

/** A person's stay, as the stays-by-document query answers it. */
export interface PersonStay {
  IdReserva: number;
  Campamento: string;
  Habitacion: string;
  Cama: string;
  FechaInicio: string;
  FechaFin: string;
  Turno: LodgingTurn;
  Estado: ReservationState;
  Origen: 'I' | 'M' | 'W';
  Persona?: string;
  Documento?: string;
  Compania?: string | null;
}

export interface Contract {
  IdContrato: number;
  NumeroContrato: string;
  Asunto: string | null;
}

/** What a crew is: a contract's people, documents pasted, or an Excel file's first column. */
export type CrewSource = { IdContrato: number } | { Documentos: string[] } | { ArchivoBase64: string };

export interface CrewDates {
  IdCampamento: number;
  FechaInicio: string;
  FechaFin: string;
  Turno?: LodgingTurn;
  IdTipoHabitacion?: number;
}

const BASE = '/api/hotel';

/** The camp lodging calls (spec section 2 Hotel) as the console's screens make them. */
export const hotelApi = {
  camps: () => apiCall<CampChoices>('GET', `${BASE}/campamentos`),
  people: (search: string) => apiCall<Candidate[]>('GET', `${BASE}/personas?${query({ buscar: search })}`),
  grid: (params: {
    desde: string;
    dias: number;
    IdCampamento?: number;
    IdModuloHotel?: number;
    IdTipoHabitacion?: number;
  }) => apiCall<AvailabilityGrid>('GET', `${BASE}/disponibilidad?${query(params)}`),
  reservations: (params: Record<string, string | number | undefined>) =>
    apiCall<{ data: ReservationRow[]; totalCount: number }>('GET', `${BASE}/reservas?${query(params)}`),
  reserve: (body: Record<string, unknown>) => apiCall<ReservationRow>('POST', `${BASE}/reservas`, body),
  walkIn: (body: Record<string, unknown>) => apiCall<ReservationRow>('POST', `${BASE}/ingreso-directo`, body),
  cancel: (id: number, Observacion?: string) =>
    apiCall<ReservationRow>('POST', `${BASE}/reservas/${id}/anular`, Observacion ? { Observacion } : {}),
  checkIn: (id: number, IdCama?: number) =>
    apiCall<ReservationRow>('POST', `${BASE}/reservas/${id}/ingreso`, IdCama ? { IdCama } : {}),
  checkOut: (id: number) => apiCall<ReservationRow>('POST', `${BASE}/reservas/${id}/salida`, {}),
  move: (id: number, IdCama: number, Turno?: LodgingTurn) =>
    apiCall<ReservationRow>('POST', `${BASE}/reservas/${id}/traslado`, { IdCama, ...(Turno && { Turno }) }),
  propose: (body: CrewDates & CrewSource) =>
    apiCall<ProposalLine[]>('POST', `${BASE}/reserva-masiva/propuesta`, body),
  book: (body: CrewDates & { Asignaciones: Array<{ IdPersona: number; IdCama: number }> }) =>
    apiCall<{ reservadas: number; lote: string }>('POST', `${BASE}/reserva-masiva`, body),
  dashboard: () => apiCall<LodgingDashboard>('GET', `${BASE}/tablero`),
  occupancy: (params: { desde: string; hasta: string; IdCampamento?: number }) =>
    apiCall<OccupancyReport>('GET', `${BASE}/reportes/ocupacion?${query(params)}`),
  occupancyExcel: (body: { desde: string; hasta: string; IdCampamento?: number }) =>
    apiCall<{ fileBase64: string; fileName: string }>('POST', `${BASE}/reportes/ocupacion/excel`, body),
  stays: (documento: string) =>
    apiCall<PersonStay[]>('GET', `${BASE}/reportes/estadias?${query({ documento })}`),
  /** The active contracts the session reads, for the mass reservation's choice. */
  contracts: () => restList<Contract>('contract', { Activo: 'S' }),
};
