import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import { JSON_BODY_LIMIT_BYTES } from '../shared/constants.js';
import app, { type AppOptions } from './app.js';
import { compilersFactory } from './compilers.js';
import { ApiError } from './errors.js';
import { languageOf } from './i18n.js';
import { errorBody } from './plugins/errors.js';

export interface ServerOptions extends AppOptions {
  logLevel?: string;
}

/** A ready Fastify instance with the application registered; tests drive it through inject. */
export async function buildServer({ logLevel, ...options }: ServerOptions): Promise<FastifyInstance> {
  const fastify = Fastify({
    logger: { level: logLevel ?? 'silent' },
    bodyLimit: JSON_BODY_LIMIT_BYTES,
    schemaController: { compilersFactory },
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
    // The router's own refusals (a malformed or overlong path) answer in the one error shape.
    frameworkErrors: (error, request, reply: FastifyReply) => {
      const code = error.code === 'FST_ERR_MAX_PARAM_LENGTH' ? 'URI_TOO_LONG' : 'BAD_REQUEST';
      const body = errorBody(new ApiError(code), languageOf(request.headers['accept-language']));
      return reply.status(body.status).send(body);
    },
  });
  await fastify.register(app, options);
  await fastify.ready();
  return fastify;
}
