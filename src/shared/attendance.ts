/**
 * Attendance, the daily result (spec section 2 Attendance; section 3 schedule types): pure functions
 * of a person's schedule, the day's markings at attendance control points, holidays and
 * justifications. The server recomputes a day with them whenever a marking touches it; the console
 * shows what they return.
 *
 * Times of a day are wall-clock minutes from the local midnight of the day in the site's time zone: a
 * night turn from 19:00 to 07:00 is 1140 → 1860, its early hours belong to the day it started. A
 * day's markings are those of its window: from six hours before its planned entry (or the schedule's
 * nominal entry on a rest day, midnight with none) up to where the next day's window starts, so the
 * windows of a person's days never overlap and every marking belongs to exactly one day.
 */

import { minutesOf } from './access/decision.js';
import { addDays, zoneOffset } from './dates.js';

export type YesNo = 'S' | 'N';
/** F flexible, S weekly (semanal), C cycle (a roster: N days on, M off), A automatic. */
export type ScheduleKind = 'F' | 'S' | 'C' | 'A';
export type Weekday = 1 | 2 | 3 | 4 | 5 | 6 | 7;

/** A weekly schedule's hours for one weekday (1 Monday … 7 Sunday). */
export interface ScheduleDay {
  Dia: Weekday;
  HoraEntrada: string;
  HoraSalida: string;
  InicioRefrigerio?: string | null;
  FinRefrigerio?: string | null;
}

export interface ScheduleType {
  IdTipoHorario: number;
  Descripcion?: string;
  Tipo: ScheduleKind;
  /** D day turn, N night turn (its exit is on the next day). */
  TurnoDiario: 'D' | 'N';
  DiasTrabajo?: number | null;
  DiasDescanso?: number | null;
  MinutosFlexibles: number;
  HoraEntrada?: string | null;
  HoraSalida?: string | null;
  InicioRefrigerio?: string | null;
  FinRefrigerio?: string | null;
  ToleranciaMinutos: number;
  /** Most overtime counted before the entry and after the exit, in minutes. */
  HorasExtraAntes: number;
  HorasExtraDespues: number;
  /** A weekly schedule's working weekdays with their hours; none: its first DiasTrabajo weekdays from Monday, at its own hours. */
  Dias?: ScheduleDay[];
}

/** A schedule type assigned to a person (or to a company) from a date. */
export interface ScheduleAssignment {
  IdTipoHorario: number;
  FechaInicio: string;
  FechaFin?: string | null;
  /** A cycle's first working day (its roster counts from it); the assignment's start when none. */
  FechaAncla?: string | null;
}

export interface Holiday {
  Fecha: string;
  Descripcion: string;
}

/** What a day asks of a person. */
export interface Plan {
  day: string;
  IdTipoHorario?: number;
  kind?: ScheduleKind;
  /** A day of work (false: rest, a holiday off, or no schedule). */
  working: boolean;
  /** The holiday's name, when the day is one. */
  holiday?: string;
  start?: number;
  end?: number;
  breakStart?: number;
  breakEnd?: number;
  flexible: number;
  tolerance: number;
  overtimeBefore: number;
  overtimeAfter: number;
  /** Where the day's window is anchored (its entry, the schedule's nominal entry, or midnight). */
  anchor: number;
}

export interface Marking {
  /** The instant (ISO). */
  at: string;
  /** E entry, S exit. */
  direction: 'E' | 'S';
  id?: string | number;
}

/** What a justification does to a day: F an absence (falta), T a late entry (tardanza), H hours. */
export interface DayJustification {
  IdJustificacion: number;
  Tipo: 'F' | 'T' | 'H';
  /** Minutes justified (a late entry: up to its lateness; hours: these). */
  Minutos?: number | null;
  Pagado: YesNo;
}

/** Most days a person's calendar, a period's grid or a computation covers at once. */
export const ATTENDANCE_MAX_DAYS = 62;

export const DAY_STATUSES = [
  'WORKED',
  'INCOMPLETE',
  'ABSENT',
  'JUSTIFIED',
  'REST',
  'HOLIDAY',
  'REST_WORKED',
  'HOLIDAY_WORKED',
  'NO_SCHEDULE',
] as const;
export type DayStatus = (typeof DAY_STATUSES)[number];
/** The statuses of a day the person worked (a day's count in the totals, the days a condition pays). */
export const WORKED_STATUSES: ReadonlySet<string> = new Set<DayStatus>([
  'WORKED',
  'INCOMPLETE',
  'REST_WORKED',
  'HOLIDAY_WORKED',
]);

/** A person's figures over a period: the period's grid, its export and a closing's. */
export interface PeriodTotals {
  diasTrabajados: number;
  minutosTrabajados: number;
  minutosTardanza: number;
  minutosExtra: number;
  faltas: number;
  justificadas: number;
  minutosJustificadosPagados: number;
  pendientes: number;
}

export type DayFlag = 'ENTRY_WITHOUT_EXIT' | 'EXIT_WITHOUT_ENTRY';

export interface DayResult {
  day: string;
  status: DayStatus;
  IdTipoHorario?: number;
  /** Planned entry and exit as wall clock (HH:MM), when the day had hours. */
  plannedEntry?: string;
  plannedExit?: string;
  firstEntry?: string;
  lastExit?: string;
  workedMinutes: number;
  breakMinutes: number;
  lateMinutes: number;
  earlyLeaveMinutes: number;
  overtimeBeforeMinutes: number;
  overtimeAfterMinutes: number;
  /** Minutes justified (an absence: the planned minutes; a late entry: its minutes; hours). */
  justifiedMinutes: number;
  /** Of those, the paid ones. */
  paidJustifiedMinutes: number;
  flags: DayFlag[];
  /** The markings of the day's window, in order. */
  markings: Array<string | number>;
}

const DAY = 1440;
/** A day's window opens this long before its anchor. */
export const WINDOW_BEFORE = 360;

/**
 * Midnight UTC of an ISO date, in ms, kept: a period of thousands of people reads the same few dates
 * over and over.
 */
const midnights = new Map<string, number>();
function midnightOf(date: string): number {
  let ms = midnights.get(date);
  if (ms === undefined) {
    ms = Date.parse(`${date}T00:00:00Z`);
    if (midnights.size > 20_000) midnights.clear();
    midnights.set(date, ms);
  }
  return ms;
}
const DAY_MS = 86_400_000;
const weekdayOf = (date: string): Weekday => (new Date(midnightOf(date)).getUTCDay() || 7) as Weekday;
const hhmm = (minutes: number) => {
  const m = ((minutes % DAY) + DAY) % DAY;
  return `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
};
const minutesOrUndefined = (value: string | null | undefined) => {
  if (!value) return undefined;
  const m = minutesOf(value);
  return Number.isNaN(m) ? undefined : m;
};

type Hours = { start: number; end: number; breakStart?: number; breakEnd?: number } | undefined;
const hoursKept = new Map<string, Hours>();

/** The hours of a working day: the exit after the entry (the next day's when earlier), the break inside. */
function hoursOf(
  entry: string | null | undefined,
  exit: string | null | undefined,
  from?: string | null,
  to?: string | null,
): Hours {
  const key = `${entry}|${exit}|${from}|${to}`;
  if (hoursKept.has(key)) return hoursKept.get(key);
  if (hoursKept.size > 1000) hoursKept.clear();
  const hours = readHours(entry, exit, from, to);
  hoursKept.set(key, hours);
  return hours;
}

function readHours(
  entry: string | null | undefined,
  exit: string | null | undefined,
  from?: string | null,
  to?: string | null,
): Hours {
  const start = minutesOrUndefined(entry);
  let end = minutesOrUndefined(exit);
  if (start === undefined || end === undefined) return undefined;
  if (end <= start) end += DAY;
  let breakStart = minutesOrUndefined(from);
  let breakEnd = minutesOrUndefined(to);
  if (breakStart !== undefined && breakEnd !== undefined) {
    if (breakStart < start) breakStart += DAY;
    if (breakEnd <= breakStart) breakEnd += DAY;
    if (breakStart >= end) breakStart = breakEnd = undefined;
  } else breakStart = breakEnd = undefined;
  return { start, end, breakStart, breakEnd };
}

/**
 * What is wrong with a working day's hours, if anything: an entry or exit missing, a break with
 * one end only, or a break that does not lie within the hours (a night's exit and break may fall
 * after midnight).
 */
export function hoursProblem(
  entry: string | null | undefined,
  exit: string | null | undefined,
  breakStart?: string | null,
  breakEnd?: string | null,
): 'HOURS_MISSING' | 'BREAK_INCOMPLETE' | 'BREAK_OUTSIDE' | undefined {
  const start = minutesOrUndefined(entry);
  let end = minutesOrUndefined(exit);
  if (start === undefined || end === undefined) return 'HOURS_MISSING';
  if (end <= start) end += DAY;
  const from = minutesOrUndefined(breakStart);
  const to = minutesOrUndefined(breakEnd);
  if ((from === undefined) !== (to === undefined)) return 'BREAK_INCOMPLETE';
  if (from === undefined || to === undefined) return undefined;
  // On the shift's own clock: a break before the entry's hour is after midnight, its end after its start.
  const a = from < start ? from + DAY : from;
  let b = to + (a >= DAY ? DAY : 0);
  if (b <= a) b += DAY;
  return a >= start && b <= end ? undefined : 'BREAK_OUTSIDE';
}

/**
 * The first two weekdays of a weekly schedule whose hours overlap, as minutes of the week from
 * Monday 00:00 (a night's exit falls on the next day; Sunday's night runs into Monday), or none.
 */
export function overlappingWeekdays(days: ScheduleDay[]): [Weekday, Weekday] | undefined {
  const spans = days
    .map((d) => {
      const start = minutesOrUndefined(d.HoraEntrada);
      let end = minutesOrUndefined(d.HoraSalida);
      if (start === undefined || end === undefined) return undefined;
      if (end <= start) end += DAY;
      return { Dia: d.Dia, from: (d.Dia - 1) * DAY + start, to: (d.Dia - 1) * DAY + end };
    })
    .filter((x): x is { Dia: Weekday; from: number; to: number } => x !== undefined)
    .sort((x, y) => x.from - y.from);
  const WEEK = 7 * DAY;
  for (let i = 0; i < spans.length; i++)
    for (let j = i + 1; j < spans.length; j++) {
      const [x, y] = [spans[i], spans[j]];
      if (x.from < y.to && y.from < x.to) return [x.Dia, y.Dia];
      // Sunday's night into Monday's morning.
      if (y.to > WEEK && y.to - WEEK > x.from) return [y.Dia, x.Dia];
    }
  return undefined;
}

/** The assignment in force on a day: the latest to start on or before it and not ended. */
export function assignmentOn<A extends ScheduleAssignment>(assignments: A[], day: string): A | undefined {
  let found: A | undefined;
  for (const a of assignments)
    if (
      a.FechaInicio <= day &&
      (!a.FechaFin || a.FechaFin >= day) &&
      (!found || a.FechaInicio > found.FechaInicio)
    )
      found = a;
  return found;
}

/** Whether a roster's day is one of work: N on, M off, counted from its anchor (before it too). */
export function cycleWorks(anchor: string, day: string, on: number, off: number): boolean {
  const length = on + off;
  if (on <= 0) return false;
  if (length <= 0 || off <= 0) return true;
  const between = Math.round((midnightOf(day) - midnightOf(anchor)) / DAY_MS);
  const index = ((between % length) + length) % length;
  return index < on;
}

/**
 * What a day asks: the schedule in force, whether the day works by its kind (a weekly schedule's
 * weekdays, a roster's place in its cycle; flexible: its first working days from Monday; automatic:
 * every day, its hours told by the first entry), its hours. A holiday is a rest day unless a roster
 * says the day works (a mine's rosters run through holidays; the day is flagged).
 */
export function planOf(
  day: string,
  schedule: ScheduleType | undefined,
  assignment: ScheduleAssignment | undefined,
  holidays: Holiday[] = [],
): Plan {
  const holiday = holidays.length ? holidays.find((h) => h.Fecha === day)?.Descripcion : undefined;
  // One shape for every plan (a period computes hundreds of thousands of them).
  const plan: Plan = {
    day,
    IdTipoHorario: schedule && assignment ? schedule.IdTipoHorario : undefined,
    kind: schedule && assignment ? schedule.Tipo : undefined,
    working: false,
    holiday,
    start: undefined,
    end: undefined,
    breakStart: undefined,
    breakEnd: undefined,
    flexible: Math.max(0, schedule?.MinutosFlexibles ?? 0),
    tolerance: Math.max(0, schedule?.ToleranciaMinutos ?? 0),
    overtimeBefore: Math.max(0, schedule?.HorasExtraAntes ?? 0),
    overtimeAfter: Math.max(0, schedule?.HorasExtraDespues ?? 0),
    anchor: 0,
  };
  if (!schedule || !assignment) {
    plan.flexible = plan.tolerance = plan.overtimeBefore = plan.overtimeAfter = 0;
    return plan;
  }
  const weekday = weekdayOf(day);
  const own = hoursOf(
    schedule.HoraEntrada,
    schedule.HoraSalida,
    schedule.InicioRefrigerio,
    schedule.FinRefrigerio,
  );
  let working: boolean;
  let hours = own;
  switch (schedule.Tipo) {
    case 'C':
      working = cycleWorks(
        assignment.FechaAncla || assignment.FechaInicio,
        day,
        schedule.DiasTrabajo ?? 0,
        schedule.DiasDescanso ?? 0,
      );
      break;
    case 'S': {
      const rows = schedule.Dias ?? [];
      if (rows.length) {
        const row = rows.find((d) => d.Dia === weekday);
        working = Boolean(row) && !holiday;
        hours = row && hoursOf(row.HoraEntrada, row.HoraSalida, row.InicioRefrigerio, row.FinRefrigerio);
      } else working = weekday <= (schedule.DiasTrabajo ?? 5) && !holiday;
      break;
    }
    case 'F':
      working = weekday <= (schedule.DiasTrabajo ?? 5) && !holiday;
      break;
    default:
      // Automatic: any day may be worked; its hours come from the first entry.
      return plan;
  }
  plan.anchor = hours?.start ?? own?.start ?? 0;
  if (!working || !hours) return plan;
  plan.working = true;
  plan.start = hours.start;
  plan.end = hours.end;
  plan.breakStart = hours.breakStart;
  plan.breakEnd = hours.breakEnd;
  return plan;
}

/**
 * An automatic schedule's day: the candidate (the company's schedules with hours) whose entry is
 * nearest the first entry, as a working day of its hours. Undefined with no entry or no candidate.
 */
export function automaticPlan(
  plan: Plan,
  firstEntry: number | undefined,
  candidates: ScheduleType[],
): Plan | undefined {
  if (firstEntry === undefined) return undefined;
  let best: { schedule: ScheduleType; distance: number } | undefined;
  for (const schedule of candidates) {
    if (schedule.Tipo === 'A') continue;
    const start = minutesOrUndefined(schedule.HoraEntrada);
    if (start === undefined) continue;
    const raw = Math.abs(firstEntry - start) % DAY;
    const distance = Math.min(raw, DAY - raw);
    if (
      !best ||
      distance < best.distance ||
      (distance === best.distance && schedule.IdTipoHorario < best.schedule.IdTipoHorario)
    )
      best = { schedule, distance };
  }
  if (!best) return undefined;
  const { schedule } = best;
  const hours = hoursOf(
    schedule.HoraEntrada,
    schedule.HoraSalida,
    schedule.InicioRefrigerio,
    schedule.FinRefrigerio,
  );
  if (!hours) return undefined;
  return {
    ...plan,
    working: !plan.holiday,
    start: hours.start,
    end: hours.end,
    ...(hours.breakStart !== undefined && { breakStart: hours.breakStart, breakEnd: hours.breakEnd }),
    flexible: Math.max(0, schedule.MinutosFlexibles ?? 0),
    tolerance: Math.max(0, plan.tolerance || schedule.ToleranciaMinutos || 0),
    overtimeBefore: Math.max(0, schedule.HorasExtraAntes ?? 0),
    overtimeAfter: Math.max(0, schedule.HorasExtraDespues ?? 0),
    anchor: hours.start,
  };
}

/** Wall-clock minutes of an instant from the local midnight of `day` in the zone. */
export function wallMinutes(at: string | number, day: string, timeZone: string): number {
  const instant = typeof at === 'number' ? at : Date.parse(at);
  return (instant + zoneOffset(timeZone, instant) - midnightOf(day)) / 60_000;
}

/** The days whose windows may hold a marking of a local date: the day before, its own and the next. */
export const daysAround = (date: string): string[] => [addDays(date, -1), date, addDays(date, 1)];

/** The local days a marking's instant may belong to (its window is one of theirs). */
export function daysTouched(at: string | number, timeZone: string): string[] {
  const instant = typeof at === 'number' ? at : Date.parse(at);
  return daysAround(new Date(instant + zoneOffset(timeZone, instant)).toISOString().slice(0, 10));
}

/** The day's window, in its minutes: from six hours before its anchor to where the next day's opens. */
export function windowOf(plan: Plan, next: Plan): { from: number; to: number } {
  const from = plan.anchor - WINDOW_BEFORE;
  const to = Math.max(from + 1, DAY + next.anchor - WINDOW_BEFORE);
  return { from, to };
}

/** Markings in the order the result reads them: by time, an entry before an exit at the same instant, then by id. */
export function orderMarkings(markings: Marking[]): Marking[] {
  return orderedInstants(markings).map((m) => m.marking);
}

function orderedInstants(markings: Marking[]) {
  return markings
    .map((marking) => ({ marking, t: Date.parse(marking.at) }))
    .sort(
      ({ t: ta, marking: a }, { t: tb, marking: b }) =>
        ta - tb || (a.direction === b.direction ? 0 : a.direction === 'E' ? -1 : 1) || byId(a.id, b.id),
    );
}

const byId = (a: string | number | undefined, b: string | number | undefined) =>
  typeof a === 'number' && typeof b === 'number' ? a - b : String(a ?? '').localeCompare(String(b ?? ''));

const overlap = (a: number, b: number, c: number, d: number) => Math.max(0, Math.min(b, d) - Math.max(a, c));

export interface DayInput {
  day: string;
  timeZone: string;
  plan: Plan;
  /** The next day's plan: where this day's window ends. */
  next: Plan;
  /** Markings around the day (the server passes the day before to the day after); those outside its window are left out. */
  markings: Marking[];
  justifications?: DayJustification[];
  /** An automatic schedule's candidates: the schedules its company uses. */
  candidates?: ScheduleType[];
}

/**
 * A person's day: the markings of its window paired entry → exit (an entry with no exit, or an exit
 * with none before it, is flagged, never guessed), minutes worked less the refreshment break, late
 * entry (the whole delay once it is beyond the tolerance; a flexible schedule's entry may come within
 * its flexible minutes, and its exit moves with it), early leave, overtime before the entry and after
 * the exit up to the schedule's limits; a working day with no marking is an absence, a rest day or
 * holiday with work is flagged as such. Justifications then cover an absence, a late entry or hours.
 */
export function dailyResult(input: DayInput): DayResult {
  const { day, timeZone } = input;
  const midnight = midnightOf(day);
  const ordered = orderedInstants(input.markings).map(({ marking, t }) => ({
    at: marking.at,
    direction: marking.direction,
    id: marking.id,
    t,
    minute: (t + zoneOffset(timeZone, t) - midnight) / 60_000,
  }));
  let plan = input.plan;
  let next = input.next;
  if (plan.kind === 'A') {
    // An automatic day's hours: told by its first entry on its own date; an automatic next day is read alike.
    const first = ordered.find((m) => m.direction === 'E' && m.minute >= 0 && m.minute < DAY);
    plan = automaticPlan(plan, first?.minute, input.candidates ?? []) ?? plan;
  }
  if (next.kind === 'A') next = { ...next, anchor: plan.anchor };
  const window = windowOf(plan, next);
  const mine = ordered.filter((m) => m.minute >= window.from && m.minute < window.to);

  // Pairs, with what does not pair flagged.
  const flags = new Set<DayFlag>();
  const pairs: Array<{ from: (typeof mine)[number]; to: (typeof mine)[number] }> = [];
  let open: (typeof mine)[number] | undefined;
  for (const m of mine) {
    if (m.direction === 'E') {
      if (open) flags.add('ENTRY_WITHOUT_EXIT');
      open = m;
    } else if (open) {
      pairs.push({ from: open, to: m });
      open = undefined;
    } else flags.add('EXIT_WITHOUT_ENTRY');
  }
  if (open) flags.add('ENTRY_WITHOUT_EXIT');

  const firstEntry = mine.find((m) => m.direction === 'E');
  const lastExit = [...mine].reverse().find((m) => m.direction === 'S');

  const result: DayResult = {
    day,
    status: 'NO_SCHEDULE',
    ...(plan.IdTipoHorario !== undefined && { IdTipoHorario: plan.IdTipoHorario }),
    ...(plan.working &&
      plan.start !== undefined &&
      plan.end !== undefined && {
        plannedEntry: hhmm(plan.start),
        plannedExit: hhmm(plan.end),
      }),
    ...(firstEntry && { firstEntry: firstEntry.at }),
    ...(lastExit && { lastExit: lastExit.at }),
    workedMinutes: 0,
    breakMinutes: 0,
    lateMinutes: 0,
    earlyLeaveMinutes: 0,
    overtimeBeforeMinutes: 0,
    overtimeAfterMinutes: 0,
    justifiedMinutes: 0,
    paidJustifiedMinutes: 0,
    flags: [...flags].sort(),
    markings: mine.map((m) => m.id ?? m.at),
  };

  // Worked: the paired time (real elapsed minutes), less the planned break: the part of it the
  // pairs cover, and no more than the break less the time the person was out between pairs (who
  // marks out for lunch took their break; who works through it has it deducted).
  let worked = 0;
  let covered = 0;
  let away = 0;
  pairs.forEach(({ from, to }, i) => {
    worked += (to.t - from.t) / 60_000;
    if (i > 0) away += Math.max(0, from.minute - pairs[i - 1].to.minute);
    if (plan.working && plan.breakStart !== undefined && plan.breakEnd !== undefined)
      covered += overlap(from.minute, to.minute, plan.breakStart, plan.breakEnd);
  });
  const breakLength =
    plan.working && plan.breakStart !== undefined && plan.breakEnd !== undefined
      ? plan.breakEnd - plan.breakStart
      : 0;
  const breakTaken = Math.min(covered, Math.max(0, breakLength - away));
  result.breakMinutes = Math.round(breakTaken);
  result.workedMinutes = Math.max(0, Math.round(worked - breakTaken));

  const marked = mine.length > 0;
  if (plan.IdTipoHorario === undefined) {
    result.status = 'NO_SCHEDULE';
  } else if (!plan.working) {
    result.status = plan.holiday ? (marked ? 'HOLIDAY_WORKED' : 'HOLIDAY') : marked ? 'REST_WORKED' : 'REST';
  } else if (!marked) {
    result.status = 'ABSENT';
  } else {
    result.status = pairs.length ? (plan.holiday ? 'HOLIDAY_WORKED' : 'WORKED') : 'INCOMPLETE';
    const start = plan.start as number;
    let end = plan.end as number;
    if (firstEntry) {
      // A flexible entry moves the exit with it, within its flexible minutes.
      const shift = Math.min(Math.max(firstEntry.minute - start, 0), plan.flexible);
      end += shift;
      const delay = firstEntry.minute - (start + plan.flexible);
      if (delay > plan.tolerance) result.lateMinutes = Math.round(delay);
      if (firstEntry.minute < start)
        result.overtimeBeforeMinutes = Math.round(Math.min(start - firstEntry.minute, plan.overtimeBefore));
    }
    if (lastExit && pairs.length) {
      if (lastExit.minute < end) result.earlyLeaveMinutes = Math.round(end - lastExit.minute);
      else result.overtimeAfterMinutes = Math.round(Math.min(lastExit.minute - end, plan.overtimeAfter));
    }
  }

  // Justifications: an absence (its planned minutes), a late entry (up to its lateness), hours.
  const plannedMinutes =
    plan.working && plan.start !== undefined && plan.end !== undefined
      ? plan.end -
        plan.start -
        (plan.breakStart !== undefined ? (plan.breakEnd as number) - plan.breakStart : 0)
      : 0;
  for (const j of input.justifications ?? []) {
    let minutes = 0;
    if (j.Tipo === 'F' && result.status === 'ABSENT') {
      result.status = 'JUSTIFIED';
      minutes = plannedMinutes;
    } else if (j.Tipo === 'T' && result.lateMinutes > 0) {
      minutes = Math.min(result.lateMinutes, j.Minutos ?? result.lateMinutes);
      result.lateMinutes -= minutes;
    } else if (j.Tipo === 'H') minutes = Math.max(0, j.Minutos ?? 0);
    result.justifiedMinutes += minutes;
    if (j.Pagado === 'S') result.paidJustifiedMinutes += minutes;
  }
  return result;
}
