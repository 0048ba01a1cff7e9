import { REQUEST_KINDS } from '../../../../shared/request-kinds.js';
import contractRoutes from '../contract-routes.js';
import demobilisationRoutes from '../demobilisation-routes.js';
import type { Kinds } from '../engine/engine.js';
import renewalRoutes from '../renewal-routes.js';
import requestRoutes from '../request-routes.js';
import { grant } from './grant.js';
import { end, move } from './revoke.js';

/**
 * The request kinds' modules, one per kind of src/shared/request-kinds.ts, handed to the engine
 * (services.ts) and to the feature's scope (its calls): each is its row of the shared table, what
 * approving a request of it does in the approval's transaction, and its calls.
 */
export const KINDS: Kinds = {
  /** Mobilisation: accredits the worker, vehicle, visitors or company and keeps their requirement values. */
  M: { ...REQUEST_KINDS.M, approve: grant, routes: requestRoutes },
  /** Requirement update: replaces the kept values and their expiry, lifting a suspension. */
  A: { ...REQUEST_KINDS.A, approve: grant, routes: renewalRoutes },
  /** Demobilisation: ends the accreditation and revokes what hangs on it. */
  D: { ...REQUEST_KINDS.D, approve: end, routes: demobilisationRoutes },
  /** Contract extension: moves the accreditation's end. */
  E: { ...REQUEST_KINDS.E, approve: move, routes: contractRoutes },
  /** Contract change: moves the accreditation to another contract and end (the extension's calls). */
  C: { ...REQUEST_KINDS.C, approve: move, routes: contractRoutes },
};
