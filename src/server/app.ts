import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import './types.js';
import { type ChallengePolicy, Challenges, DEFAULT_CHALLENGE } from './auth/challenge.js';
import { Codes } from './auth/codes.js';
import { type KeyPolicy, SigningKeys } from './auth/keys.js';
import { Notifier, type NotifierOptions } from './auth/notifier.js';
import { DataProtectionCache, GrantsCache } from './auth/permissions.js';
import { AuthService } from './auth/service.js';
import { ACCESS_TOKEN_MINUTES, Sessions } from './auth/sessions.js';
import { signingSecret } from './auth/tables.js';
import type { ThrottleLimits } from './auth/throttle.js';
import { GATE_DECISION_BUDGET_MS } from './config.js';
import { CrudService } from './crud/service.js';
import type { Database } from './db/connection.js';
import { ApiError } from './errors.js';
import {
  FEATURES,
  type Feature,
  featureGrants,
  featureHooks,
  featureListeners,
  featurePersonalData,
  featureQualifications,
  featureRequirementSources,
  featureWhereabouts,
} from './features/index.js';
import { Signal } from './jobs/signal.js';
import auth from './plugins/auth.js';
import client from './plugins/client.js';
import errors, { errorBody } from './plugins/errors.js';
import headers from './plugins/headers.js';
import input from './plugins/input.js';
import openapi from './plugins/openapi.js';
import repository from './plugins/repository.js';
import type { Registry } from './registry.js';
import healthRoutes from './routes/health.js';
import jwksRoutes from './routes/jwks.js';
import lookupRoutes from './routes/lookups.js';
import metaRoutes from './routes/meta.js';
import restRoutes from './routes/rest.js';
import type { Transport } from './services/https-post.js';
import { Sealer } from './services/sealer.js';
import { type FileStore, fileStoreFor } from './storage/files.js';

export interface AuthConfig {
  /** Secret that keys the one-time codes' hashes (AUTH_SECRET); by default one is made and kept in the database. */
  secret?: string;
  /** When the keys that sign access tokens are replaced (SIGNING_KEY_DAYS). */
  keyPolicy?: Partial<KeyPolicy>;
  /** SMTP server for codes and temporary passwords (SMTP_URL); without it they stay in the outbox. */
  smtpUrl?: string;
  mailFrom?: string;
  /** Print messages whole on standard output when there is no SMTP server (MAIL_CONSOLE). */
  mailConsole?: boolean;
  /** SMS centre for the phone channel's codes (SMPP_URL); without it a login setting cannot choose the phone. */
  smppUrl?: string;
  /** The SMS sender id (SMPP_SOURCE). */
  smppSource?: string;
  /** How long the SMS centre may take to bind or to answer a message (10 s by default). */
  smppTimeoutMs?: number;
  /** Receives every message whole as it is sent (the tests read codes here). */
  deliver?: NotifierOptions['deliver'];
  /**
   * The sign-in challenge: on unless false (SIGN_IN_CHALLENGE=off, for a closed network or scripts
   * that call the API); a partial policy tunes it.
   */
  challenge?: false | Partial<ChallengePolicy>;
  throttle?: ThrottleLimits;
  now?: () => number;
}

export interface AppOptions {
  database: Database;
  registry: Registry;
  /** Folder of the built console to serve at /, in production. */
  clientDir?: string;
  /** Where attachments and photos are kept: PostgreSQL's own tables, or on SQLite FILES_DIR (a throw-away folder when not given). */
  files?: FileStore;
  auth?: AuthConfig;
  /** How long a gate's decision may take before the gate is told to deny (200 ms by default). */
  gateDecisionBudgetMs?: number;
  webhooks?: WebhookOptions;
  /** The behaviour areas the app runs (every one of the product's, FEATURES, unless told). */
  features?: Feature[];
}

export interface WebhookOptions {
  /** Certificate authorities trusted for endpoints besides the system's, PEM (WEBHOOK_CA_FILE). */
  ca?: string;
  /** Deliver in the background, every JOB_POLL_SECONDS (on unless false: a test runs rounds itself). */
  background?: boolean;
  /** How a delivery is sent (HTTPS by default). */
  transport?: Transport;
}

/**
 * The application as a plugin: the server entry (main.ts) and the tests register it. It is not
 * encapsulated, so whoever registers it reaches its services (the tests do).
 */
async function app(fastify: FastifyInstance, opts: AppOptions): Promise<void> {
  const { database, registry, features = FEATURES } = opts;
  const config = opts.auth ?? {};
  const now = config.now ?? Date.now;
  const secret = await signingSecret(database.db, config.secret);
  const keys = new SigningKeys(
    database.db,
    {
      rotateAfterDays: config.keyPolicy?.rotateAfterDays ?? 30,
      // A retired key verifies the access tokens it signed until the last of them has expired.
      retireMinutes: config.keyPolicy?.retireMinutes ?? ACCESS_TOKEN_MINUTES + 5,
    },
    now,
  );
  const sessions = new Sessions(database.db, keys, now);
  const notifier = new Notifier(database.db, fastify.log, {
    smtpUrl: config.smtpUrl,
    from: config.mailFrom,
    console: config.mailConsole,
    deliver: config.deliver,
    smppUrl: config.smppUrl,
    smppSource: config.smppSource,
    smppTimeoutMs: config.smppTimeoutMs,
  });
  fastify.addHook('onClose', async () => {
    await notifier.close();
  });
  const authService = new AuthService(
    database.db,
    registry,
    sessions,
    new Codes(database.db, secret, now),
    notifier,
    {
      challenges:
        config.challenge === false
          ? undefined
          : new Challenges(database.db, secret, { ...DEFAULT_CHALLENGE, ...config.challenge }, now),
      throttle: config.throttle,
      now,
      secret,
    },
  );

  fastify.decorate('database', database);
  fastify.decorate('registry', registry);
  const markingsWritten = new Signal();
  const featureContext = { registry, notifier, now, markingsWritten };
  fastify.decorate('crud', new CrudService(database, registry, featureHooks(featureContext, features)));
  fastify.decorate('events', featureListeners(featureContext, features));
  fastify.decorate('requirementSources', featureRequirementSources(featureContext, features));
  fastify.decorate('qualifications', featureQualifications(featureContext, features));
  fastify.decorate('whereabouts', featureWhereabouts(featureContext, features));
  fastify.decorate('personalData', featurePersonalData(featureContext, features));
  fastify.decorate('auth', authService);
  fastify.decorate('signingKeys', keys);
  fastify.decorate('grants', new GrantsCache(database.db, registry, featureGrants(features)));
  fastify.decorate('dataProtection', new DataProtectionCache(database.db, registry));
  fastify.decorate('notifier', notifier);
  fastify.decorate('gateDecisionBudgetMs', opts.gateDecisionBudgetMs ?? GATE_DECISION_BUDGET_MS);
  fastify.decorate('markingsWritten', markingsWritten);
  fastify.decorate('sealer', new Sealer(secret));
  fastify.decorate('webhookOptions', opts.webhooks ?? {});
  fastify.decorate('jobs', new Map());
  fastify.decorate('files', opts.files ?? fileStoreFor(database, mkdtempSync(join(tmpdir(), 'acr-files-'))));

  await fastify.register(headers);
  await fastify.register(errors);
  await fastify.register(input);
  await fastify.register(openapi);

  await fastify.register(
    async (api) => {
      await api.register(auth);
      await api.register(repository);
      await api.register(healthRoutes);
      await api.register(metaRoutes);
      await api.register(lookupRoutes);
      for (const feature of features) if (feature.routes) await api.register(feature.routes);
      await api.register(restRoutes, { prefix: '/rest' });
    },
    { prefix: '/api' },
  );

  await fastify.register(jwksRoutes);
  if (opts.clientDir) await fastify.register(client, { root: opts.clientDir });

  fastify.setNotFoundHandler((request: FastifyRequest, reply: FastifyReply) => {
    const isPage = request.method === 'GET' && !request.url.startsWith('/api') && opts.clientDir;
    if (isPage) return reply.type('text/html').sendFile('index.html');
    const error = new ApiError('NOT_FOUND', { params: { path: request.url.split('?')[0] } });
    return reply.status(404).send(errorBody(error, request.language));
  });
}

export default fp(app, { name: 'acreditacion', fastify: '5.x' });
