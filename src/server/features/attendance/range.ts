import { ATTENDANCE_MAX_DAYS } from '../../../shared/attendance.js';
import { daysBetween } from '../../../shared/dates.js';
import { ApiError } from '../../errors.js';

export { ATTENDANCE_MAX_DAYS };

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
