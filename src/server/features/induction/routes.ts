import type { FastifyInstance } from 'fastify';

/** The Inductions module's calls (under /api/induccion). */
export default async function inductionRoutes(_fastify: FastifyInstance): Promise<void> {}
