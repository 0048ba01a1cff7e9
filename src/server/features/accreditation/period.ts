import { DASHBOARD } from '../../../shared/constants.js';
import { ApiError } from '../../errors.js';

/** A span of request dates: [from, to) as ISO instants. */
export interface Span {
  from: string;
  to: string;
}

const monthStart = (year: number, month: number) => new Date(Date.UTC(year, month - 1, 1)).toISOString();

/**
 * The months a dashboard or list counts (spec sections 2 and 7): the months CantMonth names
 * (comma-separated, 1 to 12) of CantYear, or else the last CantMeses months, this one included.
 */
export function periodOf(
  query: { CantMeses?: unknown; CantYear?: unknown; CantMonth?: unknown },
  now: number,
): Span[] {
  const today = new Date(now);
  const year = query.CantYear === undefined || query.CantYear === '' ? undefined : Number(query.CantYear);
  const months =
    typeof query.CantMonth === 'string' && query.CantMonth.trim()
      ? query.CantMonth.split(',').map((m) => Number(m.trim()))
      : undefined;
  if (year !== undefined && (!Number.isInteger(year) || year < 2000 || year > 2100))
    throw new ApiError('BAD_QUERY', { params: { parameter: 'CantYear' } });
  if (months?.some((m) => !Number.isInteger(m) || m < 1 || m > 12))
    throw new ApiError('BAD_QUERY', { params: { parameter: 'CantMonth' } });
  if (months?.length) {
    const y = year ?? today.getUTCFullYear();
    return [...new Set(months)]
      .sort((a, b) => a - b)
      .map((m) => ({ from: monthStart(y, m), to: monthStart(y, m + 1) }));
  }
  const count =
    query.CantMeses === undefined || query.CantMeses === ''
      ? DASHBOARD.defaultMonths
      : Number(query.CantMeses);
  if (!Number.isInteger(count) || count < 1 || count > DASHBOARD.maxMonths)
    throw new ApiError('BAD_QUERY', { params: { parameter: 'CantMeses' } });
  if (year !== undefined && year !== today.getUTCFullYear())
    return [{ from: monthStart(year, 1), to: monthStart(year + 1, 1) }];
  const from = monthStart(today.getUTCFullYear(), today.getUTCMonth() + 2 - count);
  return [{ from, to: monthStart(today.getUTCFullYear(), today.getUTCMonth() + 2) }];
}
