import { addDays } from '../../../shared/dates.js';

export type CalendarView = 'week' | 'month';

/** Monday 1 … Sunday 7 of a yyyy-mm-dd day. */
export const isoWeekday = (day: string) => new Date(`${day}T12:00:00Z`).getUTCDay() || 7;

/** The Monday of a day's week. */
export const mondayOf = (day: string) => addDays(day, 1 - isoWeekday(day));

/**
 * The days a view of `anchor` shows, Monday first: its week, or every week its month touches
 * (the month's own days are those starting with `month`).
 */
export function periodOf(view: CalendarView, anchor: string) {
  const month = anchor.slice(0, 7);
  const first = view === 'week' ? mondayOf(anchor) : mondayOf(`${month}-01`);
  const monthEnd = addDays(stepped('month', anchor, 1), -1);
  const last = view === 'week' ? addDays(first, 6) : addDays(monthEnd, 7 - isoWeekday(monthEnd));
  const days: string[] = [];
  for (let d = first; d <= last; d = addDays(d, 1)) days.push(d);
  return { from: first, to: last, days, month };
}

/** The anchor a step back (-1) or ahead (1) of the view shows. */
export function stepped(view: CalendarView, anchor: string, step: -1 | 1): string {
  if (view === 'week') return addDays(anchor, 7 * step);
  const [y, m] = anchor.split('-').map(Number);
  const index = y * 12 + (m - 1) + step;
  return `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, '0')}-01`;
}

const tag = (locale: string) => (locale === 'en' ? 'en-GB' : 'es-PE');
const capital = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
const utc = (day: string) => new Date(`${day}T12:00:00Z`);

/** A weekday's short name in the console's language ("lun.", "Mon"). */
export const weekdayName = (day: string, locale: string) =>
  capital(new Intl.DateTimeFormat(tag(locale), { weekday: 'short', timeZone: 'UTC' }).format(utc(day)));

/** What the view shows, in words: "Noviembre de 2026", or the week's first and last days. */
export function periodTitle(view: CalendarView, anchor: string, locale: string): string {
  if (view === 'month')
    return capital(
      new Intl.DateTimeFormat(tag(locale), { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(
        utc(anchor),
      ),
    );
  const { from, to } = periodOf('week', anchor);
  const short = new Intl.DateTimeFormat(tag(locale), { day: 'numeric', month: 'short', timeZone: 'UTC' });
  return `${short.format(utc(from))} – ${short.format(utc(to))} ${to.slice(0, 4)}`;
}
