import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIRECTORY_TABLES } from '../../src/server/auth/directory-tables.js';
import { AUTH_TABLES } from '../../src/server/auth/tables.js';
import { buildServer } from '../../src/server/server.js';
import { type CallOptions, call, listUrl, signIn } from '../support/app.js';
import { authenticate, freshAddress, MINUTE, testClock } from '../support/auth.js';
import { DIALECTS } from '../support/databases.js';
import { authorizeAt, startProvider, type TestProvider } from '../support/oidc.js';
import { world } from '../support/world.js';

/** The console's public address in these tests (the Host the calls carry), as registered at the provider. */
const HOST = 'acreditacion.test';
const CALLBACK = `http://${HOST}/api/UsuarioAD/callback`;
const PASSWORD = 'Minera#Segura24';

let provider: TestProvider;
beforeAll(async () => {
  provider = await startProvider([CALLBACK]);
  provider.accounts.set('ana', { email: 'Ana.Quispe@MinAndes.com.pe', email_verified: true, name: 'Ana' });
  provider.accounts.set('desconocido', { email: 'nadie@minandes.com.pe', email_verified: true });
  provider.accounts.set('sinverificar', { email: 'ana.quispe@minandes.com.pe', email_verified: false });
  provider.accounts.set('clave', { email: 'clave.directorio@minandes.com.pe', email_verified: true });
  provider.accounts.set('upn', { upn: 'CORPUPN', email: 'otra@minandes.com.pe' });
});
afterAll(async () => {
  await provider?.close();
});

describe.each(DIALECTS)('directory sign-in over OpenID Connect on %s', (dialect) => {
  let admin: string;
  let clientId: number;
  const clock = testClock(Date.now());
  const ids: Record<string, number> = {};

  const api = async (options: CallOptions) => {
    const res = await call(w.app, { token: admin, ...options });
    if (res.status !== 401) return res;
    admin = (await signIn(w.app, 'ADMIN')).accessToken;
    return call(w.app, { token: admin, ...options });
  };
  const get = (url: string, headers: Record<string, string> = {}) =>
    call(w.app, { method: 'GET', url, headers: { host: HOST, ...headers }, remoteAddress: freshAddress() });

  /** The client's directory settings, saved as the administrator saves the client's form. */
  async function configure(fields: Record<string, unknown>) {
    const current = (await api({ method: 'GET', url: `/api/rest/client/${clientId}` })).body;
    const { id: _id, IdCliente: _key, ...record } = current;
    const res = await api({
      method: 'PUT',
      url: `/api/rest/client/${clientId}`,
      payload: { ...record, ...fields },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body;
  }
  const enable = () =>
    configure({
      InicioSesionDirectorio: 'S',
      DirectorioEmisor: provider.issuer,
      DirectorioIdAplicacion: provider.clientId,
      DirectorioSecreto: provider.clientSecret,
      DirectorioReclamo: 'email',
    });

  async function makeUser(IdUsuario: string, fields: Record<string, unknown>) {
    const created = await api({
      method: 'POST',
      url: '/api/rest/user',
      payload: { IdUsuario, Nombre: 'ANA', Apellido: 'QUISPE', PrimeraClaveCambiada: 'N', ...fields },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    await w.app.auth.passwords.initialPassword(IdUsuario, PASSWORD, 'S');
    const assigned = await api({
      method: 'POST',
      url: '/api/rest/user-profile',
      payload: { IdUsuario, IdPerfil: ids.authoriser, IdDivision: ids.division },
    });
    expect(assigned.status).toBe(201);
  }

  /** The popup's start: the redirect to the issuer and the binding cookie. */
  async function start() {
    const res = await get(`/api/UsuarioAD/iniciar?IdCliente=${clientId}`);
    expect(res.status, String(res.body)).toBe(302);
    const cookie = String(res.headers['set-cookie']).split(';')[0];
    expect(cookie).toMatch(/^acr_directorio=[\w-]{40,}$/);
    return { location: new URL(String(res.headers.location)), cookie };
  }
  /** The callback as the popup loads it, with its cookie: the page, and what it will post. */
  async function callback(url: URL, cookie?: string) {
    const res = await get(`${url.pathname}${url.search}`, cookie ? { cookie } : {});
    const page = String(res.body);
    return {
      status: res.status,
      page,
      headers: res.headers,
      ticket: /data-ticket="([^"]+)"/.exec(page)?.[1],
      error: /data-error="([^"]+)"/.exec(page)?.[1],
    };
  }
  /** The whole popup: start, the user at the provider, the callback. */
  async function popup(login: string) {
    const { location, cookie } = await start();
    const back = await authorizeAt(location.href, login, CALLBACK);
    return callback(back, cookie);
  }
  const spend = (ticket: string | undefined, payload: object = { tokenClient: '', idAplicacion: 'AP03' }) =>
    call(w.app, {
      method: 'POST',
      url: '/api/UsuarioAD/authenticateAzureAD',
      remoteAddress: freshAddress(),
      headers: ticket ? { authorization: `Bearer ${ticket}` } : {},
      payload,
    });
  const sessionsOf = async (userId: string) =>
    Number(
      (
        (await w.app.database.db
          .selectFrom(AUTH_TABLES.session)
          .select((eb) => eb.fn.countAll().as('n'))
          .where('IdUsuario', '=', userId)
          .executeTakeFirstOrThrow()) as { n: number | string }
      ).n,
    );

  const w = world(dialect, {
    auth: { now: clock.now },
    users: { admin: 'ADMIN' },
    ready: async () => {
      admin = w.signedIn.admin.accessToken;
      const find = async (resource: string, filter: object) =>
        (await api({ method: 'GET', url: listUrl(resource, { filter }) })).body[0].id as number;
      clientId = await find('client', {});
      ids.authoriser = await find('profile', { q: 'AUTORIZADOR' });
      ids.division = await find('division', { q: 'SAN GABRIEL' });
      await makeUser('ANAQUISPE', { Correo: 'ana.quispe@minandes.com.pe', ValidarDirectorio: 'S' });
      await makeUser('CLAVEDIR', { Correo: 'clave.directorio@minandes.com.pe', ValidarDirectorio: 'N' });
      await makeUser('CORPUPN', { Correo: 'corp.upn@minandes.com.pe', ValidarDirectorio: 'S' });
    },
  });

  it('is off while the client’s flag is not S: no button, no popup, no sign-in', async () => {
    const status = await get('/api/UsuarioAD/configuracion');
    expect(status.status).toBe(200);
    expect(status.body.result).toEqual({ habilitado: false, idCliente: clientId });
    const refused = await get(`/api/UsuarioAD/iniciar?IdCliente=${clientId}`);
    expect(refused.status).toBe(403);
    expect(String(refused.body)).toContain('data-error="login.directory.disabled"');
    expect(refused.headers['content-type']).toMatch(/^text\/html/);
  });

  it('keeps the client secret out of every answer, and an empty one in a save keeps it', async () => {
    const saved = await enable();
    expect(saved).not.toHaveProperty('DirectorioSecreto');
    expect(saved).toMatchObject({ InicioSesionDirectorio: 'S', DirectorioEmisor: provider.issuer });
    const read = await api({ method: 'GET', url: `/api/rest/client/${clientId}` });
    expect(JSON.stringify(read.body)).not.toContain(provider.clientSecret);
    const list = await api({ method: 'GET', url: listUrl('client') });
    expect(JSON.stringify(list.body)).not.toContain(provider.clientSecret);
    const trail = await api({
      method: 'GET',
      url: listUrl('audit', { filter: { Recurso: 'client', IdRegistro: String(clientId) }, range: [0, 99] }),
    });
    expect(trail.status).toBe(200);
    expect(JSON.stringify(trail.body)).not.toContain(provider.clientSecret);
    // Saved again with the secret left empty, as the form sends it: the stored one stays.
    await configure({ DirectorioSecreto: '' });
    const status = await get('/api/UsuarioAD/configuracion');
    expect(status.body.result).toEqual({ habilitado: true, idCliente: clientId });
  });

  it('refuses the flag S without an issuer or application', async () => {
    const current = (await api({ method: 'GET', url: `/api/rest/client/${clientId}` })).body;
    const { id: _id, IdCliente: _key, ...record } = current;
    const res = await api({
      method: 'PUT',
      url: `/api/rest/client/${clientId}`,
      payload: { ...record, DirectorioEmisor: '', DirectorioIdAplicacion: '' },
    });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.errors)).toEqual(
      expect.arrayContaining(['DirectorioEmisor', 'DirectorioIdAplicacion']),
    );
  });

  it('signs a flagged user in through the provider: PKCE, state and nonce, a ticket, then the profile step', async () => {
    const { location, cookie } = await start();
    expect(location.origin).toBe(provider.issuer);
    expect(location.searchParams.get('client_id')).toBe(provider.clientId);
    expect(location.searchParams.get('redirect_uri')).toBe(CALLBACK);
    expect(location.searchParams.get('code_challenge_method')).toBe('S256');
    expect(location.searchParams.get('code_challenge')).toMatch(/^[\w-]{43}$/);
    expect(location.searchParams.get('state')).toBeTruthy();
    expect(location.searchParams.get('nonce')).toBeTruthy();
    // The verifier and nonce stay on the server: the browser sees neither.
    const flow = (await w.app.database.db
      .selectFrom(DIRECTORY_TABLES.flow)
      .selectAll()
      .orderBy('CreadoEn', 'desc')
      .executeTakeFirstOrThrow()) as { Verificador: string; Hash: string };
    expect(location.href).not.toContain(flow.Verificador);
    expect(flow.Hash).not.toBe(location.searchParams.get('state'));

    const back = await authorizeAt(location.href, 'ana', CALLBACK);
    const page = await callback(back, cookie);
    expect(page.status).toBe(200);
    expect(page.ticket).toMatch(/^[\w-]{40,}$/);
    expect(page.page).toContain('/api/UsuarioAD/window.js');
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.headers['cross-origin-opener-policy']).toBe('unsafe-none');

    const login = await spend(page.ticket);
    expect(login.status, JSON.stringify(login.body)).toBe(200);
    const password = await authenticate(w.app, 'AUTORIZADOR');
    expect(Object.keys(login.body.result).sort()).toEqual(Object.keys(password.body.result).sort());
    expect(login.body.result).toMatchObject({
      username: 'ANAQUISPE',
      fullName: 'ANA QUISPE',
      dobleAutenticacion: 'N',
      cambiarClaveCaducada: 'N',
      // The password of this product does not apply to a directory user: no forced change.
      primeraClaveCambiada: 'S',
    });
    expect(login.body.result.accessToken).toMatch(/^ey/);
    const chosen = await call(w.app, {
      method: 'POST',
      url: '/api/usuario/refreshTokenbyperfil',
      token: login.body.result.accessToken,
      payload: { idPerfil: ids.authoriser, idDivision: ids.division },
    });
    expect(chosen.status, JSON.stringify(chosen.body)).toBe(200);
    expect(chosen.body.result.perfil).toMatchObject({ IdPerfil: ids.authoriser, IdDivision: ids.division });

    // The ticket is spent: a second use is refused, and opens no session.
    const before = await sessionsOf('ANAQUISPE');
    const again = await spend(page.ticket);
    expect(again.status).toBe(401);
    expect(again.body.messageKey).toBe('login.directory.ticketInvalid');
    expect(await sessionsOf('ANAQUISPE')).toBe(before);
  });

  it('refuses a password sign-in of a user the directory validates, with its message', async () => {
    const res = await authenticate(w.app, 'ANAQUISPE', PASSWORD);
    expect(res.status).toBe(403);
    expect(res.body.messageKey).toBe('login.directory.only');
    expect(res.body.message).toMatch(/corporate account/);
    const again = await call(w.app, {
      method: 'POST',
      url: '/api/usuario/refreshTokenPassword',
      remoteAddress: freshAddress(),
      payload: { username: 'ANAQUISPE', password: PASSWORD, idPerfil: ids.authoriser },
    });
    expect(again.body.messageKey).toBe('login.directory.only');
    // Others still sign in with their password.
    expect((await authenticate(w.app, 'CLAVEDIR', PASSWORD)).status).toBe(200);
  });

  it('refuses a replayed or forged state, a callback from another browser, and an expired trip', async () => {
    const { location, cookie } = await start();
    const back = await authorizeAt(location.href, 'ana', CALLBACK);
    // Another browser (no binding cookie, or another one) cannot spend the trip, nor burn it.
    expect((await callback(back)).error).toBe('login.directory.stateInvalid');
    const other = await start();
    expect((await callback(back, other.cookie)).error).toBe('login.directory.stateInvalid');
    const first = await callback(back, cookie);
    expect(first.ticket).toBeTruthy();
    const replayed = await callback(back, cookie);
    expect(replayed.status).toBe(403);
    expect(replayed.error).toBe('login.directory.stateInvalid');
    const forged = new URL(back);
    forged.searchParams.set('state', 'inventado-por-alguien');
    expect((await callback(forged, cookie)).error).toBe('login.directory.stateInvalid');
    expect((await callback(new URL(CALLBACK), cookie)).error).toBe('login.directory.stateInvalid');

    const late = await start();
    const lateBack = await authorizeAt(late.location.href, 'ana', CALLBACK);
    clock.advance(11 * MINUTE);
    expect((await callback(lateBack, late.cookie)).error).toBe('login.directory.stateInvalid');
  });

  it('refuses a replayed and an expired authorization code', async () => {
    const first = await start();
    const firstBack = await authorizeAt(first.location.href, 'ana', CALLBACK);
    expect((await callback(firstBack, first.cookie)).ticket).toBeTruthy();
    // The spent code brought back with a new trip's own state and cookie.
    const second = await start();
    const replay = new URL(firstBack);
    replay.searchParams.set('state', second.location.searchParams.get('state') as string);
    const replayed = await callback(replay, second.cookie);
    expect(replayed.status).toBe(403);
    expect(replayed.error).toBe('login.directory.codeInvalid');
    expect(provider.tokenAnswers.at(-1)).toBe('invalid_grant');

    const third = await start();
    const thirdBack = await authorizeAt(third.location.href, 'ana', CALLBACK);
    provider.expireCodes();
    const expired = await callback(thirdBack, third.cookie);
    expect(expired.error).toBe('login.directory.codeInvalid');
    expect(provider.tokenAnswers.at(-1)).toBe('invalid_grant');
  });

  it('refuses an ID token for another audience, an expired one and one with another nonce', async () => {
    const cases: Array<[string, (c: Record<string, unknown>) => Record<string, unknown>]> = [
      ['audience', (c) => ({ ...c, aud: 'otra-aplicacion' })],
      [
        'expiry',
        (c) => ({
          ...c,
          iat: Math.floor(Date.now() / 1000) - 7200,
          exp: Math.floor(Date.now() / 1000) - 3600,
        }),
      ],
      ['nonce', (c) => ({ ...c, nonce: 'otro-nonce' })],
      ['issuer', (c) => ({ ...c, iss: 'https://login.example.com/otro' })],
    ];
    try {
      for (const [name, tamper] of cases) {
        provider.tamper = tamper;
        const page = await popup('ana');
        expect(page.status, name).toBe(403);
        expect(page.error, name).toBe('login.directory.tokenInvalid');
        expect(page.ticket, name).toBeUndefined();
      }
    } finally {
      provider.tamper = undefined;
    }
  });

  it('refuses the provider’s own refusal (the user cancelled there)', async () => {
    const { location, cookie } = await start();
    const cancelled = new URL(CALLBACK);
    cancelled.search = new URLSearchParams({
      error: 'access_denied',
      error_description: 'End-User aborted interaction',
      state: location.searchParams.get('state') as string,
      iss: provider.issuer,
    }).toString();
    const page = await callback(cancelled, cookie);
    expect(page.status).toBe(403);
    expect(page.error).toBe('login.directory.providerRefused');
  });

  it('refuses a directory user who is no user of the client, or not flagged, and makes nobody', async () => {
    const users = async () =>
      Number(
        (
          (await w.app.database.db
            .selectFrom('security_user')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()) as { n: number | string }
        ).n,
      );
    const count = await users();
    const unknown = await popup('desconocido');
    expect(unknown.ticket).toBeTruthy();
    const refused = await spend(unknown.ticket);
    expect(refused.status).toBe(403);
    expect(refused.body.messageKey).toBe('login.directory.noUser');
    expect(await users()).toBe(count);

    const notFlagged = await spend((await popup('clave')).ticket);
    expect(notFlagged.status).toBe(403);
    expect(notFlagged.body.messageKey).toBe('login.directory.notFlagged');

    // An e-mail the provider says is unverified names nobody.
    const unverified = await popup('sinverificar');
    expect(unverified.error).toBe('login.directory.noIdentity');
  });

  it('signs the flagged user in though another user typed the same e-mail', async () => {
    // An inactive user may keep an e-mail an active one has; an active one may not (security.emailTaken).
    const copyOfAna = (fields: object) =>
      api({
        method: 'POST',
        url: '/api/rest/user',
        payload: { IdUsuario: 'ANACOPIA', Nombre: 'ANA', Apellido: 'COPIA', ...fields },
      });
    const taken = await copyOfAna({ Correo: 'Ana.Quispe@minandes.com.pe' });
    expect(taken.status).toBe(409);
    expect(taken.body.errors.Correo.messageKey).toBe('security.emailTaken');
    const copy = await copyOfAna({ Correo: 'ana.quispe@minandes.com.pe', Activo: 'N' });
    expect(copy.status, JSON.stringify(copy.body)).toBe(201);
    const login = await spend((await popup('ana')).ticket);
    expect(login.status, JSON.stringify(login.body)).toBe(200);
    expect(login.body.result.username).toBe('ANAQUISPE');
  });

  it('names the user by the claim the client chose (upn)', async () => {
    await configure({ DirectorioReclamo: 'upn' });
    try {
      const login = await spend((await popup('upn')).ticket);
      expect(login.status, JSON.stringify(login.body)).toBe(200);
      expect(login.body.result.username).toBe('CORPUPN');
      // Ana's token has no upn.
      expect((await popup('ana')).error).toBe('login.directory.noIdentity');
    } finally {
      await configure({ DirectorioReclamo: 'email' });
    }
  });

  it('refuses a ticket once the flag is off, an expired ticket, and calls without a ticket', async () => {
    const before = await sessionsOf('ANAQUISPE');
    const expiring = await popup('ana');
    clock.advance(3 * MINUTE);
    const expired = await spend(expiring.ticket);
    expect(expired.status).toBe(401);
    expect(expired.body.messageKey).toBe('login.directory.ticketInvalid');

    const page = await popup('ana');
    await configure({ InicioSesionDirectorio: 'N' });
    try {
      const refused = await spend(page.ticket);
      expect(refused.status).toBe(403);
      expect(refused.body.messageKey).toBe('login.directory.disabled');
      expect((await get('/api/UsuarioAD/configuracion')).body.result.habilitado).toBe(false);
    } finally {
      await configure({ InicioSesionDirectorio: 'S' });
    }
    expect(await sessionsOf('ANAQUISPE')).toBe(before);

    const none = await spend(undefined);
    expect(none.status).toBe(401);
    expect(none.body.messageKey).toBe('login.directory.ticketInvalid');
    const forged = await spend('no-es-un-ticket');
    expect(forged.status).toBe(401);
    const array = await call(w.app, {
      method: 'POST',
      url: '/api/UsuarioAD/authenticateAzureAD',
      headers: { authorization: 'Bearer x' },
      payload: [1, 2],
    });
    expect(array.status).toBe(400);
    expect((await get('/api/UsuarioAD/iniciar?IdCliente=abc')).status).toBe(400);
    expect((await get('/api/UsuarioAD/configuracion?IdCliente=999999')).body.result.habilitado).toBe(false);
  });

  it('refuses an issuer it cannot reach, or one over plain http elsewhere than this machine', async () => {
    try {
      await configure({ DirectorioEmisor: 'http://127.0.0.1:1/no-hay-nadie' });
      const unreachable = await get(`/api/UsuarioAD/iniciar?IdCliente=${clientId}`);
      expect(unreachable.status).toBe(403);
      expect(String(unreachable.body)).toContain('data-error="login.directory.providerUnavailable"');
      await configure({ DirectorioEmisor: 'http://login.example.com/tenant' });
      const plain = await get(`/api/UsuarioAD/iniciar?IdCliente=${clientId}`);
      expect(String(plain.body)).toContain('data-error="login.directory.notConfigured"');
    } finally {
      await enable();
    }
  });

  describe('with the sign-in challenge on', () => {
    let guarded: { app: FastifyInstance } | undefined;
    beforeAll(async () => {
      // A second server process on the same database, with the challenge as a deployment has it.
      guarded = {
        app: await buildServer({
          database: w.t.db.database,
          registry: w.registry,
          auth: { challenge: {}, deliver: () => undefined },
        }),
      };
    });
    afterAll(async () => {
      await guarded?.app.close();
    });

    it('checks tokenClient as the password sign-in does, before the ticket is spent', async () => {
      const page = await popup('ana');
      const ticket = page.ticket as string;
      const spendThere = (tokenClient: string) =>
        call((guarded as { app: FastifyInstance }).app, {
          method: 'POST',
          url: '/api/UsuarioAD/authenticateAzureAD',
          remoteAddress: freshAddress(),
          headers: { authorization: `Bearer ${ticket}` },
          payload: { tokenClient, idAplicacion: 'AP03' },
        });
      const password = await call((guarded as { app: FastifyInstance }).app, {
        method: 'POST',
        url: '/api/usuario/authenticate',
        remoteAddress: freshAddress(),
        payload: { username: 'AUTORIZADOR', password: 'x', tokenClient: 'respuesta-inventada' },
      });
      expect(password.status).not.toBe(200);
      const directory = await spendThere('respuesta-inventada');
      expect(directory.status).toBe(password.status);
      expect(directory.body.messageKey).toBe(password.body.messageKey);
      expect(directory.body.params).toEqual(password.body.params);
      // Refused before it was spent: the same ticket still signs in where the challenge is off.
      expect((await spend(ticket)).status).toBe(200);
    });
  });
});
