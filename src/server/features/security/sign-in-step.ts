import { loginError } from '../../auth/login-errors.js';
import { ApiError } from '../../errors.js';
import { toApiError } from '../../plugins/errors.js';

/**
 * A sign-in step's answer inside `result`. A step that fails unexpectedly answers login code 00
 * (spec section 8: server error, also unknown errors) in the one error shape, its cause logged and
 * never sent; a database out of reach stays a 503 with Retry-After, carrying code 00 as well.
 * Refusals (codes 01–12, bad input) are answered as they are.
 */
export async function signInStep<T>(work: () => Promise<T>): Promise<{ result: T }> {
  try {
    return { result: await work() };
  } catch (error) {
    const known = toApiError(error);
    if (known?.code === 'SERVICE_UNAVAILABLE' && !(error instanceof ApiError))
      throw new ApiError('SERVICE_UNAVAILABLE', { params: { codigo: '00' } });
    if (known) throw error;
    throw loginError('00', undefined, undefined, error);
  }
}
