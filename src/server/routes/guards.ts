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
