import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { APP_VERSION } from '../../shared/constants.js';

export default async function healthRoutes(fastify: FastifyInstance): Promise<void> {
  fastify.get(
    '/health',
    { config: { public: true }, schema: { tags: ['meta'], summary: 'Liveness and database reachability' } },
    async () => {
      await sql`select 1`.execute(fastify.database.db);
      return { status: 'ok', version: APP_VERSION, database: fastify.database.dialect };
    },
  );
}
