import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import { ApiError } from '../../errors.js';
import type { Device, DeviceKeys } from './device-keys.js';

/**
 * What every device call shares (a gate's, a dining reader's): the key in the Authorization header,
 * the device's clock corrected by its equipment's difference, and the budget within which an answer
 * must be durable, else the device is told to refuse (fail closed).
 */

/** A corrected device time further ahead of the server than this, or further behind, is doubtful. */
const AHEAD_MS = 5 * 60_000;
const BEHIND_MS = 7 * 24 * 3_600_000;

const keyOf = (request: FastifyRequest) => {
  const header = request.headers.authorization ?? '';
  return header.startsWith('Device ') ? header.slice(7).trim() : '';
};

/** A device's refusal, in a device's words (not a person's "your session ended"). */
const unknownDevice = (messageKey: string) => new ApiError('UNAUTHORIZED', { messageKey });

export function deviceAuth(keys: DeviceKeys) {
  return {
    /** The active equipment of the call's key; 401 otherwise. */
    async authenticate(request: FastifyRequest): Promise<Device> {
      const key = keyOf(request);
      if (!key || key.length > 200) throw unknownDevice('gate.deviceKeyMissing');
      const device = await keys.verify(key);
      if (!device) throw unknownDevice('gate.deviceKeyInvalid');
      return device;
    },
    /**
     * Before a device call's body is read: without a device key of a plausible shape, the call is
     * answered 401 at once (its body, however large or malformed, is neither read nor judged).
     */
    async keyFirst(request: FastifyRequest): Promise<void> {
      const key = keyOf(request);
      if (!key || key.length > 200) throw unknownDevice('gate.deviceKeyMissing');
    },
  };
}

/** The device's clock corrected by its equipment's difference, and whether it is plausible. */
export function correctedTime(device: Device, given: string | undefined, received: number) {
  if (!given) return { at: new Date(received), doubtful: false };
  const deviceAt = new Date(given);
  const corrected = deviceAt.getTime() - device.DiferenciaHoraria * 60_000;
  const doubtful = corrected > received + AHEAD_MS || corrected < received - BEHIND_MS;
  // A little ahead is a clock's drift: nothing happened after the server received it.
  const at = new Date(!doubtful && corrected > received ? received : corrected);
  return { at, deviceAt, doubtful };
}

/**
 * The outcome of a device's decision within its budget, or undefined: the budget ran out (and
 * `giveUp` was called, so a transaction still running is rolled back), or the database failed. A
 * key the database says is unknown, or a malformed call, stays the device's error; anything else is
 * a denial with its reason, never an error a reader might take for a pass.
 */
export async function withinBudget<T>(
  work: Promise<T>,
  budgetMs: number,
  giveUp: () => void,
  log: FastifyBaseLogger,
): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const budget = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), budgetMs);
  });
  try {
    const outcome = await Promise.race([work, budget]);
    if (outcome !== 'timeout') return outcome;
    giveUp();
    work.catch((error) => log.warn({ err: error }, 'device decision abandoned after its budget'));
  } catch (error) {
    if (error instanceof ApiError && (error.code === 'UNAUTHORIZED' || error.code === 'BAD_REQUEST'))
      throw error;
    log.error({ err: error }, 'device decision failed: denied');
  } finally {
    clearTimeout(timer);
  }
  return undefined;
}
