import type { FastifyInstance } from 'fastify';
import { APP_VERSION } from '../../shared/constants.js';
import { MODULES } from '../../shared/modules.js';

/**
 * What the console needs to build its screens for the signed-in profile: the resources it
 * reaches with their schemas and its access to each, and the session's own scope.
 */
export default async function metaRoutes(fastify: FastifyInstance): Promise<void> {
  fastify.get(
    '/meta',
    { schema: { tags: ['meta'], summary: 'Modules, reachable resources and their schemas' } },
    async (request) => {
      const { grants, clientId, divisionId, companyId, profileType } = request.principal;
      return {
        version: APP_VERSION,
        modules: MODULES,
        resources: fastify.registry.meta(
          (entity) =>
            grants?.resources.get(entity.name) ?? (grants?.forms.has(entity.name) ? 'form' : undefined),
        ),
        routes: [...(grants?.routes ?? [])],
        context: { clientId, divisionId, companyId: companyId ?? null, profileType },
      };
    },
  );
}
