import { ApiError } from '../errors.js';
import { INT32 } from './responses.js';

/** A positive id from the caller (a query, a form field), or a 400 naming its field. */
export function idOf(value: unknown, field: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > INT32.max)
    throw new ApiError('VALIDATION_FAILED', { fields: { [field]: { messageKey: 'validation.required' } } });
  return n;
}
