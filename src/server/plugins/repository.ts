import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { ApiError } from '../errors.js';

/**
 * What every protected call may declare of itself beyond its session: the files it keeps or serves
 * (repository paths) and the division it answers for.
 */

/** What a call keeps or serves, by the repository path's use (System > Repository paths). */
export type RepositoryUse = 'F' | 'D' | 'M' | 'R';

/**
 * A call that uploads or downloads a kind of file (`config: { repository: 'D' }`: photos F,
 * documents and attachments D, bulk uploads M) needs the client's active repository path of that
 * use: without one it is refused with the specification's "No upload or download path configured",
 * before its body is read. The files themselves are kept in the product's file store (a folder
 * on SQLite, the database on PostgreSQL), whatever the path's location says.
 */
async function repository(fastify: FastifyInstance): Promise<void> {
  const table = () => fastify.registry.require('repository-path').table;
  fastify.addHook('onRequest', async (request: FastifyRequest) => {
    const use = request.routeOptions.config.repository;
    const client = request.principal?.clientId;
    if (!use || client === undefined) return;
    const path = await fastify.database.db
      .selectFrom(table())
      .select('IdRuta')
      .where('IdCliente', '=', client)
      .where('Uso', '=', use)
      .where('Activo', '=', 'S')
      .executeTakeFirst();
    if (!path) throw new ApiError('BUSINESS_RULE', { messageKey: 'files.noRepositoryPath', params: { use } });
  });
}

/** The description of an IdDivision a call takes only as the session's (`SESSION_DIVISION`). */
const SESSION_DIVISION_TEXT = 'The session’s division: another is refused (400), never ignored.';
export const SESSION_DIVISION = {
  type: 'integer',
  minimum: 1,
  maximum: 2147483647,
  description: SESSION_DIVISION_TEXT,
} as const;

/**
 * A call that declares `IdDivision: SESSION_DIVISION` in its query (the dashboards, the reports)
 * answers for the session's division only: another division asked is refused on the field, so a
 * caller never reads one division's figures believing them another's.
 */
async function sessionDivision(fastify: FastifyInstance): Promise<void> {
  fastify.addHook('onRoute', (route) => {
    const query = route.schema?.querystring as
      | { properties?: Record<string, { description?: string }> }
      | undefined;
    if (query?.properties?.IdDivision?.description !== SESSION_DIVISION_TEXT) return;
    const check = async (request: FastifyRequest) => {
      const asked = (request.query as Record<string, unknown> | undefined)?.IdDivision;
      if (asked === undefined || asked === null || asked === '') return;
      if (Number(asked) !== request.principal?.divisionId)
        throw new ApiError('VALIDATION_FAILED', {
          fields: { IdDivision: { messageKey: 'validation.notSessionDivision' } },
        });
    };
    const before = route.preHandler;
    route.preHandler = before ? [...(Array.isArray(before) ? before : [before]), check] : [check];
  });
}

export default fp(
  async (fastify: FastifyInstance) => {
    await repository(fastify);
    await sessionDivision(fastify);
  },
  { name: 'repository', dependencies: ['auth'] },
);
