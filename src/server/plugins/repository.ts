import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { ApiError } from '../errors.js';

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

export default fp(repository, { name: 'repository', dependencies: ['auth'] });
