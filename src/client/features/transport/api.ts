import { siteDate } from '../../../shared/dates.js';
import type {
  BoardingReason,
  OnTheRoad,
  ReleaseReason,
  RouteOccupancy,
  SeatState,
  SeatsOfDay,
  TimetablePlan,
  Traveller,
  TripDirection,
  TripFields,
  TripState,
  Unplaced,
} from '../../../shared/transport.js';
import { apiCall, queryString } from '../../session/http.js';
import { restList } from '../../session/records.js';
import { session } from '../../session/store.js';

export type {
  BoardingReason,
  OnTheRoad,
  ReleaseReason,
  RouteOccupancy,
  SeatState,
  TimetablePlan,
  Traveller,
  TripDirection,
  TripState,
  Unplaced,
};

/** A trip of a day as the trips call answers it: its route, bus, driver and seats. */
export interface Trip extends TripFields {
  Placa: string;
  Conductor: string;
  Libres: number;
}

/** A seat of a trip: booked, boarded, a no-show or released (with why). */
export interface Seat {
  IdReserva: number;
  IdPersona: number;
  Persona: string;
  Documento: string;
  Compania: string;
  Asiento: number;
  Estado: SeatState;
  Excepcion: boolean;
  Motivo: string | null;
  FechaAbordaje: string | null;
  Emergencia: string;
}

/** A trip's page: the trip, its bus and driver, and its seats (a requester's: its company's). */
export interface TripDetail extends Omit<Trip, 'Libres'> {
  Modelo: string;
  LicenciaRequerida: string;
  ConductorDocumento: string;
  ConductorLicencia: string;
  reservas: Seat[];
}

/** The manifests a change day proposes, and who has no seat in them. */
export interface Proposal {
  Fecha: string;
  viajes: Array<Omit<Trip, 'Placa' | 'Conductor' | 'Libres'> & { propuestos: Traveller[] }>;
  sinAsiento: Array<Traveller & { Sentido: TripDirection; motivo: Unplaced }>;
  yaReservados: number;
}

/** A seat someone lost, and why. */
export interface ReleasedSeat {
  IdReserva: number;
  IdViaje: number;
  IdPersona: number;
  Persona: string;
  Documento: string;
  Compania: string;
  Fecha: string;
  Hora: string;
  Ruta: string;
  Asiento: number;
  Motivo: string;
}

/** What the door of the bus answered to a badge. */
export interface BoardingAnswer {
  IdMarca: string;
  allow: boolean;
  reason: BoardingReason;
  Nombre?: string;
  Asiento?: number;
}

export interface LiveBoard {
  Fecha: string;
  viajes: Trip[];
  enRuta: OnTheRoad[];
}

export interface TransportReport {
  desde: string;
  hasta: string;
  rutas: RouteOccupancy[];
  dias: SeatsOfDay[];
}

export interface NoShow {
  IdPersona: number;
  Persona: string;
  Documento: string;
  Compania: string;
  Asiento: number;
}

export interface Base64File {
  fileBase64: string;
  fileName: string;
  fileType?: string;
}

/** Today at the division's site (the day the trips screens open on). */
export const siteToday = () => siteDate(session.siteCountry());

const BASE = '/api/transporte';
const trip = (id: number, tail = '') => `${BASE}/viajes/${id}${tail}`;

/** Both sides' calls: a day's trips, a trip's seats, who may be booked, booking and cancelling. */
export const seatsApi = {
  trips: (fecha: string) => apiCall<Trip[]>('GET', `${BASE}/viajes?${queryString({ fecha })}`),
  trip: (id: number) => apiCall<TripDetail>('GET', trip(id)),
  candidates: (fecha: string, buscar: string) =>
    apiCall<Traveller[]>('GET', `${BASE}/candidatos?${queryString({ fecha, buscar })}`),
  book: (id: number, IdPersonas: number[]) =>
    apiCall<{ IdViaje: number; reservados: Array<Traveller & { IdReserva: number; Asiento: number }> }>(
      'POST',
      trip(id, '/reservas'),
      { IdPersonas },
    ),
  cancel: (bookingId: number) => apiCall<unknown>('DELETE', `${BASE}/reservas/${bookingId}`),
  manifest: (id: number) => apiCall<Base64File>('GET', trip(id, '/manifiesto')),
};

/** The coordinator's calls: timetables, proposals, boarding, departure, the board and the report. */
export const transportApi = {
  timetable: (plan: TimetablePlan) =>
    apiCall<{ viajes: Array<{ IdViaje: number; Fecha: string }> }>('POST', `${BASE}/horarios`, plan),
  proposal: (fecha: string) => apiCall<Proposal>('GET', `${BASE}/propuesta?${queryString({ fecha })}`),
  confirm: (viajes: Array<{ IdViaje: number; IdPersonas: number[] }>) =>
    apiCall<{ viajes: Array<{ IdViaje: number; reservados: number }>; total: number }>(
      'POST',
      `${BASE}/propuesta`,
      { viajes },
    ),
  released: (desde: string, hasta: string) =>
    apiCall<ReleasedSeat[]>('GET', `${BASE}/liberadas?${queryString({ desde, hasta })}`),
  board: (id: number, Credencial: string, Excepcion?: string) =>
    apiCall<BoardingAnswer[]>('POST', trip(id, '/abordajes'), {
      marcas: [
        {
          IdMarca: crypto.randomUUID(),
          Credencial,
          FechaHora: new Date().toISOString(),
          ...(Excepcion && { Excepcion }),
        },
      ],
    }),
  depart: (id: number) =>
    apiCall<{ IdViaje: number; Estado: TripState; noPresentados: NoShow[] }>('POST', trip(id, '/salida')),
  arrive: (id: number) => apiCall<{ IdViaje: number; Estado: TripState }>('POST', trip(id, '/llegada')),
  cancel: (id: number) => apiCall<{ IdViaje: number; Estado: TripState }>('POST', trip(id, '/cancelar')),
  liveBoard: (fecha: string) => apiCall<LiveBoard>('GET', `${BASE}/tablero?${queryString({ fecha })}`),
  report: (desde: string, hasta: string) =>
    apiCall<TransportReport>('GET', `${BASE}/reporte?${queryString({ desde, hasta })}`),
  reportExcel: (desde: string, hasta: string) =>
    apiCall<Base64File>('GET', `${BASE}/reporte/excel?${queryString({ desde, hasta })}`),
};

/** A choice of a picker: its id and what it reads. */
export interface Choice {
  value: number;
  label: string;
}

interface BusRow {
  IdBus: number;
  IdVehiculo: number;
  Asientos: number;
}

/** The generic lists the timetable's pickers read. */
export const choicesApi = {
  rosters: async (): Promise<Choice[]> =>
    (
      await restList<{ IdTipoHorario: number; Descripcion: string }>(
        'schedule-type',
        { Tipo: 'C' },
        '[0,199]',
      )
    ).map((r) => ({ value: r.IdTipoHorario, label: r.Descripcion })),
  routes: async (): Promise<Choice[]> =>
    (
      await restList<{ IdRuta: number; Codigo: string; Descripcion: string }>('transport-route', {
        Activo: 'S',
      })
    ).map((r) => ({ value: r.IdRuta, label: `${r.Codigo} · ${r.Descripcion}` })),
  /** The active buses, each by its vehicle's plate and its seats. */
  buses: async (seatsText: (n: number) => string): Promise<Choice[]> => {
    const buses = await restList<BusRow>('transport-bus', { Activo: 'S' });
    if (!buses.length) return [];
    const vehicles = await restList<{ IdVehiculo: number; Placa: string }>('vehicle', {
      IdVehiculo: buses.map((b) => b.IdVehiculo),
    });
    const plates = new Map(vehicles.map((v) => [v.IdVehiculo, v.Placa]));
    return buses
      .map((b) => ({
        value: b.IdBus,
        label: `${plates.get(b.IdVehiculo) ?? b.IdVehiculo} · ${seatsText(b.Asientos)}`,
      }))
      .sort((a, b) => a.label.localeCompare(b.label));
  },
  /** People found by a name or a document (a driver). */
  people: async (q: string) =>
    (
      await restList<{ IdPersona: number; Documento: string; Apellido: string; Nombre: string }>(
        'person',
        { q },
        '[0,19]',
      )
    ).map((p) => ({
      IdPersona: p.IdPersona,
      Documento: p.Documento,
      Persona: `${p.Apellido} ${p.Nombre}`.trim(),
      Compania: null,
    })),
};
