import { join } from 'node:path';
import type { FastifyInstance, InjectOptions } from 'fastify';
import type { AuthConfig, WebhookOptions } from '../../src/server/app.js';
import type { Mail } from '../../src/server/auth/notifier.js';
import type { DialectName } from '../../src/server/db/connection.js';
import { DEMO_PASSWORD } from '../../src/server/demo/security.js';
import type { Feature } from '../../src/server/features/index.js';
import { SYSTEM_PRINCIPAL } from '../../src/server/plugins/auth.js';
import { loadRegistry, NAMED_ENUMS, type NamedEnums, type Registry } from '../../src/server/registry.js';
import { buildServer } from '../../src/server/server.js';
import { fileStoreFor } from '../../src/server/storage/files.js';
import { createTestDatabase, type TestDatabase } from './databases.js';

export interface TestApp {
  app: FastifyInstance;
  registry: Registry;
  db: TestDatabase;
  /** Every message the app sent, whole (the outbox keeps them with their secrets masked). */
  mail: Mail[];
  close(): Promise<void>;
}

/** The messages each test app sent, for the helpers that read codes out of them. */
export const mailboxes = new WeakMap<FastifyInstance, Mail[]>();

/** A ready application on a database of its own in the given dialect, with the demo data unless told not to. */
export async function startTestApp(
  dialect: DialectName,
  options: {
    demo?: boolean;
    auth?: AuthConfig;
    gateDecisionBudgetMs?: number;
    webhooks?: WebhookOptions;
    /** The areas the app runs (the product's unless given: a test's own kind of request, say). */
    features?: Feature[];
    /** The value sets the schemas' named enums take (a test's own request kind among them). */
    enums?: NamedEnums;
  } = {},
): Promise<TestApp> {
  const registry = loadRegistry(undefined, options.enums ?? NAMED_ENUMS);
  // A copy of the run's prepared database, seeded unless told not to (templates.ts).
  const db = await createTestDatabase(dialect, options.demo === false ? 'bare' : 'demo');
  const files = fileStoreFor(db.database, join(db.location.dataDir, 'files'));
  const mail: Mail[] = [];
  const app = await buildServer({
    database: db.database,
    registry,
    files,
    // The sign-in challenge only where a suite asks for it (sign-in-challenge.test.ts).
    auth: { challenge: false, ...options.auth, deliver: (m) => mail.push(m) },
    gateDecisionBudgetMs: options.gateDecisionBudgetMs,
    // Webhooks are delivered when a test runs a round, not in the background.
    webhooks: { background: false, ...options.webhooks },
    features: options.features,
  });
  mailboxes.set(app, mail);
  return {
    app,
    registry,
    db,
    mail,
    close: async () => {
      await app.close();
      await db.drop();
    },
  };
}

export type CallOptions = InjectOptions & { token?: string };

/** inject() with JSON in and out; English messages unless another language is asked for. */
export async function call(app: FastifyInstance, { token, ...options }: CallOptions) {
  const response = await app.inject({
    ...options,
    headers: {
      'accept-language': 'en',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...options.headers,
    },
  });
  let body: unknown;
  try {
    body = response.json();
  } catch {
    body = response.body;
  }
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON
  return { status: response.statusCode, headers: response.headers, body: body as any };
}

export interface SignedIn {
  accessToken: string;
  refreshToken: string;
  // biome-ignore lint/suspicious/noExplicitAny: the profile as the API answers it
  perfil: any;
}

/**
 * Signs a demo user in as the console does: password, then a profile (the default, or the one in
 * the given division). Each call comes from its own address, so the sign-in throttle stays out of
 * the way of tests that are not about it.
 */
export async function signIn(
  app: FastifyInstance,
  username: string,
  options: { password?: string; division?: string; profile?: number } = {},
): Promise<SignedIn> {
  const remoteAddress = `10.9.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;
  const login = await call(app, {
    method: 'POST',
    url: '/api/usuario/authenticate',
    remoteAddress,
    payload: { username, password: options.password ?? DEMO_PASSWORD },
  });
  if (login.status !== 200) throw new Error(`sign-in of ${username} failed: ${JSON.stringify(login.body)}`);
  // A user asked for a code: the one just e-mailed, as its owner would type it.
  if (login.body.result.dobleAutenticacion === 'S') {
    const mail = [...(mailboxes.get(app) ?? [])].reverse().find((m) => m.userId === username);
    const code = mail && /\b(\d{4,8})\b/.exec(mail.text)?.[1];
    if (!code) throw new Error(`no code was sent to ${username}`);
    const validated = await call(app, {
      method: 'POST',
      url: '/api/usuario/validatelogin',
      remoteAddress,
      payload: { username, codigo: code },
    });
    if (validated.status !== 200)
      throw new Error(`the code of ${username} was refused: ${JSON.stringify(validated.body)}`);
    login.body = validated.body;
  }
  const divisions = login.body.result.division as Array<{
    IdPerfil: number;
    IdDivision: number;
    Division: string;
  }>;
  const chosen = options.division ? divisions.find((d) => d.Division === options.division) : divisions[0];
  if (!chosen) throw new Error(`${username} has no profile in ${options.division}`);
  const session = await call(app, {
    method: 'POST',
    url: '/api/usuario/refreshTokenbyperfil',
    token: login.body.result.accessToken,
    payload: { idPerfil: options.profile ?? chosen.IdPerfil, idDivision: chosen.IdDivision },
  });
  if (session.status !== 200)
    throw new Error(`profile choice of ${username} failed: ${JSON.stringify(session.body)}`);
  return session.body.result;
}

/**
 * Calls as a demo user who signs in again when the session has run out (a test that moves the
 * clock past its tokens): `api(options)` answers as `call` does.
 */
export function callerAs(app: () => FastifyInstance, username = 'ADMIN') {
  let token: string | undefined;
  return async (options: CallOptions) => {
    token ??= (await signIn(app(), username)).accessToken;
    const res = await call(app(), { token, ...options });
    if (res.status !== 401) return res;
    token = (await signIn(app(), username)).accessToken;
    return call(app(), { token, ...options });
  };
}

/** The list URL in the ra-data-simple-rest convention. */
export function listUrl(
  resource: string,
  params: { sort?: unknown; range?: unknown; filter?: unknown } = {},
): string {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined) query.set(key, typeof value === 'string' ? value : JSON.stringify(value));
  }
  const qs = query.toString();
  return `/api/rest/${resource}${qs ? `?${qs}` : ''}`;
}

/** The menu item whose screen is at `route` (an entity's `/<resource>`, or a feature's path). */
export async function menuIdOf(t: TestApp, route: string): Promise<string> {
  const item = (await t.app.database.db
    .selectFrom(t.registry.require('menu').table)
    .select('IdMenu')
    .where('Ruta', '=', route)
    .executeTakeFirstOrThrow()) as { IdMenu: string };
  return item.IdMenu;
}

/**
 * A second client (Chile) with a division and its own administrator, ADMINCHILE, whose profile
 * reaches the menus given; answers ADMINCHILE's access token. For the tests that keep clients apart.
 */
export async function anotherClientAdmin(t: TestApp, menus: string[]): Promise<string> {
  const crud = t.app.crud;
  const client = await crud.create(
    t.registry.require('client'),
    { Cliente: 'MINERA DEL PACÍFICO NORTE S.A.', IdPais: 'CH' },
    SYSTEM_PRINCIPAL,
  );
  const at = { userId: 'SISTEMA', clientId: client.id as number };
  const division = await crud.create(
    t.registry.require('division'),
    { Division: 'FAENA ESCONDIDA SUR', IdPais: 'CH' },
    at,
  );
  const profile = await crud.create(t.registry.require('profile'), { Perfil: 'ADMINISTRADOR' }, at);
  for (const IdMenu of menus)
    await crud.create(t.registry.require('menu-profile'), { IdPerfil: profile.id, IdMenu }, at);
  await crud.create(
    t.registry.require('user'),
    {
      IdUsuario: 'ADMINCHILE',
      Nombre: 'ANA',
      Apellido: 'SOTO',
      Correo: 'ana@pacificonorte.cl',
      PrimeraClaveCambiada: 'S',
    },
    at,
  );
  await t.app.auth.passwords.initialPassword('ADMINCHILE', 'Atacama#Norte1', 'S');
  await crud.create(
    t.registry.require('user-profile'),
    { IdUsuario: 'ADMINCHILE', IdPerfil: profile.id, IdDivision: division.id },
    at,
  );
  return (await signIn(t.app, 'ADMINCHILE', { password: 'Atacama#Norte1' })).accessToken;
}

/** Signs in each of `users` (name → user) in `division`, and answers their access tokens by name. */
export async function tokensOf(
  app: FastifyInstance,
  users: Record<string, string | { user: string; division: string }>,
  division: string,
): Promise<Record<string, string>> {
  const signed = await signInAll(app, users, division);
  return Object.fromEntries(Object.entries(signed).map(([name, s]) => [name, s.accessToken]));
}

/** Signs each named user in (in its division, or `division`), one after another: their sign-ins by name. */
export async function signInAll(
  app: FastifyInstance,
  users: Record<string, string | { user: string; division: string }>,
  division: string,
): Promise<Record<string, SignedIn>> {
  const signed: Record<string, SignedIn> = {};
  for (const [name, who] of Object.entries(users)) {
    const { user, division: where } = typeof who === 'string' ? { user: who, division } : who;
    signed[name] = await signIn(app, user, { division: where });
  }
  return signed;
}
