/**
 * The gate decision: may what was presented at a door (a credential, a document or a plate) pass it,
 * in this direction, at this instant? Pure: the caller loads the rows and reads the clock, so a gate cut
 * off from the server can run the same code over its local copy and reach the same answer.
 *
 * The checks run in a fixed order and the first that fails names the reason:
 *   0. the door: active, and used in this direction;
 *   1. identity: a known credential (a person's or a vehicle's; active, within its dates) or a known
 *      document or plate;
 *   2. an accreditation of the door's division in force today (state A);
 *   3. mandatory requirements not expired, unless an exoneration waives them; a vehicle's maintenance
 *      of a kind that blocks it not overdue (MAINTENANCE_OVERDUE, naming it); the driver of a vehicle
 *      whose type needs one holding a valid internal licence of it (INTERNAL_LICENCE_MISSING);
 *   4. qualifications the door requires of a person (a specific induction today): one that names the
 *      door, its zone or a zone it sits in must be held, valid today (INDUCTION_MISSING, naming it).
 *      The feature that keeps them says what the site requires and what each person holds. Vehicles
 *      are not checked; neither an exoneration nor a profile that skips requirements waives them
 *      (a safety course belongs to the place, not to the accreditation's papers);
 *   5. an access profile in force today whose groups open this door, in the schedule's hours;
 *   6. restrictions (division, zone and its sub-zones, or door; full day or hours);
 *   7. temporary assignments: weighed with the permanent ones in step 5 (they only add doors and
 *      hours; covering for someone must not take away one's own access) and named in the answer:
 *      ALLOWED_TEMPORARY when only a temporary one let the holder in, TEMPORARY_ENDED when the only
 *      one that would have has ended. They do not lift restrictions;
 *   8. the person's condition (ceased, inactive) or the vehicle's state.
 *
 * Exits are lenient: a holder the gate recognises is let out whatever the reason, so nobody is kept
 * inside a site far from town by an expired document, an induction that lapsed while inside or a
 * schedule that ended mid-shift; the answer still carries the reason, so the marking records what was
 * wrong. Not waived on exit: a door that is out of service or not an exit, and an unknown identity,
 * because the headcount (evacuation roll call) must know who left; the guard lets such a person out
 * by hand.
 *
 * Dates (credential, accreditation, requirement, qualification, assignment, exoneration, restriction)
 * are compared with the site's local calendar date, all inclusive. Schedule intervals are half-open
 * [start, end) in whole minutes, like the server's overlap check; an end of 23:59 runs to midnight,
 * because a night shift is stored as "19:00–23:59" plus "00:00–07:00" the next day. An interval whose
 * end comes before its start crosses midnight: it belongs to its own day and continues into the next
 * morning.
 */

import type { MessageParams } from '../errors.js';
import type {
  AccesoPersona,
  Credencial,
  Exoneracion,
  GrupoAcceso,
  Horario,
  HorarioIntervalo,
  PerfilAcceso,
  Persona,
  Puerta,
  Restriccion,
  Vehiculo,
  Zona,
} from '../generated/entities.js';

export const REASONS = [
  'ALLOWED',
  'ALLOWED_TEMPORARY',
  'DOOR_INACTIVE',
  'WRONG_DIRECTION',
  'UNKNOWN',
  'CREDENTIAL_INACTIVE',
  'CREDENTIAL_NOT_YET_VALID',
  'CREDENTIAL_EXPIRED',
  'NOT_ACCREDITED',
  'ACCREDITATION_OUT_OF_DATES',
  'ACCREDITATION_SUSPENDED',
  'ACCREDITATION_TERMINATED',
  'REQUIREMENT_EXPIRED',
  'MAINTENANCE_OVERDUE',
  'INTERNAL_LICENCE_MISSING',
  'INDUCTION_MISSING',
  'NO_ACCESS_GROUP',
  'OUTSIDE_SCHEDULE',
  'RESTRICTED',
  'TEMPORARY_ENDED',
  'PERSON_CEASED',
  'PERSON_INACTIVE',
  'VEHICLE_INACTIVE',
] as const;
export type ReasonCode = (typeof REASONS)[number];

/** Denials an exit does not override (see the module comment). */
export const STRICT_ON_EXIT: readonly ReasonCode[] = ['DOOR_INACTIVE', 'WRONG_DIRECTION', 'UNKNOWN'];

export const reasonMessageKey = (reason: ReasonCode): string => `gate.reasons.${reason}`;

/** The columns of a stored row the decision reads; ids the database always fills are required here. */
type Row<T, Needed extends keyof T, Optional extends keyof T = never> = Required<Pick<T, Needed>> &
  Partial<Pick<T, Optional>>;

export type Door = Row<Puerta, 'IdPuerta' | 'IdDivision' | 'IdZona' | 'Sentido' | 'Activo'>;
export type Zone = Row<Zona, 'IdZona', 'IdZonaPadre'>;
export type AccessProfile = Row<PerfilAcceso, 'IdPerfilAcceso' | 'Grupos' | 'ValidarRequisitos' | 'Activo'>;
export type AccessGroup = Row<GrupoAcceso, 'IdGrupoAcceso' | 'IdHorario' | 'Puertas' | 'Activo'>;
export type Schedule = Row<Horario, 'IdHorario' | 'Activo'>;
export type ScheduleInterval = Row<
  HorarioIntervalo,
  'IdHorario' | 'Dia' | 'HoraInicio' | 'HoraFin' | 'Activo'
>;
/** A person-access or vehicle-access row. */
export type AccessAssignment = Row<
  AccesoPersona,
  'IdPerfilAcceso' | 'FechaInicio' | 'FechaFin' | 'Temporal' | 'Activo'
>;
export type Restriction = Row<
  Restriccion,
  'IdDivision' | 'DiaCompleto' | 'FechaInicio' | 'Activo',
  'IdZona' | 'IdPuerta' | 'FechaFin' | 'HoraInicio' | 'HoraFin' | 'Motivo'
>;
export type Exoneration = Row<
  Exoneracion,
  'IdDivision' | 'IdRequisito' | 'FechaInicio' | 'FechaFin' | 'Activo'
>;
export type Person = Row<Persona, 'IdPersona' | 'Condicion' | 'Inactivo' | 'ValidarRequisitosAcceso'>;
export type Vehicle = Row<Vehiculo, 'IdVehiculo' | 'Estado'>;
/** A credential of a person (IdPersona) or of a vehicle (IdVehiculo: its windscreen card). */
export type Credential = Row<
  Credencial,
  'Numero' | 'FechaInicio' | 'FechaFin' | 'Activo',
  'IdPersona' | 'IdVehiculo'
>;

/** One accreditation of a person or vehicle (its table comes with the accreditation work). */
export interface Accreditation {
  IdDivision: number;
  IdContrato: number;
  /** yyyy-mm-dd, both inclusive. */
  FechaInicio: string;
  FechaFin: string;
  /** A active, S suspended (a mandatory requirement expired), T terminated (demobilised). */
  Estado: 'A' | 'S' | 'T';
}

/** A requirement kept for a person or vehicle. */
export interface KeptRequirement {
  IdRequisito: number;
  /** Its name, for the message. */
  Requisito?: string;
  Obligatorio: 'S' | 'N';
  /** The last day it holds (yyyy-mm-dd); absent: it does not expire. */
  FechaVencimiento?: string;
}

/** What a door may require of a person besides the access rules: an induction today. */
export type QualificationKind = 'induction';

/** The reason a door names for a required qualification the person does not hold. */
const QUALIFICATION_MISSING: Record<QualificationKind, ReasonCode> = {
  induction: 'INDUCTION_MISSING',
};

/**
 * A qualification the site requires at the doors it names and at every door of the zones it names
 * (and of the zones inside them).
 */
export interface RequiredQualification {
  kind: QualificationKind;
  /** Its id among those of its kind (an induction's course). */
  id: number;
  /** Its name, for the message. */
  name: string;
  doors: number[];
  zones: number[];
}

/** A qualification a person holds, to its last valid day (yyyy-mm-dd, inclusive). */
export interface HeldQualification {
  kind: QualificationKind;
  id: number;
  until: string;
}

interface HolderRows {
  accreditations: Accreditation[];
  requirements: KeptRequirement[];
  assignments: AccessAssignment[];
}
export interface PersonHolder extends HolderRows {
  kind: 'person';
  person: Person;
  exonerations: Exoneration[];
  restrictions: Restriction[];
  /** The qualifications held (valid ones: a revoked one is not held), when the site requires any. */
  qualifications?: HeldQualification[];
}
/** When a vehicle's maintenance of a kind that blocks it (maintenance-type BloqueaVehiculo) is next due. */
export interface MaintenanceDue {
  /** The kind's name, for the message. */
  Tipo: string;
  /** The last day (yyyy-mm-dd) before it is overdue. */
  Vence: string;
}
export interface VehicleHolder extends HolderRows {
  kind: 'vehicle';
  vehicle: Vehicle;
  /** Its type, when the type needs its driver to hold an internal licence of it to enter. */
  licenceType?: { IdTipoVehiculo: number; Tipo: string };
  /** Its maintenance of the kinds that block it, by their next due day; none when absent. */
  maintenance?: MaintenanceDue[];
}
export type Holder = PersonHolder | VehicleHolder;

/** The driver presented with a vehicle: their name and the internal licences they hold (type, last valid day). */
export interface Driver {
  Nombre: string;
  licences: Array<{ IdTipoVehiculo: number; Vence: string }>;
}

/** What the device read. */
export type Presented =
  | { kind: 'credential'; Numero: string }
  | { kind: 'document'; Documento: string }
  | { kind: 'plate'; Placa: string };

/** The division's access configuration. */
export interface SiteAccess {
  profiles: AccessProfile[];
  groups: AccessGroup[];
  schedules: Schedule[];
  intervals: ScheduleInterval[];
  /** For restrictions on a zone that contains the door's zone. */
  zones: Zone[];
  /** What its doors and zones require of a person (step 4); none when absent. */
  qualifications?: RequiredQualification[];
}

export type Direction = 'E' | 'S';

export interface DecisionInput {
  door: Door;
  direction: Direction;
  /** The instant of the marking. */
  at: Date;
  /** The site's IANA time zone, such as America/Lima. */
  timeZone: string;
  presented: Presented;
  /** The credential whose Numero was presented, when one was found. */
  credential?: Credential;
  /** The person (of the credential or document) or the vehicle (of the plate) found, if any. */
  holder?: Holder;
  /** With a vehicle, its driver as presented (their badge or document), when one was. */
  driver?: Driver;
  site: SiteAccess;
}

export interface Decision {
  allow: boolean;
  reason: ReasonCode;
  messageKey: string;
  params?: MessageParams;
  /** An exit let through although `reason` denies it. */
  lenientExit?: true;
}

export type Weekday = 1 | 2 | 3 | 4 | 5 | 6 | 7;

/** Local calendar date (yyyy-mm-dd), weekday (1 Monday … 7 Sunday) and minute of the day. */
export interface LocalTime {
  date: string;
  day: Weekday;
  minute: number;
}

const MINUTES_PER_DAY = 1440;
const formats = new Map<string, Intl.DateTimeFormat>();

/** The wall clock of `timeZone` at `at`, daylight saving included. Throws RangeError on an unknown zone. */
export function localTime(at: Date, timeZone: string): LocalTime {
  let format = formats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    });
    formats.set(timeZone, format);
  }
  const part = Object.fromEntries(format.formatToParts(at).map((p) => [p.type, p.value]));
  const date = `${part.year}-${part.month}-${part.day}`;
  const day = (new Date(`${date}T00:00:00Z`).getUTCDay() || 7) as Weekday;
  return { date, day, minute: Number(part.hour) * 60 + Number(part.minute) };
}

/** Minutes since midnight of "HH:mm"; NaN for anything else, which then covers nothing. */
export const minutesOf = (hhmm: string): number => {
  const match = /^([01]\d|2[0-3]):([0-5]\d)$/.exec(hhmm);
  return match ? Number(match[1]) * 60 + Number(match[2]) : Number.NaN;
};
export const endMinutesOf = (hhmm: string): number => (hhmm === '23:59' ? MINUTES_PER_DAY : minutesOf(hhmm));

/** Whether a restriction's hours cover `minute`; missing or unreadable hours mean the whole day, the safe reading. */
function restrictedHoursCover(start: string | undefined, end: string | undefined, minute: number): boolean {
  const from = minutesOf(start ?? '');
  const to = endMinutesOf(end ?? '');
  if (Number.isNaN(from + to)) return true;
  return from <= to ? from <= minute && minute < to : minute >= from || minute < to;
}

/** Whether a schedule interval covers a local weekday and minute (see the module comment). */
export function intervalCovers(
  interval: Pick<ScheduleInterval, 'Dia' | 'HoraInicio' | 'HoraFin'>,
  day: Weekday,
  minute: number,
): boolean {
  const start = minutesOf(interval.HoraInicio);
  const end = endMinutesOf(interval.HoraFin);
  if (start < end) return day === interval.Dia && start <= minute && minute < end;
  if (start === end || Number.isNaN(start + end)) return false; // empty, or not a time
  const nextDay = (interval.Dia % 7) + 1;
  return (day === interval.Dia && minute >= start) || (day === nextDay && minute < end);
}

const within = (date: string, from: string, to?: string | null): boolean =>
  from <= date && (to == null || date <= to);

export type Outcome = { reason: ReasonCode; params?: MessageParams } | undefined;

/** What was presented, its credential and its holder (the checks a dining reader shares with the gate). */
type Identity = Pick<DecisionInput, 'presented' | 'credential' | 'holder'>;

/** Identity: a known credential (active, within its dates) or a known document or plate. */
export function checkIdentity({ presented, credential, holder }: Identity, today: string): Outcome {
  const code =
    presented.kind === 'credential'
      ? presented.Numero
      : presented.kind === 'document'
        ? presented.Documento
        : presented.Placa;
  const unknown: Outcome = { reason: 'UNKNOWN', params: { code } };
  if (!holder) return unknown;
  if (presented.kind === 'plate' && holder.kind !== 'vehicle') return unknown;
  if (presented.kind === 'document' && holder.kind !== 'person') return unknown;
  if (presented.kind !== 'credential') return undefined;
  // A card must be on file under the number read and belong to the person or vehicle found; anything
  // else is unknown.
  const owner =
    holder.kind === 'person'
      ? credential?.IdPersona === holder.person.IdPersona
      : credential?.IdVehiculo === holder.vehicle.IdVehiculo;
  if (!credential || credential.Numero !== presented.Numero || !owner) return unknown;
  if (credential.Activo !== 'S') return { reason: 'CREDENTIAL_INACTIVE', params: { code } };
  if (today < credential.FechaInicio)
    return { reason: 'CREDENTIAL_NOT_YET_VALID', params: { from: credential.FechaInicio } };
  if (today > credential.FechaFin)
    return { reason: 'CREDENTIAL_EXPIRED', params: { to: credential.FechaFin } };
  return undefined;
}

/** An accreditation of the division in force today (state A), else why not. */
export function checkAccreditation(records: Accreditation[], division: number, today: string): Outcome {
  const mine = records.filter((r) => r.IdDivision === division);
  if (!mine.length) return { reason: 'NOT_ACCREDITED' };
  const current = mine.filter((r) => within(today, r.FechaInicio, r.FechaFin));
  if (current.some((r) => r.Estado === 'A')) return undefined;
  // Today's records speak first; a suspension is named before a termination because it can be lifted.
  if (current.some((r) => r.Estado === 'S')) return { reason: 'ACCREDITATION_SUSPENDED' };
  if (current.length || mine.every((r) => r.Estado === 'T')) return { reason: 'ACCREDITATION_TERMINATED' };
  const latest = mine.reduce((a, b) => (b.FechaFin > a.FechaFin ? b : a));
  return { reason: 'ACCREDITATION_OUT_OF_DATES', params: { from: latest.FechaInicio, to: latest.FechaFin } };
}

/** Whether an exoneration in force today waives a person's requirement in the division (a vehicle has none). */
export function requirementWaived(
  holder: Holder,
  division: number,
  requirement: number,
  today: string,
): boolean {
  return (
    holder.kind === 'person' &&
    holder.exonerations.some(
      (e) =>
        e.Activo === 'S' &&
        e.IdDivision === division &&
        e.IdRequisito === requirement &&
        within(today, e.FechaInicio, e.FechaFin),
    )
  );
}

function checkRequirements(holder: Holder, division: number, today: string): Outcome {
  const waived = (id: number) => requirementWaived(holder, division, id, today);
  const expired = holder.requirements.find(
    (r) =>
      r.Obligatorio === 'S' &&
      r.FechaVencimiento != null &&
      r.FechaVencimiento < today &&
      !waived(r.IdRequisito),
  );
  if (!expired) return undefined;
  return {
    reason: 'REQUIREMENT_EXPIRED',
    params: {
      requirement: expired.Requisito ?? String(expired.IdRequisito),
      date: expired.FechaVencimiento ?? '',
    },
  };
}

/** A vehicle past the next due day of a maintenance whose kind blocks it (step 3, after its requirements). */
function checkMaintenance(holder: Holder, today: string): Outcome {
  if (holder.kind !== 'vehicle') return undefined;
  const overdue = (holder.maintenance ?? [])
    .filter((m) => m.Vence < today)
    .sort((a, b) => (a.Vence < b.Vence ? -1 : 1))[0];
  return overdue && { reason: 'MAINTENANCE_OVERDUE', params: { type: overdue.Tipo, date: overdue.Vence } };
}

/**
 * A vehicle whose type needs an internal licence enters only with a driver who holds a valid one of
 * that type (step 3, after its maintenance): the driver named, or "—" when none was presented.
 */
function checkInternalLicence(holder: Holder, driver: Driver | undefined, today: string): Outcome {
  if (holder.kind !== 'vehicle' || !holder.licenceType) return undefined;
  const type = holder.licenceType;
  const holds = driver?.licences.some((l) => l.IdTipoVehiculo === type.IdTipoVehiculo && today <= l.Vence);
  return holds
    ? undefined
    : { reason: 'INTERNAL_LICENCE_MISSING', params: { type: type.Tipo, driver: driver?.Nombre ?? '—' } };
}

/** A profile of the holder that opens this door, and whether one of its groups' schedules covers now. */
interface Opening {
  assignment: AccessAssignment;
  profile: AccessProfile;
  inSchedule: boolean;
}

function openings(
  { door, site }: DecisionInput,
  assignments: AccessAssignment[],
  local: LocalTime,
): Opening[] {
  const scheduleCovers = (id: number) =>
    site.schedules.some((s) => s.IdHorario === id && s.Activo === 'S') &&
    site.intervals.some(
      (i) => i.IdHorario === id && i.Activo === 'S' && intervalCovers(i, local.day, local.minute),
    );
  return assignments.flatMap((assignment) => {
    const profile = site.profiles.find(
      (p) => p.IdPerfilAcceso === assignment.IdPerfilAcceso && p.Activo === 'S',
    );
    const groups = site.groups.filter(
      (g) =>
        g.Activo === 'S' && profile?.Grupos.includes(g.IdGrupoAcceso) && g.Puertas.includes(door.IdPuerta),
    );
    if (!profile || !groups.length) return [];
    return [{ assignment, profile, inSchedule: groups.some((g) => scheduleCovers(g.IdHorario)) }];
  });
}

/** `granted`: openings of assignments in force today; `undated`: the same whatever the dates. */
function checkAccess(granted: Opening[], undated: () => Opening[], local: LocalTime): Outcome {
  if (!granted.length) {
    const temporary = undated()
      .filter((o) => o.assignment.Temporal === 'S' && o.assignment.FechaFin < local.date)
      .sort((a, b) => b.assignment.FechaFin.localeCompare(a.assignment.FechaFin))[0];
    return temporary
      ? { reason: 'TEMPORARY_ENDED', params: { to: temporary.assignment.FechaFin } }
      : { reason: 'NO_ACCESS_GROUP' };
  }
  if (!granted.some((o) => o.inSchedule))
    return { reason: 'OUTSIDE_SCHEDULE', params: { time: clock(local) } };
  return undefined;
}

export const clock = ({ minute }: Pick<LocalTime, 'minute'>) =>
  `${String(Math.floor(minute / 60)).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}`;

/**
 * A marking's local date and time (HH:mm:ss) at its door. The sites' offsets are whole minutes,
 * so the seconds are the instant's own.
 */
export function markingClock(at: Date, timeZone: string): { date: string; time: string } {
  const local = localTime(at, timeZone);
  return { date: local.date, time: `${clock(local)}:${String(at.getUTCSeconds()).padStart(2, '0')}` };
}

/** The door's zone and every zone it sits in, so a restriction on "the pit" covers the pit's doors. */
function zoneLine(zoneId: number, zones: Zone[]): number[] {
  const line: number[] = [];
  let id: number | undefined = zoneId;
  while (id != null && !line.includes(id)) {
    line.push(id);
    const current: number = id;
    id = zones.find((z) => z.IdZona === current)?.IdZonaPadre;
  }
  return line;
}

/** The qualifications the site requires at this door: naming the door, its zone or a zone it sits in. */
export function requiredAt(door: Door, site: SiteAccess): RequiredQualification[] {
  const required = site.qualifications ?? [];
  if (!required.length) return required;
  const zones = zoneLine(door.IdZona, site.zones);
  return required.filter((q) => q.doors.includes(door.IdPuerta) || q.zones.some((z) => zones.includes(z)));
}

/** The last day the person holds a qualification (the latest of theirs), or undefined when they hold none. */
export function heldUntil(
  holder: PersonHolder,
  q: Pick<RequiredQualification, 'kind' | 'id'>,
): string | undefined {
  const days = (holder.qualifications ?? []).filter((h) => h.kind === q.kind && h.id === q.id);
  return days.map((h) => h.until).sort()[days.length - 1];
}

/** The first qualification the door requires that the person does not hold today (step 4). */
function checkQualifications(holder: Holder, { door, site }: DecisionInput, today: string): Outcome {
  if (holder.kind !== 'person') return undefined;
  const missing = requiredAt(door, site).find((q) => (heldUntil(holder, q) ?? '') < today);
  return missing && { reason: QUALIFICATION_MISSING[missing.kind], params: { name: missing.name } };
}

function checkRestrictions(holder: Holder, { door, site }: DecisionInput, local: LocalTime): Outcome {
  if (holder.kind !== 'person') return undefined;
  const zones = zoneLine(door.IdZona, site.zones);
  const applies = (r: Restriction) =>
    r.Activo === 'S' &&
    r.IdDivision === door.IdDivision &&
    within(local.date, r.FechaInicio, r.FechaFin) &&
    (r.IdPuerta != null ? r.IdPuerta === door.IdPuerta : r.IdZona == null || zones.includes(r.IdZona)) &&
    (r.DiaCompleto === 'S' || restrictedHoursCover(r.HoraInicio, r.HoraFin, local.minute));
  const restriction = holder.restrictions.find(applies);
  return restriction && { reason: 'RESTRICTED', params: { motive: restriction.Motivo ?? '' } };
}

/** The person's condition (ceased, inactive) or the vehicle's state. */
export function checkCondition(holder: Holder): Outcome {
  if (holder.kind === 'vehicle')
    return holder.vehicle.Estado === 'I' ? { reason: 'VEHICLE_INACTIVE' } : undefined;
  if (holder.person.Condicion === 'C') return { reason: 'PERSON_CEASED' };
  if (holder.person.Inactivo === 'S') return { reason: 'PERSON_INACTIVE' };
  return undefined;
}

/** The first failing check, or the allow reason. */
function evaluate(input: DecisionInput, local: LocalTime): NonNullable<Outcome> {
  const { door, direction, holder } = input;
  const today = local.date;
  if (door.Activo !== 'S') return { reason: 'DOOR_INACTIVE' };
  if (door.Sentido !== 'A' && door.Sentido !== direction) return { reason: 'WRONG_DIRECTION' };
  const identity = checkIdentity(input, today);
  if (identity || !holder) return identity ?? { reason: 'UNKNOWN' };

  const active = holder.assignments.filter((a) => a.Activo === 'S');
  const granted = openings(
    input,
    active.filter((a) => within(today, a.FechaInicio, a.FechaFin)),
    local,
  );
  // Requirements are skipped when the person is exempt, or when every profile opening this door says so.
  const requirementsChecked =
    (holder.kind === 'vehicle' || holder.person.ValidarRequisitosAcceso === 'S') &&
    (!granted.length || granted.some((o) => o.profile.ValidarRequisitos === 'S'));

  const failure =
    checkAccreditation(holder.accreditations, door.IdDivision, today) ??
    (requirementsChecked ? checkRequirements(holder, door.IdDivision, today) : undefined) ??
    checkMaintenance(holder, today) ??
    checkInternalLicence(holder, input.driver, today) ??
    checkQualifications(holder, input, today) ??
    checkAccess(granted, () => openings(input, active, local), local) ??
    checkRestrictions(holder, input, local) ??
    checkCondition(holder);
  if (failure) return failure;
  const byPermanent = granted.some((o) => o.inSchedule && o.assignment.Temporal !== 'S');
  return { reason: byPermanent ? 'ALLOWED' : 'ALLOWED_TEMPORARY' };
}

/** Allow or deny a marking, with the reason and its message key (locales: gate.reasons.*). */
export function decide(input: DecisionInput): Decision {
  const { reason, params } = evaluate(input, localTime(input.at, input.timeZone));
  const granted = reason === 'ALLOWED' || reason === 'ALLOWED_TEMPORARY';
  const lenient = !granted && input.direction === 'S' && !STRICT_ON_EXIT.includes(reason);
  return {
    allow: granted || lenient,
    reason,
    messageKey: reasonMessageKey(reason),
    ...(params && { params }),
    ...(lenient && { lenientExit: true as const }),
  };
}
