/**
 * Camp lodging (spec section 2 Hotel): what the server's lodging calls and the console's screens
 * share — the halves of a bed a stay holds, the nights of a stay, bed placement for a crew, and
 * the rows of the availability grid and the dashboard.
 */
import { addDays, daysBetween } from './dates.js';

/** A stay's turn: the whole bed (C), or the day (D) or night (N) half of a hot bed. */
export type LodgingTurn = 'C' | 'D' | 'N';
export const LODGING_TURNS: readonly LodgingTurn[] = ['C', 'D', 'N'];
/** A half of a bed's night: the day turn's sleep (D) or the night turn's (N). */
export type Half = 'D' | 'N';

/** R reserved, I checked in, S checked out, L released, A cancelled, M moved on to another bed. */
export type ReservationState = 'R' | 'I' | 'S' | 'L' | 'A' | 'M';
/** The states that hold a bed's nights. */
export const HOLDING_STATES: readonly ReservationState[] = ['R', 'I'];

/** The longest range the availability grid shows at once, in days. */
export const GRID_MAX_DAYS = 31;
/** The most people one mass reservation places. */
export const MASS_MAX_PEOPLE = 1000;

/**
 * The halves a stay holds of its bed each night: an exclusive bed is one person's whole, and so
 * is a stay for the whole bed; a day or night turn holds its half of a hot bed, which another
 * person of the opposite turn may hold at the same time.
 */
export function halvesOf(turn: LodgingTurn, exclusiveBed: boolean): Half[] {
  if (exclusiveBed || turn === 'C') return ['D', 'N'];
  return [turn];
}

/** The nights of a stay from its arrival to its departure date (the departure's night is not one). */
export function nightsOf(from: string, to: string): string[] {
  const count = Math.max(0, daysBetween(from, to));
  return Array.from({ length: count }, (_, i) => addDays(from, i));
}

/**
 * The departure of a stay cut short on `day` (a check-out, a move, a demobilisation): that day, or
 * the morning after the arrival when it is cut the day it began; a stay already past its
 * departure keeps it.
 */
export function departureOn(from: string, to: string, day: string): string {
  if (to <= day) return to;
  return day > from ? day : addDays(from, 1);
}

/** A bed as placement sees it: where it is, what it is, who its block houses. */
export interface PlacementBed {
  IdCama: number;
  IdHabitacion: number;
  IdTipoHabitacion: number;
  /** The block's: M men, F women, X mixed. */
  Genero: 'M' | 'F' | 'X';
  Exclusiva: boolean;
}

/** A person to place, with what the camp's profile for the person's company asks. */
export interface PlacementPerson {
  IdPersona: number;
  /** M or F; unknown fits only a mixed block. */
  Sexo: string | null;
  /** The profile's room type, when it names one. */
  IdTipoHabitacion: number | null;
  Turno: LodgingTurn;
}

/** Whether a block houses a person: a mixed one anyone, else only its own sex. */
export const blockHouses = (block: PlacementBed['Genero'], sex: string | null): boolean =>
  block === 'X' || block === sex;

/**
 * Places people in free beds for the same nights, first fit over the beds in their order (by
 * camp, block and room, so a crew fills rooms side by side): a bed of the person's room type, in a
 * block that houses the person, whose halves the person's turn needs are free every night. `taken`
 * holds the nights already held, as `${IdCama}|${date}|${half}`; it grows with each placement.
 * Answers the bed of each person placed, and nothing for a person no bed fits.
 */
export function placePeople(
  beds: readonly PlacementBed[],
  people: readonly PlacementPerson[],
  nights: readonly string[],
  taken: Set<string>,
): Map<number, number> {
  const placed = new Map<number, number>();
  // Where the search for a kind of need starts: the beds before it failed that need already,
  // and the taken nights only grow, so they would fail it again.
  const cursors = new Map<string, number>();
  for (const person of people) {
    const need = `${person.IdTipoHabitacion ?? '*'}|${person.Sexo ?? '?'}|${person.Turno}`;
    let i = cursors.get(need) ?? 0;
    for (; i < beds.length; i++) {
      const bed = beds[i];
      if (person.IdTipoHabitacion !== null && bed.IdTipoHabitacion !== person.IdTipoHabitacion) continue;
      if (!blockHouses(bed.Genero, person.Sexo)) continue;
      const halves = halvesOf(person.Turno, bed.Exclusiva);
      if (nights.some((night) => halves.some((half) => taken.has(`${bed.IdCama}|${night}|${half}`))))
        continue;
      for (const night of nights) for (const half of halves) taken.add(`${bed.IdCama}|${night}|${half}`);
      placed.set(person.IdPersona, bed.IdCama);
      break;
    }
    cursors.set(need, i);
  }
  return placed;
}

/** A bed of the availability grid, in its camp, block and room. */
export interface GridBed {
  IdCama: number;
  Codigo: string;
  Exclusiva: boolean;
  /** False for a bed, room or block out of service. */
  EnServicio: boolean;
  IdHabitacion: number;
  Habitacion: string;
  TipoHabitacion: string;
  IdModuloHotel: number;
  Modulo: string;
  IdCampamento: number;
  Campamento: string;
}

/** A stay the grid shows across its beds' days. */
export interface GridStay {
  IdReserva: number;
  IdCama: number;
  FechaInicio: string;
  FechaFin: string;
  Turno: LodgingTurn;
  Estado: 'R' | 'I';
  IdPersona: number;
  Persona: string;
  Documento: string;
  Compania: string | null;
  /** The person's accreditation in the division is suspended (an expired mandatory requirement). */
  Suspendida: boolean;
  /**
   * Checked in and still there after the departure day: the bed is theirs until they check out,
   * so the grid counts it held through `Hasta`, the day after the site's today.
   */
  Excedida?: boolean;
  Hasta?: string;
}

/** Whether a stay holds its bed on a night (an overstay: until it checks out). */
export const holdsNight = (s: GridStay, night: string): boolean =>
  s.FechaInicio <= night && night < (s.Hasta ?? s.FechaFin);

export interface AvailabilityGrid {
  desde: string;
  hasta: string;
  dias: string[];
  camas: GridBed[];
  estadias: GridStay[];
}

/** What a cell of the grid shows: the bed's state that night. */
export type CellState = 'free' | 'reserved' | 'occupied' | 'overstay' | 'half' | 'out';

/**
 * The state of a bed on a night from the stays on it: out of service, free, one hot-bed half held
 * (the other free), or held whole — occupied when someone is checked in, else reserved; a night a
 * guest still checked in holds past their departure day is an overstay, never free.
 */
export function cellState(bed: GridBed, stays: readonly GridStay[], night: string): CellState {
  if (!bed.EnServicio) return 'out';
  const on = stays.filter((s) => holdsNight(s, night));
  if (!on.length) return 'free';
  if (on.some((s) => s.Excedida && night >= s.FechaFin)) return 'overstay';
  const halves = new Set(on.flatMap((s) => halvesOf(s.Turno, bed.Exclusiva)));
  if (halves.size < 2) return 'half';
  return on.some((s) => s.Estado === 'I') ? 'occupied' : 'reserved';
}

/** A camp's figures today on the lodging dashboard. */
export interface CampToday {
  IdCampamento: number;
  Campamento: string;
  camas: number;
  ocupadas: number;
  reservadas: number;
  libres: number;
  fueraServicio: number;
  /** Occupied beds out of those in service, in percent (one decimal). */
  ocupacion: number;
}

/** A person arriving or leaving, or overstaying, on the dashboard's lists. */
export interface StayLine {
  IdReserva: number;
  IdCampamento: number;
  Cama: string;
  Persona: string;
  Documento: string;
  Compania: string | null;
  FechaInicio: string;
  FechaFin: string;
  Estado: ReservationState;
  /** For an overstay: past its reservation (R) or past its accreditation (A). */
  Motivo?: 'R' | 'A';
}

export interface LodgingDashboard {
  hoy: string;
  campamentos: CampToday[];
  llegadas: { hoy: StayLine[]; manana: StayLine[] };
  salidas: { hoy: StayLine[]; manana: StayLine[] };
  excedidos: StayLine[];
}

/** A person the mass reservation placed, or could not place and why. */
export interface ProposalLine {
  IdPersona: number | null;
  Documento: string;
  Persona: string;
  Compania: string | null;
  IdCama: number | null;
  Cama: string | null;
  Habitacion: string | null;
  /** Why the person was not placed, in the user's language. */
  Motivo: string | null;
}

/**
 * Why placement found no bed for a person: when no bed in service of their room type is in a
 * block that houses them (a room type only the men's block has, for a woman), the refusal says
 * so and names the room types that do have such beds; otherwise every fitting bed is taken.
 */
export function noBedReason(
  beds: readonly (PlacementBed & { TipoHabitacion: string; EnServicio: boolean })[],
  person: Pick<PlacementPerson, 'Sexo' | 'IdTipoHabitacion'>,
  name: string,
  typeName?: string,
): { messageKey: string; params: Record<string, string> } {
  const housing = beds.filter((b) => b.EnServicio && blockHouses(b.Genero, person.Sexo));
  const type = person.IdTipoHabitacion;
  if (type === null || person.Sexo === null || housing.some((b) => b.IdTipoHabitacion === type))
    return { messageKey: 'hotel.refusals.noBed', params: { name } };
  const others = [...new Set(housing.map((b) => b.TipoHabitacion))].sort((a, b) => a.localeCompare(b));
  const typeText = typeName ?? beds.find((b) => b.IdTipoHabitacion === type)?.TipoHabitacion ?? String(type);
  const sex = person.Sexo === 'F' ? 'F' : 'M';
  return {
    messageKey: `hotel.refusals.${others.length ? 'noBedOfType' : 'noBlockFor'}${sex}`,
    params: { name, type: typeText, others: others.join(', ') },
  };
}
