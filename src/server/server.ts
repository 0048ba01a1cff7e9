import Fastify, { type FastifyInstance } from 'fastify';
import { JSON_BODY_LIMIT_BYTES } from '../shared/constants.js';
import app, { type AppOptions } from './app.js';

export interface ServerOptions extends AppOptions {
  logLevel?: string;
}

/** A ready Fastify instance with the application registered; tests drive it through inject. */
export async function buildServer({ logLevel, ...options }: ServerOptions): Promise<FastifyInstance> {
  const fastify = Fastify({
    logger: { level: logLevel ?? 'silent' },
    bodyLimit: JSON_BODY_LIMIT_BYTES,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
  });
  await fastify.register(app, options);
  await fastify.ready();
  return fastify;
}
