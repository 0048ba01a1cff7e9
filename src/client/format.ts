import { siteDateTime, stayText } from '../shared/dates.js';
import { session } from './session/store.js';

/** yyyy-mm-dd as dd/MM/yyyy (spec section 9 display format), without time-zone shifts. */
export function formatDate(value: unknown): string {
  if (typeof value !== 'string') return '';
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(value);
  return match ? `${match[3]}/${match[2]}/${match[1]}` : value;
}

/**
 * An instant as dd/MM/yyyy HH:mm:ss as the site's clocks read it (the division's country's time
 * zone, wherever the browser is), as the exports write it too.
 */
export function formatDateTime(value: unknown): string {
  if (typeof value !== 'string') return '';
  const instant = Date.parse(value);
  if (Number.isNaN(instant)) return value;
  return siteDateTime(session.siteCountry(), instant);
}

/** A stay on site in minutes, as "12 h 04 min". */
export const formatStay = stayText;
