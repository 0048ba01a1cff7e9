/**
 * The meal decision: may what was presented at a dining room's reader (a credential, a badge's
 * card, or a document) eat now, and what does the meal cost whom? Pure, like the gate's `decide()`
 * beside it: the caller loads the rows, counts the meals already served and reads the clock.
 *
 * The checks run in a fixed order and the first that fails names the reason:
 *   0. the room: active, and one of its active services open at this instant (its sitting);
 *   1. identity: the gate's own check (a known, active credential within its dates, or a document);
 *   2. an accreditation of the room's division in force that day (state A: a demobilised or
 *      suspended person does not eat on the client's account), and the person's condition;
 *   3. entitlement: the person's company in an active dining group of the room, and one of those
 *      groups' schedules for the sitting's weekday and service covering this minute; an exclusive
 *      service only for the position types it is assigned to (an active cost assignment), a special
 *      one only for people with a cost category in force that day;
 *   4. the service's consumption number not used up by this person in this sitting;
 *   5. the room's capacity (the room's, else its type's) when its type applies capacity: the meals
 *      served in this sitting.
 *
 * A sitting is a service on a service day. Services are tried by their order, then their start; a
 * service whose end comes before its start crosses midnight and its early hours belong to the day
 * it started (the night meal of a shift that began the evening before). Group schedules are read
 * the same way, on the sitting's weekday. An end of 23:59 runs to midnight.
 *
 * Cost: the service's cost, in cents, split between the person's company and the worker by the
 * cost assignment of the service for the person's cost category in force on the service day when
 * the room's type distributes cost by category, else for the person's position type; AsumeCosto
 * says who bears Porcentaje of it, the other party the rest. With no assignment the company bears
 * it all. The split is worked out in whole cents (the company's share rounded, the worker's the
 * rest), so rows always add up to the totals.
 */

import {
  type Accreditation,
  type Credential,
  checkAccreditation,
  checkCondition,
  checkIdentity,
  clock,
  endMinutesOf,
  localTime,
  minutesOf,
  type Outcome,
  type Person,
  type PersonHolder,
  reasonMessageKey,
  type Weekday,
} from './access/decision.js';
import { addDays } from './dates.js';
import type { MessageParams } from './errors.js';

export const MEAL_REASONS = [
  'ALLOWED',
  'ROOM_INACTIVE',
  'NO_SERVICE',
  'UNKNOWN',
  'CREDENTIAL_INACTIVE',
  'CREDENTIAL_NOT_YET_VALID',
  'CREDENTIAL_EXPIRED',
  'NOT_ACCREDITED',
  'ACCREDITATION_OUT_OF_DATES',
  'ACCREDITATION_SUSPENDED',
  'ACCREDITATION_TERMINATED',
  'PERSON_CEASED',
  'PERSON_INACTIVE',
  'NOT_IN_GROUP',
  'NO_GROUP_SCHEDULE',
  'OUTSIDE_GROUP_SCHEDULE',
  'EXCLUSIVE_SERVICE',
  'SPECIAL_SERVICE',
  'ALREADY_SERVED',
  'ROOM_FULL',
  // A badge's token that is not genuine or not the client's, refused before the decision.
  'TOKEN_MALFORMED',
  'TOKEN_FORGED',
  'TOKEN_OTHER_CLIENT',
] as const;
export type MealReason = (typeof MEAL_REASONS)[number];

/** The reasons the gate names too keep the gate's words (gate.reasons.*); the others are dining.reasons.*. */
const GATE_WORDS: readonly MealReason[] = [
  'UNKNOWN',
  'CREDENTIAL_INACTIVE',
  'CREDENTIAL_NOT_YET_VALID',
  'CREDENTIAL_EXPIRED',
  'NOT_ACCREDITED',
  'ACCREDITATION_OUT_OF_DATES',
  'ACCREDITATION_SUSPENDED',
  'ACCREDITATION_TERMINATED',
  'PERSON_CEASED',
  'PERSON_INACTIVE',
];
export const mealMessageKey = (reason: MealReason): string =>
  GATE_WORDS.includes(reason)
    ? reasonMessageKey(reason as never)
    : reason.startsWith('TOKEN_')
      ? `identification.verify.reasons.${reason}`
      : `dining.reasons.${reason}`;

type YesNo = 'S' | 'N';

export interface DiningRoom {
  IdComedor: number;
  IdDivision: number;
  Descripcion?: string;
  Capacidad?: number | null;
  Activo: YesNo;
}
export interface DiningType {
  Capacidad?: number | null;
  AplicaCapacidad: YesNo;
  DistribuirCostoCategoria: YesNo;
}
export interface DiningService {
  IdServicio: number;
  Descripcion: string;
  Orden: number;
  /** Price of one meal, in the client's currency (two decimals). */
  Costo: number;
  NumeroConsumos: number;
  Exclusivo: YesNo;
  Especial: YesNo;
  HoraInicio: string;
  HoraFin: string;
  Activo: YesNo;
}
export interface DiningGroup {
  IdGrupoComedor: number;
  Companias: number[];
  Activo: YesNo;
}
export interface GroupSchedule {
  IdGrupoComedor: number;
  Dia: Weekday;
  IdServicio: number;
  HoraInicio: string;
  HoraFin: string;
  Activo: YesNo;
}
export interface CostAssignment {
  IdServicio: number;
  IdTipoPosicion?: number | null;
  IdCategoriaCosto?: number | null;
  /** C the company bears Porcentaje, T the worker does. */
  AsumeCosto: 'C' | 'T';
  Porcentaje: number;
  Activo: YesNo;
}
export interface PersonCategory {
  IdCategoriaCosto: number;
  FechaInicio: string;
  FechaFin?: string | null;
  Activo: YesNo;
}

/** The person behind what was presented, with what the meal decision and its cost read. */
export interface Diner {
  person: Person;
  accreditations: Accreditation[];
  /** The company the person works for (its employment in the division), which the meal is charged to. */
  IdCompania?: number;
  IdTipoPosicion?: number;
  categories: PersonCategory[];
}

/** What a dining reader read: a card's number (a badge's token is read back to its number first) or a document. */
export type MealPresented =
  /** Hasta: the last day of the badge's token that presented the card, which bounds it. */
  { kind: 'credential'; Numero: string; Hasta?: string } | { kind: 'document'; Documento: string };

/** The dining room's configuration the decision reads (loaded once and reused between meals). */
export interface DiningSite {
  room: DiningRoom;
  type: DiningType;
  services: DiningService[];
  groups: DiningGroup[];
  schedules: GroupSchedule[];
  assignments: CostAssignment[];
}

export interface MealInput {
  site: DiningSite;
  at: Date;
  /** The site's IANA time zone. */
  timeZone: string;
  presented: MealPresented;
  credential?: Credential;
  diner?: Diner;
  /** Meals this person was served in the sitting already (voided ones not counted). */
  used: number;
  /** Meals the room served in the sitting already. */
  served: number;
  /**
   * A meal a supervisor registers by hand (a reader was down): its service and service day are
   * given instead of read from the clock, and the group's hours are not checked (the group must
   * still have the service that weekday).
   */
  manual?: { IdServicio: number; day: string };
}

/** A service on a service day. */
export interface Sitting {
  service: DiningService;
  /** The service day (yyyy-mm-dd): the day its window opened. */
  day: string;
  weekday: Weekday;
  /** Minute of the wall clock at the instant. */
  minute: number;
}

export interface MealCost {
  /** In cents. */
  total: number;
  company: number;
  worker: number;
  /** The share of the company, 0–100. */
  companyPercent: number;
  /** What the split was taken from: a category's or a position type's assignment, or none (company bears all). */
  by: 'category' | 'position' | 'none';
  IdCategoriaCosto?: number;
}

export interface MealDecision {
  allow: boolean;
  reason: MealReason;
  messageKey: string;
  params?: MessageParams;
  sitting?: Sitting;
  /** The meal's cost, when allowed. */
  cost?: MealCost;
}

/** Whether a window "HH:mm–HH:mm" covers a minute of its day; an end before the start runs past midnight. */
function windowCovers(start: string, end: string, minute: number): 'same' | 'next' | false {
  const from = minutesOf(start);
  const to = endMinutesOf(end);
  if (Number.isNaN(from + to) || from === to) return false;
  if (from < to) return from <= minute && minute < to ? 'same' : false;
  if (minute >= from) return 'same';
  return minute < to ? 'next' : false;
}

const weekdayOf = (date: string): Weekday => (new Date(`${date}T00:00:00Z`).getUTCDay() || 7) as Weekday;

/** The sitting open at an instant: the first active service by order (then start) whose window covers it. */
export function sittingAt(services: DiningService[], at: Date, timeZone: string): Sitting | undefined {
  const local = localTime(at, timeZone);
  const ordered = services
    .filter((s) => s.Activo === 'S')
    .sort((a, b) => a.Orden - b.Orden || minutesOf(a.HoraInicio) - minutesOf(b.HoraInicio));
  for (const service of ordered) {
    const covers = windowCovers(service.HoraInicio, service.HoraFin, local.minute);
    if (!covers) continue;
    const day = covers === 'same' ? local.date : addDays(local.date, -1);
    return { service, day, weekday: weekdayOf(day), minute: local.minute };
  }
  return undefined;
}

/**
 * The day whose sittings a room is serving at an instant: the open sitting's (a night's that
 * began before midnight is the day it began), else the room's date. The management screen shows
 * this day, so after midnight the night's sitting still open is the one it counts.
 */
export function serviceDay(services: DiningService[], at: Date, timeZone: string): string {
  return sittingAt(services, at, timeZone)?.day ?? localTime(at, timeZone).date;
}

/**
 * The day of a service's latest sitting to have begun by an instant: a sitting that crosses
 * midnight belongs to the day it began, so from midnight until it begins again it is yesterday's
 * (a meal by hand entered at 01:00 for the night's sitting goes into the one being served).
 */
export function latestSittingDay(service: DiningService, at: Date, timeZone: string): string {
  const local = localTime(at, timeZone);
  const start = minutesOf(service.HoraInicio);
  const crosses = endMinutesOf(service.HoraFin) <= start;
  return crosses && local.minute < start ? addDays(local.date, -1) : local.date;
}

/** The sitting a supervisor names: an active service of the room on a service day. */
export function manualSitting(
  services: DiningService[],
  manual: { IdServicio: number; day: string },
  at: Date,
  timeZone: string,
): Sitting | undefined {
  const service = services.find((s) => s.IdServicio === manual.IdServicio && s.Activo === 'S');
  if (!service) return undefined;
  return { service, day: manual.day, weekday: weekdayOf(manual.day), minute: localTime(at, timeZone).minute };
}

/** The sitting of a presentation: the one a supervisor names, else the one the clock says. */
export function sittingOf(
  services: DiningService[],
  at: Date,
  timeZone: string,
  manual?: { IdServicio: number; day: string },
): Sitting | undefined {
  return manual ? manualSitting(services, manual, at, timeZone) : sittingAt(services, at, timeZone);
}

const within = (date: string, from: string, to?: string | null): boolean =>
  from <= date && (to == null || date <= to);

/** The person's cost category in force on a day (the latest started, if several). */
export function categoryOn(categories: PersonCategory[], day: string): PersonCategory | undefined {
  return categories
    .filter((c) => c.Activo === 'S' && within(day, c.FechaInicio, c.FechaFin))
    .sort((a, b) => b.FechaInicio.localeCompare(a.FechaInicio))[0];
}

/** The meal's cost split (see the module comment). */
export function mealCost(
  service: DiningService,
  type: DiningType,
  diner: Pick<Diner, 'IdTipoPosicion' | 'categories'>,
  assignments: CostAssignment[],
  day: string,
): MealCost {
  const total = Math.round(service.Costo * 100);
  const active = assignments.filter((a) => a.Activo === 'S' && a.IdServicio === service.IdServicio);
  const category = categoryOn(diner.categories, day);
  let by: MealCost['by'] = 'none';
  let assignment: CostAssignment | undefined;
  if (type.DistribuirCostoCategoria === 'S' && category) {
    assignment = active.find((a) => a.IdCategoriaCosto === category.IdCategoriaCosto);
    if (assignment) by = 'category';
  }
  if (!assignment && diner.IdTipoPosicion != null) {
    assignment = active.find((a) => a.IdTipoPosicion === diner.IdTipoPosicion && a.IdCategoriaCosto == null);
    if (assignment) by = 'position';
  }
  const share = Math.min(Math.max(assignment?.Porcentaje ?? 100, 0), 100);
  const companyPercent = !assignment || assignment.AsumeCosto === 'C' ? share : 100 - share;
  const company = Math.round((total * companyPercent) / 100);
  return {
    total,
    company,
    worker: total - company,
    companyPercent,
    by,
    ...(category && { IdCategoriaCosto: category.IdCategoriaCosto }),
  };
}

type MealOutcome = { reason: MealReason; params?: MessageParams } | undefined;

function checkEntitlement(site: DiningSite, diner: Diner, sitting: Sitting, hours: boolean): MealOutcome {
  const { service } = sitting;
  const groups = site.groups.filter(
    (g) => g.Activo === 'S' && diner.IdCompania != null && g.Companias.includes(diner.IdCompania),
  );
  if (!groups.length) return { reason: 'NOT_IN_GROUP' };
  const ids = new Set(groups.map((g) => g.IdGrupoComedor));
  const rows = site.schedules.filter(
    (r) =>
      r.Activo === 'S' &&
      ids.has(r.IdGrupoComedor) &&
      r.Dia === sitting.weekday &&
      r.IdServicio === service.IdServicio,
  );
  if (!rows.length) return { reason: 'NO_GROUP_SCHEDULE', params: { service: service.Descripcion } };
  // A group's window inside a service that crosses midnight is read on the same clock.
  if (hours && !rows.some((r) => windowCovers(r.HoraInicio, r.HoraFin, sitting.minute))) {
    const first = [...rows].sort((a, b) => a.HoraInicio.localeCompare(b.HoraInicio))[0];
    return {
      reason: 'OUTSIDE_GROUP_SCHEDULE',
      params: { from: first.HoraInicio, to: first.HoraFin, time: clock(sitting) },
    };
  }
  if (
    service.Exclusivo === 'S' &&
    !site.assignments.some(
      (a) =>
        a.Activo === 'S' &&
        a.IdServicio === service.IdServicio &&
        a.IdTipoPosicion != null &&
        a.IdTipoPosicion === diner.IdTipoPosicion,
    )
  )
    return { reason: 'EXCLUSIVE_SERVICE', params: { service: service.Descripcion } };
  if (service.Especial === 'S' && !categoryOn(diner.categories, sitting.day))
    return { reason: 'SPECIAL_SERVICE', params: { service: service.Descripcion } };
  return undefined;
}

/** The room's capacity for a sitting, when its type applies one. */
export function capacityOf(site: Pick<DiningSite, 'room' | 'type'>): number | undefined {
  if (site.type.AplicaCapacidad !== 'S') return undefined;
  return site.room.Capacidad ?? site.type.Capacidad ?? undefined;
}

function evaluate(input: MealInput): { outcome: MealOutcome; sitting?: Sitting } {
  const { site, diner } = input;
  if (site.room.Activo !== 'S') return { outcome: { reason: 'ROOM_INACTIVE' } };
  const sitting = sittingOf(site.services, input.at, input.timeZone, input.manual);
  if (!sitting)
    return {
      outcome: { reason: 'NO_SERVICE', params: { time: clock(localTime(input.at, input.timeZone)) } },
    };
  // The gate's identity check, on a person holder (a reader takes no plates).
  const holder: PersonHolder | undefined = diner && {
    kind: 'person',
    person: diner.person,
    accreditations: diner.accreditations,
    requirements: [],
    assignments: [],
    exonerations: [],
    restrictions: [],
  };
  const shared = (outcome: Outcome): MealOutcome => outcome as MealOutcome;
  const identity = shared(
    checkIdentity({ presented: input.presented, credential: input.credential, holder }, sitting.day),
  );
  if (identity || !diner || !holder) return { outcome: identity ?? { reason: 'UNKNOWN' }, sitting };
  const { service } = sitting;
  const capacity = capacityOf(site);
  const outcome =
    shared(checkAccreditation(diner.accreditations, site.room.IdDivision, sitting.day)) ??
    shared(checkCondition(holder)) ??
    checkEntitlement(site, diner, sitting, !input.manual) ??
    (input.used >= service.NumeroConsumos
      ? {
          reason: 'ALREADY_SERVED' as const,
          params: { service: service.Descripcion, used: input.used, max: service.NumeroConsumos },
        }
      : undefined) ??
    (capacity !== undefined && input.served >= capacity
      ? { reason: 'ROOM_FULL' as const, params: { capacity } }
      : undefined);
  return { outcome, sitting };
}

/** Serve a meal or refuse it, with the reason, its message key and, when served, the meal's cost. */
export function decideMeal(input: MealInput): MealDecision {
  const { outcome, sitting } = evaluate(input);
  const reason = outcome?.reason ?? 'ALLOWED';
  const allow = reason === 'ALLOWED';
  return {
    allow,
    reason,
    messageKey: mealMessageKey(reason),
    ...(outcome?.params && { params: outcome.params }),
    ...(sitting && { sitting }),
    ...(allow &&
      sitting &&
      input.diner && {
        cost: mealCost(sitting.service, input.site.type, input.diner, input.site.assignments, sitting.day),
      }),
  };
}

/** Cents as the client's money with two decimals (12.5 → "12.50"). */
/**
 * Cents in a currency (its symbol and decimals, as the client configures it): rounded to its
 * decimals, thousands grouped: 1890 in soles → "S/ 18.90", 189050 in Chilean pesos → "$ 1,891".
 * Without a currency, two decimals and no symbol.
 */
export function amountText(cents: number, currency?: { Simbolo: string; Decimales: number }): string {
  const decimals = Math.min(4, Math.max(0, currency?.Decimales ?? 2));
  const fixed = (Math.abs(cents) / 100).toFixed(decimals);
  const [whole, part] = fixed.split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const number = `${cents < 0 ? '-' : ''}${grouped}${part ? `.${part}` : ''}`;
  return currency?.Simbolo ? `${currency.Simbolo} ${number}` : number;
}

export const money = (cents: number): string => {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
};
