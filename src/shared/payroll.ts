/**
 * A payroll's periods (spec section 3 Attendance 'payroll'): its periodicity and closing day say
 * which days each period holds. Pure, so the console shows the same periods the server closes.
 *
 * - M monthly: a period ends on the closing day of a month (the month's last day when it has fewer
 *   days) and starts the day after the previous one ended.
 * - Q fortnightly: two closings a month, on the closing day folded into the first half (1..15) and
 *   fifteen days later (the month's last day for a closing day of 15, or when the month is shorter).
 * - S weekly: a period ends on the closing weekday (1 Monday ... 7 Sunday) and holds seven days.
 */
import { addDays } from './dates.js';

export type Periodicity = 'S' | 'Q' | 'M';
export interface PayrollCalendar {
  Periodicidad: Periodicity;
  DiaCierre: number;
}
export interface PayrollPeriod {
  desde: string;
  hasta: string;
}

const pad = (n: number) => String(n).padStart(2, '0');
const lastDayOf = (year: number, month: number) => new Date(Date.UTC(year, month, 0)).getUTCDate();
const iso = (year: number, month: number, day: number) => `${year}-${pad(month)}-${pad(day)}`;

/** A month's closing days, in order. */
function closingsOf(calendar: PayrollCalendar, year: number, month: number): number[] {
  const last = lastDayOf(year, month);
  const day = Math.max(1, Math.min(31, Math.trunc(calendar.DiaCierre)));
  if (calendar.Periodicidad === 'M') return [Math.min(day, last)];
  const first = ((day - 1) % 15) + 1;
  const second = first === 15 ? last : Math.min(first + 15, last);
  return [first, second];
}

/** The end of the period a date falls in. */
function endOf(calendar: PayrollCalendar, date: string): string {
  if (calendar.Periodicidad === 'S') {
    const weekday = new Date(`${date}T00:00:00Z`).getUTCDay() || 7;
    const closing = ((Math.trunc(calendar.DiaCierre) - 1) % 7) + 1;
    return addDays(date, (closing - weekday + 7) % 7);
  }
  const year = Number(date.slice(0, 4));
  const month = Number(date.slice(5, 7));
  const here = closingsOf(calendar, year, month).find((c) => iso(year, month, c) >= date);
  if (here !== undefined) return iso(year, month, here);
  const [y, m] = month === 12 ? [year + 1, 1] : [year, month + 1];
  return iso(y, m, closingsOf(calendar, y, m)[0]);
}

/** The period of a payroll that holds a date: from the day after the previous period's end to its own. */
export function payrollPeriodOf(calendar: PayrollCalendar, date: string): PayrollPeriod {
  const hasta = endOf(calendar, date);
  if (calendar.Periodicidad === 'S') return { desde: addDays(hasta, -6), hasta };
  // The previous period ends on the last closing before this one: within a month back.
  let probe = addDays(hasta, -1);
  while (endOf(calendar, probe) === hasta) probe = addDays(probe, -1);
  return { desde: addDays(probe, 1), hasta };
}
