import { ENTITY_CODES, type EntityCode, isEntityCode, requestRoute } from '../../shared/accreditation.js';
import { ApiError } from '../errors.js';
import type { Principal } from '../principal.js';

/** A requester at work: the company the session's profile belongs to, and the kinds its menu reaches. */
export interface Requester {
  principal: Principal;
  companyId: number;
  entities: EntityCode[];
}

/**
 * The session as a requester: a contractor's profile with a company, whose menu holds the
 * requester's screen of at least one kind (or of the one asked for). Anything else is a 403.
 */
export function requesterOf(principal: Principal, entity?: unknown): Requester {
  const routes = principal.grants?.routes ?? new Set<string>();
  if (principal.companyId === undefined) throw new ApiError('FORBIDDEN');
  const entities = ENTITY_CODES.filter((e) => routes.has(requestRoute('solicitante', e)));
  if (!entities.length) throw new ApiError('FORBIDDEN');
  if (entity !== undefined && !(isEntityCode(entity) && entities.includes(entity)))
    throw new ApiError('FORBIDDEN');
  return { principal, companyId: principal.companyId, entities };
}
