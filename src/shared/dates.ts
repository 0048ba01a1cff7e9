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

/** An ISO date (yyyy-mm-dd) that exists, or with `date-time` an ISO instant. */
export function isIsoDate(value: string, format: 'date' | 'date-time' = 'date'): boolean {
  if (format === 'date-time') return /^\d{4}-\d{2}-\d{2}T/.test(value) && !Number.isNaN(Date.parse(value));
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(value);
}
