/** Whole years from an ISO date (yyyy-mm-dd) to `today`; undefined for a malformed or future date. */
export function yearsSince(isoDate: string, today: Date = new Date()): number | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(isoDate);
  if (!match) return undefined;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  let years = today.getUTCFullYear() - year;
  const beforeBirthday =
    today.getUTCMonth() + 1 < month || (today.getUTCMonth() + 1 === month && today.getUTCDate() < day);
  if (beforeBirthday) years--;
  return years >= 0 ? years : undefined;
}

/**
 * Year 0 is no year of PostgreSQL's calendar (1 BC comes before AD 1): a date or instant in it
 * is refused as any impossible date, not left for the database to fail on.
 */
export const notYearZero = (value: string): boolean => !value.startsWith('0000');

/** An ISO date (yyyy-mm-dd) that exists, or with `date-time` an ISO instant. */
export function isIsoDate(value: string, format: 'date' | 'date-time' = 'date'): boolean {
  if (!notYearZero(value)) return false;
  if (format === 'date-time') return /^\d{4}-\d{2}-\d{2}T/.test(value) && !Number.isNaN(Date.parse(value));
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(value);
}

/** The time zone of a country's sites (the clients are in Peru and Chile). */
export const SITE_TIME_ZONES: Record<string, string> = { PE: 'America/Lima', CL: 'America/Santiago' };

/** The time zone of a country's sites (Peru's when the country has none here). */
export const timeZoneOf = (countryId: string | null | undefined): string =>
  SITE_TIME_ZONES[countryId ?? ''] ?? SITE_TIME_ZONES.PE;

const dateFormats = new Map<string, Intl.DateTimeFormat>();

/** The calendar date (yyyy-mm-dd) at an instant in a country's sites. */
export function siteDate(countryId: string | null | undefined, instant: number = Date.now()): string {
  const zone = timeZoneOf(countryId);
  let format = dateFormats.get(zone);
  if (!format) {
    // en-CA writes dates as yyyy-mm-dd.
    format = new Intl.DateTimeFormat('en-CA', { timeZone: zone });
    dateFormats.set(zone, format);
  }
  return format.format(new Date(instant));
}

/** Whole days from one ISO date to another (both yyyy-mm-dd). */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

const moved = new Map<string, string>();

/** An ISO date moved by some days (kept: long computations move the same few dates over and over). */
export function addDays(isoDate: string, days: number): string {
  const key = `${isoDate}|${days}`;
  let date = moved.get(key);
  if (date === undefined) {
    date = new Date(Date.parse(`${isoDate}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
    if (moved.size > 50_000) moved.clear();
    moved.set(key, date);
  }
  return date;
}

/** An ISO date moved by whole months, kept within the month it lands in (31 March − 1 month: 28 or 29 February). */
export function addMonths(isoDate: string, months: number): string {
  const [y, m, d] = isoDate.split('-').map(Number);
  const first = new Date(Date.UTC(y, m - 1 + months, 1));
  const last = new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth() + 1, 0)).getUTCDate();
  first.setUTCDate(Math.min(d, last));
  return first.toISOString().slice(0, 10);
}

const offsetFormats = new Map<string, Intl.DateTimeFormat>();
/** Offsets already worked out, by zone and hour (they change at most twice a year). */
const offsets = new Map<string, Map<number, number>>();

/**
 * A zone's offset from UTC, in milliseconds, at an instant: what its clocks read minus UTC
 * (Lima: -5 h). Worked out once per zone and hour, so that an export of a million times stays fast.
 */
export function zoneOffset(timeZone: string, instant: number): number {
  const hour = Math.floor(instant / 3_600_000);
  let zone = offsets.get(timeZone);
  if (!zone) {
    zone = new Map<number, number>();
    offsets.set(timeZone, zone);
  }
  const known = zone.get(hour);
  if (known !== undefined) return known;
  let format = offsetFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    offsetFormats.set(timeZone, format);
  }
  const at = hour * 3_600_000;
  const part = Object.fromEntries(format.formatToParts(at).map((p) => [p.type, Number(p.value)]));
  const wall = Date.UTC(part.year, part.month - 1, part.day, part.hour, part.minute, part.second);
  const offset = wall - at;
  if (zone.size > 10_000) zone.clear();
  zone.set(hour, offset);
  return offset;
}

/** An instant's date and time as a site's clocks read them: dd/MM/yyyy HH:mm:ss. */
export function siteDateTime(countryId: string | null | undefined, instant: number): string {
  const wall = new Date(instant + zoneOffset(timeZoneOf(countryId), instant));
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(wall.getUTCDate())}/${pad(wall.getUTCMonth() + 1)}/${wall.getUTCFullYear()} ${pad(wall.getUTCHours())}:${pad(wall.getUTCMinutes())}:${pad(wall.getUTCSeconds())}`;
}

/** A stay on site in minutes, as "12 h 04 min" (on the screens and in the exports). */
export const stayText = (minutes: number): string =>
  `${Math.floor(minutes / 60)} h ${String(minutes % 60).padStart(2, '0')} min`;

/** The instant a site's wall clock shows `minute` on `date` (yyyy-mm-dd). */
export function instantAt(date: string, minute: number, timeZone: string): number {
  const wall = Date.parse(`${date}T00:00:00Z`) + minute * 60_000;
  // The zone's offset where that wall time falls (read again there, for a change of offset between).
  const first = wall - zoneOffset(timeZone, wall);
  return wall - zoneOffset(timeZone, first);
}
