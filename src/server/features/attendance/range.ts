import { daysBetween } from '../../../shared/dates.js';
import { ApiError } from '../../errors.js';

/** Most days a person's calendar, a period's grid or a computation covers at once. */
export const ATTENDANCE_MAX_DAYS = 62;

/** The days from `desde` to `hasta`, refused when reversed or longer than the most. */
export function checkedRange<Q extends { desde: string; hasta: string }>(q: Q): Q {
  if (q.hasta < q.desde) throw new ApiError('BAD_REQUEST', { messageKey: 'attendance.reversedRange' });
  if (daysBetween(q.desde, q.hasta) + 1 > ATTENDANCE_MAX_DAYS)
    throw new ApiError('BAD_REQUEST', {
      messageKey: 'attendance.rangeTooLong',
      params: { max: ATTENDANCE_MAX_DAYS },
    });
  return q;
}
