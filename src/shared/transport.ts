/**
 * The Transport module's pure rules, shared by the server, the console and the gate app: which
 * licence class holds the one a bus needs, which days a roster moves a person up or down, how long a
 * route takes, and what the door of a bus answers to a badge from the trip's signed manifest.
 */

import { addDays } from './dates.js';

/** Up to the site, down from it, or within it (camp – plant). */
export type TripDirection = 'S' | 'B' | 'I';
/** Scheduled, boarding, departed, arrived, cancelled. */
export type TripState = 'P' | 'E' | 'S' | 'L' | 'X';
/** Booked, boarded, no-show, released. */
export type SeatState = 'R' | 'A' | 'N' | 'L';

/** Most people booked in one call (a bus's seats at most). */
export const BOOKING_MAX = 100;
/** Most trips one timetable makes. */
export const TIMETABLE_MAX = 400;
/** Hours a trip's signed manifest may be old and still decide at the door of the bus with no network. */
export const MANIFEST_HOURS = 24;

/**
 * What each licence class also holds (its description says "lo de A-IIb, más…"): Peru's A line and
 * Chile's professional A1–A3 for people. Classes outside these hold only themselves.
 */
const INCLUDES: Record<string, string[]> = {
  'A-IIA': ['A-I'],
  'A-IIB': ['A-IIA'],
  'A-IIIA': ['A-IIB'],
  'A-IIIB': ['A-IIB'],
  'A-IIIC': ['A-IIIA', 'A-IIIB'],
  A2: ['A1'],
  A3: ['A2'],
};

/** Whether a driver's licence class (`held`) lets them drive a vehicle that needs `needed` (either case). */
export function licenceHolds(held: string | null | undefined, needed: string): boolean {
  if (!held) return false;
  const wanted = needed.toUpperCase();
  const seen = new Set<string>();
  const stack = [held.toUpperCase()];
  while (stack.length) {
    const next = stack.pop() as string;
    if (next === wanted) return true;
    if (seen.has(next)) continue;
    seen.add(next);
    stack.push(...(INCLUDES[next] ?? []));
  }
  return false;
}

const DAY_MS = 86_400_000;
const midnight = (day: string) => Date.parse(`${day}T00:00:00Z`);

/** Whether a roster of `on` days of work and `off` of rest, counted from its anchor, works on `day`. */
export function rosterWorks(anchor: string, day: string, on: number, off: number): boolean {
  const length = on + off;
  if (on <= 0) return false;
  if (off <= 0) return true;
  const between = Math.round((midnight(day) - midnight(anchor)) / DAY_MS);
  return ((between % length) + length) % length < on;
}

/**
 * How a roster moves a person on `day`: up (S) on the first day of a block of work, down (B) on the
 * first day of rest after one; undefined on the other days (and for a roster with no rest).
 */
export function rosterMove(anchor: string, day: string, on: number, off: number): 'S' | 'B' | undefined {
  if (on <= 0 || off <= 0) return undefined;
  const today = rosterWorks(anchor, day, on, off);
  const yesterday = rosterWorks(anchor, addDays(day, -1), on, off);
  if (today && !yesterday) return 'S';
  if (!today && yesterday) return 'B';
  return undefined;
}

/** The change days of a roster between two days (inclusive): every day it moves people up or down. */
export function changeDays(anchor: string, on: number, off: number, from: string, to: string): string[] {
  const days: string[] = [];
  for (let day = from; day <= to; day = addDays(day, 1)) if (rosterMove(anchor, day, on, off)) days.push(day);
  return days;
}

/** A route's planned minutes: the sum of its stops'. */
export const routeMinutes = (stops: ReadonlyArray<{ MinutosDesdeAnterior: number }>): number =>
  stops.reduce((sum, s) => sum + Math.max(0, Number(s.MinutosDesdeAnterior) || 0), 0);

/** A trip's span on the site's clock, in minutes from the epoch day of its date (for overlaps). */
export function tripSpan(Fecha: string, Hora: string, minutes: number): { from: number; to: number } {
  const [h, m] = Hora.split(':').map(Number);
  const from = midnight(Fecha) / 60_000 + h * 60 + m;
  return { from, to: from + Math.max(minutes, 1) };
}

/** Whether two trips' spans meet. */
export const spansMeet = (a: { from: number; to: number }, b: { from: number; to: number }) =>
  a.from < b.to && b.from < a.to;

/** A trip as the calls answer it: its route, bus, driver, seats and state. */
export interface TripFields {
  IdViaje: number;
  IdRuta: number;
  Ruta: string;
  RutaCodigo: string;
  Fecha: string;
  Hora: string;
  Sentido: TripDirection;
  IdBus: number;
  IdConductor: number;
  Asientos: number;
  Reservados: number;
  Abordados: number;
  Estado: TripState;
  Salida: string | null;
  Llegada: string | null;
}

/** A person who may be booked on a trip (accredited in its division on its day). */
export interface Traveller {
  IdPersona: number;
  Persona: string;
  Documento: string;
  IdCompania: number;
  Compania: string;
}

/** Why a person a change day moves has no seat in its proposal. */
export type Unplaced = 'NO_ROUTE' | 'NO_TRIP' | 'NO_SEAT';

/** Why a seat was released. */
export type ReleaseReason = 'DESMOVILIZACION' | 'VIAJE_CANCELADO' | 'CANCELADA';

/** A roster's timetable: a trip of a route at an hour on each of its change days that way in a period. */
export interface TimetablePlan {
  IdTipoHorario: number;
  FechaAncla: string;
  desde: string;
  hasta: string;
  IdRuta: number;
  Hora: string;
  Sentido: 'S' | 'B';
  IdBus: number;
  IdConductor: number;
}

/** A passenger on the road now (boarded on a trip that left and has not arrived), with the bus. */
export interface OnTheRoad {
  IdPersona: number;
  Persona: string;
  Documento: string;
  Compania: string;
  IdViaje: number;
  Placa: string;
  Ruta: string;
  Asiento: number;
}

/** A route's occupancy over a period. */
export interface RouteOccupancy {
  IdRuta: number;
  Ruta: string;
  viajes: number;
  asientos: number;
  reservados: number;
  abordados: number;
  noPresentados: number;
  /** Booked of the seats, in percent (one decimal). */
  ocupacion: number;
}

/** The seats of a day of a period. */
export interface SeatsOfDay {
  Fecha: string;
  asientos: number;
  reservados: number;
  abordados: number;
}

/** A passenger of a trip's signed manifest. */
export interface ManifestPassenger {
  IdPersona: number;
  Nombre: string;
  Documento: string;
  Compania: string;
  /** The seat booked; absent for someone the trip may board as an exception (accredited, not booked). */
  Asiento?: number;
  /** The person's credential numbers (a badge's token names one). */
  Credenciales: string[];
  /** The last day their accreditation in the division holds. */
  Hasta: string;
}

/** A trip's manifest as the server signs it for the door of the bus (GET /api/transporte/viajes/:id/manifiesto-firmado). */
export interface SignedManifest {
  IdViaje: number;
  IdCliente: number;
  IdDivision: number;
  Ruta: string;
  Fecha: string;
  Hora: string;
  Asientos: number;
  Estado: TripState;
  /** When the server signed it (ISO). */
  emitido: string;
  pasajeros: ManifestPassenger[];
  /** Accredited people of the division not booked: boarded only as an exception, with a reason. */
  acreditados: ManifestPassenger[];
  /** Credential numbers of people whose accreditation ended or was suspended (turned away by name). */
  terminados: Array<{ Nombre: string; Credenciales: string[] }>;
}

export const BOARDING_REASONS = [
  'BOARD',
  'NOT_BOOKED',
  'ACCREDITATION_ENDED',
  'ALREADY_BOARDED',
  'UNKNOWN',
  'TRIP_CLOSED',
  'MANIFEST_OLD',
  'OTHER_CLIENT',
  'EXCEPTION',
] as const;
export type BoardingReason = (typeof BOARDING_REASONS)[number];

/** What the door of the bus answers. */
export interface Boarding {
  allow: boolean;
  reason: BoardingReason;
  /** The message's key (transport.boarding.<reason>) in both the console's and the gate app's texts. */
  messageKey: string;
  passenger?: ManifestPassenger;
  /** Seats still free (an exception may take one). */
  free?: number;
}

/** What was presented at the door: a badge's credential number (from its verified token) of a client. */
export interface BoardingRead {
  Numero: string;
  IdCliente: number;
  IdDivision: number;
  /** P:<IdPersona> from the token. */
  Titular?: string;
}

const boarding = (reason: BoardingReason, extra: Partial<Boarding> = {}): Boarding => ({
  allow: reason === 'BOARD' || reason === 'EXCEPTION',
  reason,
  messageKey: `transport.boarding.${reason}`,
  ...extra,
});

/**
 * The decision at the door of the bus from the signed manifest alone: a booked passenger boards
 * once; someone whose accreditation ended is turned away by name; an accredited person not booked is
 * NOT_BOOKED (the guard may board them as an exception with a reason while seats are free, `exception`);
 * past MANIFEST_HOURS the manifest decides nothing. `boarded` is what this door boarded already.
 */
export function decideBoarding(
  manifest: SignedManifest,
  read: BoardingRead,
  at: Date,
  boarded: ReadonlySet<number>,
  exception?: { reason: string },
): Boarding {
  if (at.getTime() - Date.parse(manifest.emitido) > MANIFEST_HOURS * 3_600_000)
    return boarding('MANIFEST_OLD');
  if (read.IdCliente !== manifest.IdCliente) return boarding('OTHER_CLIENT');
  if (manifest.Estado === 'L' || manifest.Estado === 'X') return boarding('TRIP_CLOSED');
  const holds = (p: ManifestPassenger) =>
    p.Credenciales.includes(read.Numero) ||
    (read.Titular !== undefined && read.Titular === `P:${p.IdPersona}`);
  const ended = manifest.terminados.find((e) => e.Credenciales.includes(read.Numero));
  if (ended) return boarding('ACCREDITATION_ENDED', { passenger: { ...blank, Nombre: ended.Nombre } });
  const booked = manifest.pasajeros.find(holds);
  const free = manifest.Asientos - manifest.pasajeros.length - exceptionsBoarded(manifest, boarded);
  if (booked) {
    if (boarded.has(booked.IdPersona)) return boarding('ALREADY_BOARDED', { passenger: booked });
    if (booked.Hasta < manifest.Fecha) return boarding('ACCREDITATION_ENDED', { passenger: booked });
    return boarding('BOARD', { passenger: booked });
  }
  const accredited = manifest.acreditados.find(holds);
  if (!accredited || accredited.Hasta < manifest.Fecha)
    return accredited ? boarding('ACCREDITATION_ENDED', { passenger: accredited }) : boarding('UNKNOWN');
  if (boarded.has(accredited.IdPersona)) return boarding('ALREADY_BOARDED', { passenger: accredited });
  if (exception && exception.reason.trim().length >= 3 && free > 0)
    return boarding('EXCEPTION', { passenger: accredited, free: free - 1 });
  return boarding('NOT_BOOKED', { passenger: accredited, free: Math.max(0, free) });
}

const blank: ManifestPassenger = {
  IdPersona: 0,
  Nombre: '',
  Documento: '',
  Compania: '',
  Credenciales: [],
  Hasta: '',
};

/** How many people this door boarded who were not on the manifest's seats (exceptions take free seats). */
function exceptionsBoarded(manifest: SignedManifest, boarded: ReadonlySet<number>): number {
  const seated = new Set(manifest.pasajeros.map((p) => p.IdPersona));
  let n = 0;
  for (const id of boarded) if (!seated.has(id)) n++;
  return n;
}
