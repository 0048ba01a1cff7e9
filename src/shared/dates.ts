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

/** An ISO date moved by some days. */
export function addDays(isoDate: string, days: number): string {
  return new Date(Date.parse(`${isoDate}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}
