import type { FastifyRequest } from 'fastify';
import { ApiError } from '../errors.js';

/**
 * A route's permission check (a preHandler): the profile's menus reach the resource, for writing
 * when `need` is write. Anything else answers 403.
 */
export function requireGrant(resource: string, need: 'read' | 'write' = 'read') {
  return async (request: FastifyRequest) => {
    const access = request.principal.grants?.resources.get(resource);
    if (!access || (need === 'write' && access !== 'write')) throw new ApiError('FORBIDDEN');
  };
}

/** Where a site area's call is made from: the client's division, and a contractor's company. */
export interface SiteOffice {
  clientId: number;
  divisionId: number;
  userId: string;
  /** A contractor's company (its people only). */
  companyId?: number;
}

/**
 * The office of a site area's call (inductions, transport): the client's staff, a profile whose menu
 * holds the area's `staff` screen and no company, works the whole division; a contractor, whose menu
 * holds its `contractor` screen, its company's people. `side` says who may call; FORBIDDEN otherwise.
 */
export function siteOffice(
  principal: FastifyRequest['principal'],
  screens: { staff: string; contractor: string },
  side: 'staff' | 'contractor' | 'either',
): SiteOffice {
  const routes = principal.grants?.routes ?? new Set<string>();
  const reaches = (s: 'staff' | 'contractor') =>
    routes.has(screens[s]) && (s === 'staff') === (principal.companyId === undefined);
  const allowed = side === 'either' ? reaches('staff') || reaches('contractor') : reaches(side);
  if (principal.clientId === undefined || principal.divisionId === undefined || !allowed)
    throw new ApiError('FORBIDDEN');
  return {
    clientId: principal.clientId,
    divisionId: principal.divisionId,
    userId: principal.userId,
    companyId: principal.companyId,
  };
}
