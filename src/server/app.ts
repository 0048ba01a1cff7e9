import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import './types.js';
import type { ClientTokenVerifier } from './auth/captcha.js';
import { Codes } from './auth/codes.js';
import { Notifier } from './auth/notifier.js';
import { GrantsCache } from './auth/permissions.js';
import { AuthService } from './auth/service.js';
import { Sessions } from './auth/sessions.js';
import { signingSecret } from './auth/tables.js';
import type { ThrottleLimits } from './auth/throttle.js';
import type { Database } from './db/connection.js';
import { ApiError } from './errors.js';
import { entityHooks } from './hooks/index.js';
import auth from './plugins/auth.js';
import client from './plugins/client.js';
import errors, { errorBody } from './plugins/errors.js';
import openapi from './plugins/openapi.js';
import type { Registry } from './registry.js';
import authRoutes from './routes/auth.js';
import configurationRoutes from './routes/configuration.js';
import fileRoutes from './routes/files.js';
import healthRoutes from './routes/health.js';
import lookupRoutes from './routes/lookups.js';
import metaRoutes from './routes/meta.js';
import restRoutes from './routes/rest.js';
import securityRoutes from './routes/security.js';
import { CrudService } from './services/crud.js';

export interface AuthConfig {
  /** Key that signs access tokens (AUTH_SECRET); by default one is made and kept in the database. */
  secret?: string;
  /** SMTP server for codes and temporary passwords (SMTP_URL); without it they stay in the outbox. */
  smtpUrl?: string;
  mailFrom?: string;
  verifyClientToken?: ClientTokenVerifier;
  throttle?: ThrottleLimits;
  now?: () => number;
}

export interface AppOptions {
  database: Database;
  registry: Registry;
  /** Folder of the built console to serve at /, in production. */
  clientDir?: string;
  auth?: AuthConfig;
}

/**
 * The application as a plugin: the server entry (main.ts) and the tests register it. It is not
 * encapsulated, so whoever registers it reaches its services (the tests do).
 */
async function app(fastify: FastifyInstance, opts: AppOptions): Promise<void> {
  const { database, registry } = opts;
  const config = opts.auth ?? {};
  const now = config.now ?? Date.now;
  const secret = await signingSecret(database.db, config.secret);
  const sessions = new Sessions(database.db, secret, now);
  const notifier = new Notifier(database.db, fastify.log, { smtpUrl: config.smtpUrl, from: config.mailFrom });
  const authService = new AuthService(
    database.db,
    registry,
    sessions,
    new Codes(database.db, secret, now),
    notifier,
    {
      verifyClientToken: config.verifyClientToken,
      throttle: config.throttle,
      now,
    },
  );

  fastify.decorate('database', database);
  fastify.decorate('registry', registry);
  fastify.decorate('crud', new CrudService(database, registry, entityHooks(registry, notifier)));
  fastify.decorate('auth', authService);
  fastify.decorate('grants', new GrantsCache(database.db, registry));

  await fastify.register(errors);
  await fastify.register(openapi);

  await fastify.register(
    async (api) => {
      await api.register(auth);
      await api.register(healthRoutes);
      await api.register(authRoutes);
      await api.register(securityRoutes);
      await api.register(fileRoutes);
      await api.register(metaRoutes);
      await api.register(lookupRoutes);
      await api.register(configurationRoutes);
      await api.register(restRoutes, { prefix: '/rest' });
    },
    { prefix: '/api' },
  );

  if (opts.clientDir) await fastify.register(client, { root: opts.clientDir });

  fastify.setNotFoundHandler((request: FastifyRequest, reply: FastifyReply) => {
    const isPage = request.method === 'GET' && !request.url.startsWith('/api') && opts.clientDir;
    if (isPage) return reply.type('text/html').sendFile('index.html');
    const error = new ApiError('NOT_FOUND', { params: { path: request.url.split('?')[0] } });
    return reply.status(404).send(errorBody(error, request.language));
  });
}

export default fp(app, { name: 'acreditacion', fastify: '5.x' });
