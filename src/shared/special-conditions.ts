/**
 * Special conditions (spec section 3 Attendance 'special conditions'): the labour-law regime a
 * company's hours are paid under. A condition names its computation in ProcedimientoAlmacenado;
 * these are the computations the product has (no database runs a procedure of its own here: both
 * SQLite and PostgreSQL are served the same way). Each turns a person's days of a closed payroll
 * period into minutes by pay concept, which the closing's export hands to payroll.
 *
 * - SP_ASI_SOBRETIEMPO (Peru, D.S. 007-2002-TR art. 10): each day's overtime, the first two hours
 *   with a 25 % surcharge, the rest with 35 %.
 * - SP_ASI_TRABAJO_NOCTURNO (art. 8): the minutes worked between 22:00 and 06:00 (site time), and
 *   the day's overtime as above.
 * - SP_ASI_FERIADO_LABORADO (D.Leg. 713): every minute worked on a holiday or a rest day (paid
 *   double), and the other days' overtime as above.
 * - SP_ASI_JORNADA_ATIPICA (art. 9, atypical or accumulative shifts such as 14x7): no day's length
 *   is overtime; what the period's worked minutes exceed its average of 48 h a week is, the first
 *   two hours per day worked with 25 %, the rest with 35 %.
 * - SP_ASI_JORNADA_EXCEPCIONAL_CL (Chile, Código del Trabajo art. 38 exceptional shifts): what the
 *   period exceeds its average of the legal week is overtime with a 50 % surcharge (art. 32); the
 *   legal week is 45 h, 44 h from 2026-04-26, 42 h from 2028-04-26 and 40 h from 2030-04-26
 *   (Ley 21.561), as in force on the period's last day.
 */
import { WORKED_STATUSES, wallMinutes } from './attendance.js';
import { daysBetween } from './dates.js';

export const CONDITION_PROCEDURES = [
  'SP_ASI_SOBRETIEMPO',
  'SP_ASI_TRABAJO_NOCTURNO',
  'SP_ASI_FERIADO_LABORADO',
  'SP_ASI_JORNADA_ATIPICA',
  'SP_ASI_JORNADA_EXCEPCIONAL_CL',
] as const;
export type ConditionProcedure = (typeof CONDITION_PROCEDURES)[number];

/** Minutes by pay concept: overtime at 25, 35 and 50 %, night work, holiday or rest-day work. */
export const PAY_CONCEPTS = ['EXTRA_25', 'EXTRA_35', 'EXTRA_50', 'NOCTURNO', 'FERIADO'] as const;
export type PayConcept = (typeof PAY_CONCEPTS)[number];
export type PayFigures = Partial<Record<PayConcept, number>>;

/** The concepts each computation gives, in the export's order. */
export const CONCEPTS_OF: Readonly<Record<ConditionProcedure, readonly PayConcept[]>> = {
  SP_ASI_SOBRETIEMPO: ['EXTRA_25', 'EXTRA_35'],
  SP_ASI_TRABAJO_NOCTURNO: ['EXTRA_25', 'EXTRA_35', 'NOCTURNO'],
  SP_ASI_FERIADO_LABORADO: ['EXTRA_25', 'EXTRA_35', 'FERIADO'],
  SP_ASI_JORNADA_ATIPICA: ['EXTRA_25', 'EXTRA_35'],
  SP_ASI_JORNADA_EXCEPCIONAL_CL: ['EXTRA_50'],
};

export const isConditionProcedure = (code: unknown): code is ConditionProcedure =>
  (CONDITION_PROCEDURES as readonly unknown[]).includes(code);

/** A person's day as attendance keeps it (its figures and its first entry and last exit, ISO instants). */
export interface ConditionDay {
  Fecha: string;
  Estado: string;
  MinutosTrabajados: number;
  MinutosExtraAntes: number;
  MinutosExtraDespues: number;
  PrimeraEntrada?: string | null;
  UltimaSalida?: string | null;
}

/** The period closed: its first and last day, and the site's time zone. */
export interface ConditionPeriod {
  desde: string;
  hasta: string;
  timeZone: string;
}

const OFF_DAY_WORKED = new Set(['REST_WORKED', 'HOLIDAY_WORKED']);
/** Overtime with the lower surcharge, per day (Peru: the first two hours). */
const FIRST_OVERTIME = 120;
const DAY = 1440;
const NIGHT_START = 22 * 60;
const NIGHT_END = 6 * 60;

const minutesOf = (d: ConditionDay, key: 'MinutosTrabajados' | 'MinutosExtraAntes' | 'MinutosExtraDespues') =>
  Math.max(0, Number(d[key] ?? 0));
const overtimeOf = (d: ConditionDay) =>
  minutesOf(d, 'MinutosExtraAntes') + minutesOf(d, 'MinutosExtraDespues');
const daysIn = (p: ConditionPeriod) => daysBetween(p.desde, p.hasta) + 1;

/** Overtime split as Peru pays it: up to `first` minutes at 25 %, the rest at 35 %. */
function peruOvertime(minutes: number, first: number, into: PayFigures) {
  into.EXTRA_25 = (into.EXTRA_25 ?? 0) + Math.min(minutes, first);
  into.EXTRA_35 = (into.EXTRA_35 ?? 0) + Math.max(0, minutes - first);
}

/** The minutes between a day's first entry and last exit that fall between 22:00 and 06:00, at most those worked. */
export function nightMinutes(d: ConditionDay, timeZone: string): number {
  if (!d.PrimeraEntrada || !d.UltimaSalida) return 0;
  const from = wallMinutes(d.PrimeraEntrada, d.Fecha, timeZone);
  const to = wallMinutes(d.UltimaSalida, d.Fecha, timeZone);
  let night = 0;
  // The nights around the day: the one ending at its 06:00, and those starting at 22:00 of it and the next.
  for (let k = -1; k <= 1; k++) {
    const start = k * DAY + NIGHT_START;
    const end = (k + 1) * DAY + NIGHT_END;
    night += Math.max(0, Math.min(to, end) - Math.max(from, start));
  }
  return Math.round(Math.min(night, minutesOf(d, 'MinutosTrabajados')));
}

/** Chile's legal week in hours on a date (Ley 21.561's steps). */
export function chileanWeek(date: string): number {
  if (date >= '2030-04-26') return 40;
  if (date >= '2028-04-26') return 42;
  if (date >= '2026-04-26') return 44;
  return 45;
}

/** What a period's worked minutes exceed its average of `weeklyHours` a week. */
function beyondAverage(days: ConditionDay[], period: ConditionPeriod, weeklyHours: number) {
  const worked = days.reduce((sum, d) => sum + minutesOf(d, 'MinutosTrabajados'), 0);
  return Math.max(0, worked - Math.round((weeklyHours * 60 * daysIn(period)) / 7));
}

/** A person's minutes by pay concept over a closed period, under the company's condition. */
export function payFigures(
  procedure: ConditionProcedure,
  days: ConditionDay[],
  period: ConditionPeriod,
): PayFigures {
  const out: PayFigures = Object.fromEntries(CONCEPTS_OF[procedure].map((c) => [c, 0]));
  const mine = days.filter((d) => d.Fecha >= period.desde && d.Fecha <= period.hasta);
  switch (procedure) {
    case 'SP_ASI_SOBRETIEMPO':
      for (const d of mine) peruOvertime(overtimeOf(d), FIRST_OVERTIME, out);
      break;
    case 'SP_ASI_TRABAJO_NOCTURNO':
      for (const d of mine) {
        peruOvertime(overtimeOf(d), FIRST_OVERTIME, out);
        if (WORKED_STATUSES.has(d.Estado))
          out.NOCTURNO = (out.NOCTURNO ?? 0) + nightMinutes(d, period.timeZone);
      }
      break;
    case 'SP_ASI_FERIADO_LABORADO':
      for (const d of mine) {
        if (OFF_DAY_WORKED.has(d.Estado))
          out.FERIADO = (out.FERIADO ?? 0) + minutesOf(d, 'MinutosTrabajados');
        else peruOvertime(overtimeOf(d), FIRST_OVERTIME, out);
      }
      break;
    case 'SP_ASI_JORNADA_ATIPICA': {
      const worked = mine.filter((d) => WORKED_STATUSES.has(d.Estado)).length;
      peruOvertime(beyondAverage(mine, period, 48), FIRST_OVERTIME * worked, out);
      break;
    }
    case 'SP_ASI_JORNADA_EXCEPCIONAL_CL':
      out.EXTRA_50 = beyondAverage(mine, period, chileanWeek(period.hasta));
      break;
  }
  return out;
}
