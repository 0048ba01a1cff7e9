import type { Kinds } from '../engine/engine.js';
import { grant } from './grant.js';
import { end, move } from './revoke.js';

/**
 * The request kinds' modules, one per kind of src/shared/request-kinds.ts, handed to the engine
 * (services.ts): what approving a request of each kind does, in the approval's transaction.
 */
export const KINDS: Kinds = {
  /** Mobilisation: accredits the worker, vehicle, visitors or company and keeps their requirement values. */
  M: { approve: grant },
  /** Requirement update: replaces the kept values and their expiry, lifting a suspension. */
  A: { approve: grant },
  /** Demobilisation: ends the accreditation and revokes what hangs on it. */
  D: { approve: end },
  /** Contract extension: moves the accreditation's end. */
  E: { approve: move },
  /** Contract change: moves the accreditation to another contract and end. */
  C: { approve: move },
};
