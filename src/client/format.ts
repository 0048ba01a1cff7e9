const pad = (n: number) => String(n).padStart(2, '0');

/** yyyy-mm-dd as dd/MM/yyyy (spec section 9 display format), without time-zone shifts. */
export function formatDate(value: unknown): string {
  if (typeof value !== 'string') return '';
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(value);
  return match ? `${match[3]}/${match[2]}/${match[1]}` : value;
}

/** An instant as dd/MM/yyyy HH:mm:ss in the browser's time zone. */
export function formatDateTime(value: unknown): string {
  if (typeof value !== 'string') return '';
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return value;
  return `${pad(date.getDate())}/${pad(date.getMonth() + 1)}/${date.getFullYear()} ${pad(date.getHours())}:${pad(
    date.getMinutes(),
  )}:${pad(date.getSeconds())}`;
}

/** A stay on site in minutes, as "12 h 04 min". */
export const formatStay = (minutes: number): string =>
  `${Math.floor(minutes / 60)} h ${String(minutes % 60).padStart(2, '0')} min`;
