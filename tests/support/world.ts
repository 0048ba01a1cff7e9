import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll } from 'vitest';
import type { AuthConfig, WebhookOptions } from '../../src/server/app.js';
import type { Db, DialectName } from '../../src/server/db/connection.js';
import type { Feature } from '../../src/server/features/index.js';
import type { NamedEnums, Registry } from '../../src/server/registry.js';
import { type CallOptions, call, type SignedIn, signInAll, startTestApp, type TestApp } from './app.js';

/** Who the world signs in: a name the test uses, the demo user, and (when not the default) the division. */
export type Users = Record<string, string | { user: string; division: string }>;

/**
 * The cast most accreditation files sign in (with `division` the south one): the administrator, the
 * contractor's requester in both divisions, the south's authoriser.
 */
export const CONTRACTOR_CAST: Users = {
  admin: 'ADMIN',
  requester: 'SOLICITANTE',
  requesterNorth: { user: 'SOLICITANTE', division: 'PROYECTO CORDILLERA NORTE' },
  authoriser: 'AUTORIZADOR',
};

export interface WorldOptions {
  /** The roles signed in before the tests, by the names the tests call them. */
  users?: Users;
  /** The division the users choose a profile in (the first they have when not given). */
  division?: string;
  demo?: boolean;
  auth?: AuthConfig;
  webhooks?: WebhookOptions;
  gateDecisionBudgetMs?: number;
  /** The areas the app runs, and the named enums' values (a test's own request kind). */
  features?: Feature[];
  enums?: NamedEnums;
  /** More set-up once the app is up and the users signed in (the catalogue a file reads, its contract). */
  ready?: (world: World) => Promise<void>;
}

/**
 * One API test file's world, as fastify/demo's test helper gives it: the app on a copy of the
 * run's database in a dialect, its users signed in, and the calls a test makes with them. Made
 * by `world(dialect, options)` inside the file's describe: it starts before the file's tests and
 * stops after them.
 */
export interface World {
  readonly t: TestApp;
  readonly app: FastifyInstance;
  readonly registry: Registry;
  /** The signed-in users' access tokens by name (a test may sign more in and add them). */
  readonly tokens: Record<string, string>;
  /** The signed-in users' whole sign-ins by name (tokens and the chosen profile). */
  readonly signedIn: Record<string, SignedIn>;
  /** A call as one of the signed-in users (JSON in and out, English messages unless asked otherwise). */
  as(
    who: string,
    method: CallOptions['method'],
    url: string,
    payload?: object,
    options?: Omit<CallOptions, 'method' | 'url' | 'payload'>,
  ): ReturnType<typeof call>;
  db(): Db;
  /** The table of an entity. */
  table(resource: string): string;
  /** How many records an entity holds, of those matching `where` (equality on each column). */
  count(resource: string, where?: Record<string, unknown>): Promise<number>;
}

export function world(dialect: DialectName, options: WorldOptions = {}): World {
  let t: TestApp | undefined;
  const tokens: Record<string, string> = {};
  const signedIn: Record<string, SignedIn> = {};
  const started = () => {
    if (!t) throw new Error('the world is used before its beforeAll ran');
    return t;
  };
  const self: World = {
    get t() {
      return started();
    },
    get app() {
      return started().app;
    },
    get registry() {
      return started().registry;
    },
    tokens,
    signedIn,
    as: (who, method, url, payload, extra = {}) => {
      const token = tokens[who];
      if (token === undefined) throw new Error(`no one signed in as ${who}`);
      return call(started().app, { ...extra, method, url, token, payload });
    },
    db: () => started().db.database.db,
    table: (resource) => started().registry.require(resource).table,
    count: async (resource, where = {}) => {
      let query = self
        .db()
        .selectFrom(self.table(resource))
        .select((eb) => eb.fn.countAll().as('n'));
      for (const [column, value] of Object.entries(where)) query = query.where(column, '=', value);
      return Number(((await query.executeTakeFirstOrThrow()) as { n: number | string }).n);
    },
  };
  beforeAll(async () => {
    t = await startTestApp(dialect, {
      demo: options.demo,
      auth: options.auth,
      webhooks: options.webhooks,
      gateDecisionBudgetMs: options.gateDecisionBudgetMs,
      features: options.features,
      enums: options.enums,
    });
    Object.assign(signedIn, await signInAll(t.app, options.users ?? {}, options.division ?? ''));
    for (const [name, s] of Object.entries(signedIn)) tokens[name] = s.accessToken;
    await options.ready?.(self);
  });
  afterAll(async () => {
    await t?.close();
  });
  return self;
}
