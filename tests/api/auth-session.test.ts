import {
  createLocalJWKSet,
  decodeJwt,
  decodeProtectedHeader,
  generateKeyPair,
  type JWK,
  jwtVerify,
  SignJWT,
  UnsecuredJWT,
} from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD } from '../../src/server/demo/security.js';
import { TOKEN_HEADERS } from '../../src/shared/session.js';
import { call, signIn, startTestApp, type TestApp } from '../support/app.js';
import { authenticate, MINUTE, testClock } from '../support/auth.js';
import { DIALECTS } from '../support/databases.js';

describe.each(DIALECTS)('tokens and sessions on %s', (dialect) => {
  let t: TestApp;
  const clock = testClock();
  beforeAll(async () => {
    t = await startTestApp(dialect, { auth: { now: clock.now } });
  });
  afterAll(async () => {
    await t?.close();
  });

  const get = (url: string, token?: string, headers: Record<string, string> = {}) =>
    call(t.app, { method: 'GET', url, token, headers });

  it('requires a token on every /api route but sign-in, codes, recovery and health', async () => {
    expect((await get('/api/rest/country')).status).toBe(401);
    expect((await get('/api/meta')).status).toBe(401);
    expect((await get('/api/SeguridadMenu/obtenerMenu')).status).toBe(401);
    expect((await get('/api/rest/country', 'not-a-token')).status).toBe(401);
    expect((await get('/api/health')).status).toBe(200);
    const forged = `${(await signIn(t.app, 'ADMIN')).accessToken.slice(0, -4)}AAAA`;
    const refused = await get('/api/rest/country', forged);
    expect(refused.status).toBe(401);
    expect(refused.headers[TOKEN_HEADERS.action]).toBe('logout');
  });

  it('a signed-in session without a profile reaches only the profile choice and its own data', async () => {
    const login = await authenticate(t.app, 'AUTORIZADOR');
    const token = login.body.result.accessToken;
    expect((await get('/api/usuario/getUserByToken', token)).status).toBe(200);
    expect((await get('/api/rest/person', token)).status).toBe(403);
    expect((await get('/api/meta', token)).status).toBe(403);
  });

  it('carries user, profile, client, division and company in the access token', async () => {
    const session = await signIn(t.app, 'SOLICITANTE');
    const claims = JSON.parse(Buffer.from(session.accessToken.split('.')[1], 'base64url').toString());
    expect(claims).toMatchObject({
      sub: 'SOLICITANTE',
      stg: 'session',
      prf: session.perfil.IdPerfil,
      cli: session.perfil.IdCliente,
      div: session.perfil.IdDivision,
      cmp: session.perfil.IdCompania,
    });
    expect(claims.exp - claims.iat).toBe(15 * 60);
    expect(session.perfil).toMatchObject({
      Compania: 'SERVICIOS MINEROS DEL PACÍFICO S.A.C.',
      tipoPerfil: 'requester',
      Contratista: 'S',
    });
  });

  it('renews an expired access token with the refresh token: 401 with the new pair, then the replay works', async () => {
    const session = await signIn(t.app, 'ADMIN');
    clock.advance(16 * MINUTE);
    const expired = await get('/api/rest/country', session.accessToken, {
      [TOKEN_HEADERS.refresh]: session.refreshToken,
    });
    expect(expired.status).toBe(401);
    expect(expired.headers[TOKEN_HEADERS.recreated]).toBe('S');
    expect(expired.headers[TOKEN_HEADERS.action]).toBe('retry');
    const access = String(expired.headers[TOKEN_HEADERS.newAccess]);
    const refresh = String(expired.headers[TOKEN_HEADERS.newRefresh]);
    expect(access).not.toBe(session.accessToken);
    expect(refresh).not.toBe(session.refreshToken);
    expect((await get('/api/rest/country', access, { [TOKEN_HEADERS.refresh]: refresh })).status).toBe(200);
  });

  it('asks for the lock screen when an expired token comes without a refresh token', async () => {
    const session = await signIn(t.app, 'ADMIN');
    clock.advance(16 * MINUTE);
    const res = await get('/api/rest/country', session.accessToken);
    expect(res.status).toBe(401);
    expect(res.headers[TOKEN_HEADERS.action]).toBe('lock');
    expect(res.headers[TOKEN_HEADERS.recreated]).toBe('N');
  });

  it('detects a refresh token used twice and revokes the whole session', async () => {
    const session = await signIn(t.app, 'ADMIN');
    clock.advance(16 * MINUTE);
    const first = await get('/api/rest/country', session.accessToken, {
      [TOKEN_HEADERS.refresh]: session.refreshToken,
    });
    const access = String(first.headers[TOKEN_HEADERS.newAccess]);
    // The old refresh token again, past the few seconds parallel requests get: somebody else has it.
    clock.advance(11_000);
    const reuse = await get('/api/rest/country', session.accessToken, {
      [TOKEN_HEADERS.refresh]: session.refreshToken,
    });
    expect(reuse.status).toBe(401);
    expect(reuse.headers[TOKEN_HEADERS.action]).toBe('logout');
    // Everything descended from that sign-in is dead, the new access token included.
    const after = await get('/api/rest/country', access);
    expect(after.status).toBe(401);
    expect(after.headers[TOKEN_HEADERS.action]).toBe('logout');
  });

  it('signs out with expiretoken: access and refresh tokens stop working', async () => {
    const session = await signIn(t.app, 'AUTORIZADOR');
    expect((await get('/api/rest/person', session.accessToken)).status).toBe(200);
    const out = await call(t.app, {
      method: 'POST',
      url: '/api/accesskey/expiretoken',
      token: session.accessToken,
    });
    expect(out.status).toBe(200);
    expect((await get('/api/rest/person', session.accessToken)).status).toBe(401);
    clock.advance(16 * MINUTE);
    const renewal = await get('/api/rest/person', session.accessToken, {
      [TOKEN_HEADERS.refresh]: session.refreshToken,
    });
    expect(renewal.headers[TOKEN_HEADERS.action]).toBe('logout');
  });

  it('switches profile and division from a working session; the old session ends', async () => {
    const divisions = (await authenticate(t.app, 'SOLICITANTE')).body.result.division as Array<{
      IdDivision: number;
    }>;
    const first = await signIn(t.app, 'SOLICITANTE');
    const elsewhere = divisions.find((d) => d.IdDivision !== first.perfil.IdDivision);
    const other = await call(t.app, {
      method: 'POST',
      url: '/api/usuario/refreshTokenbyperfil',
      token: first.accessToken,
      payload: { idPerfil: first.perfil.IdPerfil, idDivision: elsewhere?.IdDivision },
    });
    expect(other.status).toBe(200);
    expect(other.body.result.perfil.IdDivision).not.toBe(first.perfil.IdDivision);
    expect((await get('/api/rest/person', first.accessToken)).status).toBe(401);
    expect((await get('/api/rest/person', other.body.result.accessToken)).status).toBe(200);
  });

  it('refuses a profile or division the user does not hold', async () => {
    const login = await authenticate(t.app, 'SOLICITANTE');
    const res = await call(t.app, {
      method: 'POST',
      url: '/api/usuario/refreshTokenbyperfil',
      token: login.body.result.accessToken,
      payload: { idPerfil: 999 },
    });
    expect(res.status).toBe(403);
  });

  it('unlocks the screen with the password, back into the same profile', async () => {
    const session = await signIn(t.app, 'AUTORIZADOR');
    const res = await call(t.app, {
      method: 'POST',
      url: '/api/usuario/unlock',
      payload: {
        idUsuario: 'autorizador',
        password: DEMO_PASSWORD,
        idPerfil: session.perfil.IdPerfil,
        idDivision: session.perfil.IdDivision,
      },
    });
    expect(res.status).toBe(200);
    expect(res.body.result.perfil.IdDivision).toBe(session.perfil.IdDivision);
    const wrong = await call(t.app, {
      method: 'POST',
      url: '/api/usuario/unlock',
      payload: { idUsuario: 'AUTORIZADOR', password: 'Equivocada#1', idPerfil: session.perfil.IdPerfil },
    });
    expect(wrong.status).toBe(401);
    expect(wrong.body.params.codigo).toBe('01');
  });

  it('answers getUserByToken with the user and current profile', async () => {
    const session = await signIn(t.app, 'AUTORIZADOR');
    const res = await get('/api/usuario/getUserByToken', session.accessToken);
    expect(res.body.result).toMatchObject({
      username: 'AUTORIZADOR',
      fullName: 'JORGE LUIS CHÁVEZ NINA',
      perfilActual: {
        tipoPerfil: 'authoriser',
        esAutorizador: true,
        RolAcreditacion: 'AUTORIZADOR DE ACREDITACIÓN',
      },
    });
    expect(res.body.result.accessToken).toBeUndefined();
  });
});

describe.each(DIALECTS)('the keys that sign access tokens on %s', (dialect) => {
  let t: TestApp;
  const clock = testClock();
  beforeAll(async () => {
    t = await startTestApp(dialect, { auth: { now: clock.now, keyPolicy: { rotateAfterDays: 1 } } });
  });
  afterAll(async () => {
    await t?.close();
  });

  const get = (url: string, token?: string) => call(t.app, { method: 'GET', url, token });
  const kidOf = (token: string) => decodeProtectedHeader(token).kid;
  const jwks = async () => (await get('/.well-known/jwks.json')).body as { keys: JWK[] };

  it('signs with ES256 and a key id that another service verifies from the published JWKS', async () => {
    const { accessToken } = await signIn(t.app, 'SOLICITANTE');
    expect(decodeProtectedHeader(accessToken)).toMatchObject({ alg: 'ES256', typ: 'JWT' });
    const published = await get('/.well-known/jwks.json');
    expect(published.status).toBe(200);
    const { keys } = published.body as { keys: JWK[] };
    expect(keys.map((key) => key.kid)).toContain(kidOf(accessToken));
    // Only public halves: no private exponent in what anyone may read.
    for (const key of keys) expect(key).not.toHaveProperty('d');
    const { payload } = await jwtVerify(accessToken, createLocalJWKSet({ keys }), {
      issuer: 'acreditacion',
      audience: 'acreditacion-api',
      currentDate: new Date(clock.now()),
    });
    expect(payload).toMatchObject({ sub: 'SOLICITANTE', stg: 'session' });
    // The same token for another audience is not what another service accepts.
    await expect(
      jwtVerify(accessToken, createLocalJWKSet({ keys }), {
        audience: 'another-api',
        currentDate: new Date(clock.now()),
      }),
    ).rejects.toThrow();
  });

  it('refuses tokens it did not sign: another key under a known key id, HS256, none, another audience', async () => {
    const { accessToken } = await signIn(t.app, 'ADMIN');
    const kid = kidOf(accessToken) as string;
    const claims = decodeJwt(accessToken);
    const foreign = await generateKeyPair('ES256');
    const impostor = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'ES256', kid })
      .sign(foreign.privateKey);
    const hmac = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256', kid })
      .sign(new TextEncoder().encode('a secret anybody could guess'));
    const unsigned = new UnsecuredJWT(claims).encode();
    for (const token of [impostor, hmac, unsigned]) {
      const res = await get('/api/rest/country', token);
      expect(res.status).toBe(401);
      expect(res.headers[TOKEN_HEADERS.action]).toBe('logout');
    }
    expect((await get('/api/rest/country', accessToken)).status).toBe(200);
  });

  it('rotates without signing anybody out, and refuses a token of a removed key', async () => {
    const before = await signIn(t.app, 'ADMIN');
    const oldKid = kidOf(before.accessToken);
    const newKid = await t.app.signingKeys.rotate();
    expect(newKid).not.toBe(oldKid);
    // The token signed before the rotation still works; new ones carry the new key.
    expect((await get('/api/rest/country', before.accessToken)).status).toBe(200);
    const after = await signIn(t.app, 'AUTORIZADOR');
    expect(kidOf(after.accessToken)).toBe(newKid);
    expect((await jwks()).keys.map((key) => key.kid)).toEqual([newKid, oldKid]);
    // Once every token of the old key has expired, the key is gone: from the JWKS and for verifying.
    clock.advance(21 * MINUTE);
    expect((await jwks()).keys.map((key) => key.kid)).toEqual([newKid]);
    const signOut = await call(t.app, {
      method: 'POST',
      url: '/api/accesskey/expiretoken',
      token: before.accessToken,
    });
    expect(signOut.status).toBe(401);
    const rows = await t.app.database.db.selectFrom('auth_signing_key').select('Kid').execute();
    expect(rows.map((row) => row.Kid)).toEqual([newKid]);
  });

  it('replaces the signing key when it is due, by itself', async () => {
    const first = kidOf((await signIn(t.app, 'ADMIN')).accessToken);
    clock.advance(25 * 60 * MINUTE);
    const second = kidOf((await signIn(t.app, 'ADMIN')).accessToken);
    expect(second).not.toBe(first);
    expect((await jwks()).keys[0].kid).toBe(second);
  });
});
