import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD } from '../../src/server/demo/security.js';
import { call, startTestApp, type TestApp } from '../support/app.js';
import { freshAddress, MINUTE, testClock, unlockUser } from '../support/auth.js';
import { answer, fetchChallenge, solvedToken } from '../support/challenge.js';
import { DIALECTS } from '../support/databases.js';

/** A small challenge, so the suite solves dozens quickly; the doubling is the same. */
const TRIES = 60;

describe.each(DIALECTS)('the sign-in challenge on %s', (dialect) => {
  let t: TestApp;
  const clock = testClock();
  beforeAll(async () => {
    t = await startTestApp(dialect, { auth: { now: clock.now, challenge: { tries: TRIES } } });
  });
  afterAll(async () => {
    await t?.close();
  });

  const sessions = async () =>
    Number(
      (
        await t.app.database.db
          .selectFrom('auth_session')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const authenticate = (
    tokenClient: string | undefined,
    { username = 'AUTORIZADOR', password = DEMO_PASSWORD, remoteAddress = freshAddress() } = {},
  ) =>
    call(t.app, {
      method: 'POST',
      url: '/api/usuario/authenticate',
      remoteAddress,
      payload: { username, password, ...(tokenClient === undefined ? {} : { tokenClient }) },
    });
  const refusedWith07 = (res: Awaited<ReturnType<typeof authenticate>>) => {
    expect(res.status, JSON.stringify(res.body)).toBe(403);
    expect(res.body.params.codigo).toBe('07');
    expect(res.body.messageKey).toBe('login.messages.challenge');
  };

  it('issues an ALTCHA challenge whose answer, found the way the browser finds it, signs in once', async () => {
    const challenge = await fetchChallenge(t.app);
    expect(challenge.parameters).toMatchObject({ algorithm: 'PBKDF2/SHA-256', cost: 1000 });
    expect(challenge.parameters.data).toMatchObject({ lvl: 0 });
    expect(challenge.signature).toMatch(/^[0-9a-f]{64}$/);
    const token = await answer(challenge);
    const res = await authenticate(token);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.result.accessToken).not.toBe('');
    // The same answer again: spent.
    const before = await sessions();
    refusedWith07(await authenticate(token));
    expect(await sessions()).toBe(before);
  });

  it('refuses a missing, malformed, forged or tampered answer with 07, and writes no session', async () => {
    const before = await sessions();
    // Each under a name of its own: a failure makes the next answers for that name harder.
    let n = 0;
    const attempt = (token: string | undefined) => authenticate(token, { username: `NADIE${++n}` });
    refusedWith07(await attempt(undefined));
    refusedWith07(await attempt(''));
    refusedWith07(await attempt('not base64 json'));
    refusedWith07(
      await attempt(Buffer.from('{"challenge":null,"solution":null,"test":true}').toString('base64')),
    );
    const challenge = await fetchChallenge(t.app);
    const solved = JSON.parse(Buffer.from(await answer(challenge), 'base64').toString());
    const forge = (change: (payload: typeof solved) => void) => {
      const copy = structuredClone(solved);
      change(copy);
      return Buffer.from(JSON.stringify(copy)).toString('base64');
    };
    // A wrong key for the right counter; a later expiry; an easier level; a signature of our own.
    refusedWith07(await attempt(forge((p) => (p.solution.derivedKey = '00'.repeat(32)))));
    refusedWith07(await attempt(forge((p) => (p.challenge.parameters.data.exp += 3600))));
    refusedWith07(await attempt(forge((p) => (p.challenge.parameters.data.lvl = -1))));
    refusedWith07(await attempt(forge((p) => (p.challenge.signature = 'ab'.repeat(32)))));
    expect(await sessions()).toBe(before);
    // The genuine answer still works: none of those spent it.
    expect((await authenticate(await answer(challenge))).status).toBe(200);
  });

  it('refuses an answer past its ten minutes', async () => {
    const token = await solvedToken(t.app);
    clock.advance(11 * MINUTE);
    refusedWith07(await authenticate(token));
  });

  it('asks more work of an address and of a user name after failures, and a stale easy answer no longer passes', async () => {
    const address = freshAddress();
    const easy = await solvedToken(t.app, { usuario: 'SUPERVISOR', remoteAddress: address });
    for (let i = 0; i < 4; i++) {
      const token = await solvedToken(t.app, { usuario: 'SUPERVISOR', remoteAddress: address });
      const wrong = await authenticate(token, {
        username: 'SUPERVISOR',
        password: 'not the password',
        remoteAddress: address,
      });
      // Wrong password, then the lock it earns: failures either way.
      expect(['01', '04']).toContain(wrong.body.params.codigo);
    }
    await unlockUser(t.app, 'SUPERVISOR');
    // Three wrong passwords (the third locks; the fourth try meets the lock), two of them free:
    // the address's challenges now take twice the tries, whatever name it tries next.
    expect((await fetchChallenge(t.app, { remoteAddress: address })).parameters.data?.lvl).toBe(1);
    // Another address and name: untouched.
    expect((await fetchChallenge(t.app, { usuario: 'ADMIN' })).parameters.data?.lvl).toBe(0);
    // The answer fetched before the failures is too easy now for that name, from anywhere (and
    // that is one more failure of the name).
    refusedWith07(await authenticate(easy, { username: 'SUPERVISOR' }));
    const byName = await fetchChallenge(t.app, { usuario: 'SUPERVISOR' });
    expect(byName.parameters.data?.lvl).toBe(2);
    const res = await authenticate(await answer(byName), { username: 'SUPERVISOR' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    // After the failure window the work is back to a person's.
    clock.advance(16 * MINUTE);
    expect((await fetchChallenge(t.app, { usuario: 'SUPERVISOR' })).parameters.data?.lvl).toBe(0);
  });

  it('guards code resend, recovery and signing in again (the lock screen) as well', async () => {
    const post = (url: string, payload: object) => call(t.app, { method: 'POST', url, payload });
    const resend = { username: 'ADMIN' };
    refusedWith07(await post('/api/usuario/resendcode', resend));
    expect(
      (await post('/api/usuario/resendcode', { ...resend, tokenClient: await solvedToken(t.app) })).status,
    ).toBe(200);
    const recovery = { Usuario: 'ADMIN', Identificador: 'nobody@example.com' };
    refusedWith07(await post('/api/SeguridadCodigoAutenticacion/RecuperarClave', recovery));
    const mismatch = await post('/api/SeguridadCodigoAutenticacion/RecuperarClave', {
      ...recovery,
      tokenClient: await solvedToken(t.app),
    });
    expect(mismatch.status).toBe(400);
    expect(mismatch.body.messageKey).toBe('recovery.mismatch');
    const again = { username: 'ADMIN', password: DEMO_PASSWORD, idPerfil: 1 };
    refusedWith07(await post('/api/usuario/refreshTokenPassword', again));
    refusedWith07(
      await post('/api/usuario/unlock', { idUsuario: 'ADMIN', password: DEMO_PASSWORD, idPerfil: 1 }),
    );
  });
});

describe('the sign-in challenge turned off', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp('sqlite');
  });
  afterAll(async () => {
    await t?.close();
  });

  it('says so to the console, and signs in without an answer', async () => {
    const res = await call(t.app, { method: 'GET', url: '/api/auth/challenge' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ enabled: false });
    const signIn = await call(t.app, {
      method: 'POST',
      url: '/api/usuario/authenticate',
      payload: { username: 'ADMIN', password: DEMO_PASSWORD },
    });
    expect(signIn.status).toBe(200);
  });
});
