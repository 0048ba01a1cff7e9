import type { Db } from '../../../db/connection.js';
import type { ApprovalContext } from './approval.js';
import type { RequestEngine, RequestKind, Revoked } from './engine.js';
import { grant } from './grant.js';
import { end, move } from './revoke.js';

/** What approving a request of each kind does, in the approval's transaction; answers what it revoked. */
export const APPROVAL_EFFECTS: Record<
  RequestKind,
  (engine: RequestEngine, trx: Db, context: ApprovalContext) => Promise<Revoked[]>
> = {
  /** Mobilisation: accredits the worker, vehicle or visitors and keeps their requirement values. */
  M: grant,
  /** Requirement update: replaces the kept values and their expiry, lifting a suspension. */
  A: grant,
  /** Demobilisation: ends the accreditation and revokes what hangs on it. */
  D: end,
  /** Contract extension: moves the accreditation's end. */
  E: move,
  /** Contract change: moves the accreditation to another contract and end. */
  C: move,
};

/** The kinds whose requests carry requirement lines, evaluated one by one. */
export const LINE_KINDS: ReadonlySet<RequestKind> = new Set(['M', 'A']);
