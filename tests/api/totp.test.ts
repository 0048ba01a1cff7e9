import { Secret, TOTP } from 'otpauth';
import { describe, expect, it } from 'vitest';
import { AUTH_TABLES } from '../../src/server/auth/tables.js';
import { type CallOptions, call, listUrl, signIn } from '../support/app.js';
import { authenticate, freshAddress, MINUTE, testClock, unlockUser } from '../support/auth.js';
import { DIALECTS } from '../support/databases.js';
import { world } from '../support/world.js';

const PASSWORD = 'Minera#Segura24';
const STEP = 30_000;

describe.each(DIALECTS)('second factor by authenticator app on %s', (dialect) => {
  let admin: string;
  const clock = testClock();
  const ids: Record<string, number> = {};
  const api = async (options: CallOptions) => {
    const res = await call(w.app, { token: admin, ...options });
    if (res.status !== 401) return res;
    admin = (await signIn(w.app, 'ADMIN')).accessToken;
    return call(w.app, { token: admin, ...options });
  };

  /** The code the user's app shows at the test clock's time (offset in steps). */
  const codeOf = (secret: string, steps = 0) =>
    new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' }).generate({
      timestamp: clock.now() + steps * STEP,
    });
  const post = (url: string, payload: object, token?: string) =>
    call(w.app, { method: 'POST', url, payload, token, remoteAddress: freshAddress() });
  const validate = (username: string, codigo: string) =>
    post('/api/usuario/validatetotp', { username, codigo });

  async function makeUser(IdUsuario: string, fields: Record<string, unknown> = {}) {
    const created = await api({
      method: 'POST',
      url: '/api/rest/user',
      payload: {
        IdUsuario,
        Nombre: 'PRUEBA',
        Apellido: 'FACTOR',
        Correo: `${IdUsuario.toLowerCase()}@minandes.com.pe`,
        PrimeraClaveCambiada: 'S',
        ...fields,
      },
    });
    expect(created.status).toBe(201);
    await w.app.auth.passwords.initialPassword(IdUsuario, PASSWORD, 'S');
    const assigned = await api({
      method: 'POST',
      url: '/api/rest/user-profile',
      payload: { IdUsuario, IdPerfil: ids.authoriser, IdDivision: ids.division },
    });
    expect(assigned.status).toBe(201);
  }

  /** A session with a profile from a login response that carries tokens. */
  async function session(login: {
    accessToken: string;
    division: Array<{ IdPerfil: number; IdDivision: number }>;
  }) {
    const chosen = login.division[0];
    const res = await post(
      '/api/usuario/refreshTokenbyperfil',
      { idPerfil: chosen.IdPerfil, idDivision: chosen.IdDivision },
      login.accessToken,
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.result.accessToken as string;
  }

  /** Enrols a signed-in user from the security page: the secret and the recovery codes. */
  async function enrol(token: string) {
    const offered = await post('/api/SeguridadSegundoFactor/iniciar', {}, token);
    expect(offered.status, JSON.stringify(offered.body)).toBe(200);
    const { secreto } = offered.body.result as { secreto: string };
    const confirmed = await post('/api/SeguridadSegundoFactor/confirmar', { codigo: codeOf(secreto) }, token);
    expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200);
    return { secreto, codes: confirmed.body.result.codigosRecuperacion as string[] };
  }

  const w = world(dialect, {
    auth: { now: clock.now },
    users: { admin: 'ADMIN' },
    ready: async () => {
      admin = w.signedIn.admin.accessToken;
      const find = async (resource: string, filter: object) =>
        (await api({ method: 'GET', url: listUrl(resource, { filter }) })).body[0].id as number;
      ids.authoriser = await find('profile', { q: 'AUTORIZADOR' });
      ids.division = await find('division', { q: 'SAN GABRIEL' });
    },
  });

  it('enrols from the security page: the secret once, a wrong confirmation changes nothing, ten recovery codes kept as hashes', async () => {
    await makeUser('FACTORUNO');
    const token = (await signIn(w.app, 'FACTORUNO', { password: PASSWORD })).accessToken;
    const before = await call(w.app, { method: 'GET', url: '/api/SeguridadSegundoFactor/estado', token });
    expect(before.body.result).toEqual({ configuracion: 'O', activo: false, codigosRestantes: 0 });

    const offered = await post('/api/SeguridadSegundoFactor/iniciar', {}, token);
    expect(offered.status).toBe(200);
    const { secreto, uri } = offered.body.result as { secreto: string; uri: string };
    expect(secreto).toMatch(/^[A-Z2-7]{32}$/);
    expect(uri).toMatch(/^otpauth:\/\/totp\/Acredita:FACTORUNO\?/);
    expect(new URL(uri).searchParams.get('secret')).toBe(secreto);

    const wrong = await post('/api/SeguridadSegundoFactor/confirmar', { codigo: '000000' }, token);
    expect(wrong.status).toBe(400);
    expect(wrong.body.messageKey).toBe('totp.confirmInvalid');
    const still = await call(w.app, { method: 'GET', url: '/api/SeguridadSegundoFactor/estado', token });
    expect(still.body.result.activo).toBe(false);
    expect(await w.app.auth.authenticator.enrolled('FACTORUNO')).toBe(false);

    const confirmed = await post('/api/SeguridadSegundoFactor/confirmar', { codigo: codeOf(secreto) }, token);
    expect(confirmed.status).toBe(200);
    const codes = confirmed.body.result.codigosRecuperacion as string[];
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    const after = await call(w.app, { method: 'GET', url: '/api/SeguridadSegundoFactor/estado', token });
    expect(after.body.result).toEqual({ configuracion: 'O', activo: true, codigosRestantes: 10 });
    expect(JSON.stringify(after.body)).not.toContain(secreto);
    const again = await post('/api/SeguridadSegundoFactor/iniciar', {}, token);
    expect(again.status).toBe(409);
    expect(again.body.messageKey).toBe('totp.alreadyEnrolled');

    // At rest: the secret encrypted, the recovery codes as keyed hashes.
    const rows = JSON.stringify([
      await w.app.database.db
        .selectFrom(AUTH_TABLES.totp)
        .selectAll()
        .where('IdUsuario', '=', 'FACTORUNO')
        .execute(),
      await w.app.database.db
        .selectFrom(AUTH_TABLES.totpRecovery)
        .selectAll()
        .where('IdUsuario', '=', 'FACTORUNO')
        .execute(),
    ]);
    expect(rows).not.toContain(secreto);
    for (const code of codes) expect(rows).not.toContain(code.replace('-', ''));

    // Signing in: the app's code instead of tokens; the code of the confirmation's step is spent.
    clock.advance(MINUTE);
    const login = await authenticate(w.app, 'FACTORUNO', PASSWORD);
    expect(login.status).toBe(200);
    expect(login.body.result).toMatchObject({
      autenticadorApp: 'S',
      dobleAutenticacion: 'N',
      accessToken: '',
      refreshToken: '',
    });
    const code = codeOf(secreto);
    const ok = await validate('FACTORUNO', code);
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.result.accessToken).toMatch(/^ey/);
    await session(ok.body.result);

    // The same code again, in a new sign-in, and the previous step's: refused as used.
    await authenticate(w.app, 'FACTORUNO', PASSWORD);
    const replayed = await validate('FACTORUNO', code);
    expect(replayed.status).toBe(400);
    expect(replayed.body.messageKey).toBe('login.totp.replayed');
    expect((await validate('FACTORUNO', codeOf(secreto, -1))).body.messageKey).toBe('login.totp.replayed');
    // The next step's code (a clock a little ahead) is accepted, within the window.
    expect((await validate('FACTORUNO', codeOf(secreto, 1))).status).toBe(200);

    // A recovery code works once.
    clock.advance(MINUTE);
    await authenticate(w.app, 'FACTORUNO', PASSWORD);
    const recovered = await validate('FACTORUNO', codes[0].toLowerCase());
    expect(recovered.status, JSON.stringify(recovered.body)).toBe(200);
    await authenticate(w.app, 'FACTORUNO', PASSWORD);
    const spent = await validate('FACTORUNO', codes[0]);
    expect(spent.status).toBe(400);
    expect(spent.body.messageKey).toBe('login.totp.spent');
    expect((await validate('FACTORUNO', codes[1])).status).toBe(200);
    const left = await call(w.app, { method: 'GET', url: '/api/SeguridadSegundoFactor/estado', token });
    expect(left.body.result.codigosRestantes).toBe(8);
    await unlockUser(w.app, 'FACTORUNO');
    // Nothing was sent but the new account's password: the app's codes travel by no message.
    const sent = w.t.mail.filter((m) => m.userId === 'FACTORUNO');
    expect(sent).toHaveLength(1);
    for (const text of [secreto, ...codes]) expect(JSON.stringify(sent)).not.toContain(text);
  });

  it('refuses the app’s step to a name unknown, not enrolled or not signing in, alike; and the password-only paths', async () => {
    clock.advance(MINUTE);
    await makeUser('FACTORDOS');
    const { secreto } = await enrol((await signIn(w.app, 'FACTORDOS', { password: PASSWORD })).accessToken);
    // No password given lately: not at the step.
    const early = await validate('FACTORDOS', codeOf(secreto, 1));
    expect(early.status).toBe(400);
    expect(early.body).toMatchObject({ messageKey: 'login.totp.notInStep', params: { codigo: '08' } });
    const unknown = await validate('NADIEMAS', '123456');
    expect(unknown.body).toEqual(early.body);
    const notEnrolled = await validate('AUTORIZADOR', '123456');
    expect(notEnrolled.body).toEqual(early.body);
    // The step lasts ten minutes after the password.
    await authenticate(w.app, 'FACTORDOS', PASSWORD);
    clock.advance(11 * MINUTE);
    expect((await validate('FACTORDOS', codeOf(secreto))).body.messageKey).toBe('login.totp.notInStep');
    // Password and profile at once, or an unlock without its ticket, skip no factor.
    const again = await post('/api/usuario/refreshTokenPassword', {
      username: 'FACTORDOS',
      password: PASSWORD,
      idPerfil: ids.authoriser,
      idDivision: ids.division,
    });
    expect(again.body.params?.codigo).toBe('08');
    const unlocked = await post('/api/usuario/unlock', {
      idUsuario: 'FACTORDOS',
      password: PASSWORD,
      idPerfil: ids.authoriser,
      idDivision: ids.division,
    });
    expect(unlocked.body.params?.codigo).toBe('08');
  });

  it('locks the user after the setting’s wrong codes (09), like wrong e-mail codes', async () => {
    clock.advance(MINUTE);
    await makeUser('FACTORTRES');
    const { secreto } = await enrol((await signIn(w.app, 'FACTORTRES', { password: PASSWORD })).accessToken);
    clock.advance(MINUTE);
    await authenticate(w.app, 'FACTORTRES', PASSWORD);
    const right = codeOf(secreto);
    const wrong = right === '000000' ? '000001' : '000000';
    // The standard setting allows 5 attempts: four wrong codes are refused, the fifth locks.
    for (let i = 0; i < 4; i++) {
      const res = await validate('FACTORTRES', wrong);
      expect(res.status).toBe(400);
      expect(res.body.messageKey).toBe('login.totp.invalid');
    }
    const locked = await validate('FACTORTRES', wrong);
    expect(locked.status).toBe(423);
    expect(locked.body.params).toEqual({ codigo: '09', minutos: 15 });
    // Locked: not even the right code, nor the password.
    expect((await validate('FACTORTRES', right)).body.params?.codigo).not.toBe(undefined);
    expect((await authenticate(w.app, 'FACTORTRES', PASSWORD)).body.params?.codigo).toBe('09');
    clock.advance(16 * MINUTE);
    await authenticate(w.app, 'FACTORTRES', PASSWORD);
    expect((await validate('FACTORTRES', codeOf(secreto))).status).toBe(200);
  });

  it('turns off with a current code, then signs in with the password alone', async () => {
    clock.advance(MINUTE);
    await makeUser('FACTORCUATRO');
    const { secreto, codes } = await enrol(
      (await signIn(w.app, 'FACTORCUATRO', { password: PASSWORD })).accessToken,
    );
    clock.advance(MINUTE);
    await authenticate(w.app, 'FACTORCUATRO', PASSWORD);
    const token = await session((await validate('FACTORCUATRO', codeOf(secreto))).body.result);
    clock.advance(STEP);
    const wrong = await post('/api/SeguridadSegundoFactor/desactivar', { codigo: '12345' }, token);
    expect(wrong.status).toBe(400);
    // A recovery code does not turn it off: the app's current code does.
    const byRecovery = await post('/api/SeguridadSegundoFactor/desactivar', { codigo: codes[0] }, token);
    expect(byRecovery.status).toBe(400);
    expect(await w.app.auth.authenticator.enrolled('FACTORCUATRO')).toBe(true);
    const off = await post('/api/SeguridadSegundoFactor/desactivar', { codigo: codeOf(secreto) }, token);
    expect(off.status, JSON.stringify(off.body)).toBe(200);
    const status = await call(w.app, { method: 'GET', url: '/api/SeguridadSegundoFactor/estado', token });
    expect(status.body.result).toEqual({ configuracion: 'O', activo: false, codigosRestantes: 0 });
    const login = await authenticate(w.app, 'FACTORCUATRO', PASSWORD);
    expect(login.body.result.autenticadorApp).toBe('N');
    expect(login.body.result.accessToken).toMatch(/^ey/);
    const notEnrolled = await post(
      '/api/SeguridadSegundoFactor/desactivar',
      { codigo: codeOf(secreto) },
      token,
    );
    expect(notEnrolled.status).toBe(409);
  });

  it('a setting S takes a user without the app to its enrolment right after the password, before any session', async () => {
    clock.advance(MINUTE);
    const created = await api({
      method: 'POST',
      url: '/api/rest/login-setting',
      payload: {
        Descripcion: 'APLICACIÓN AUTENTICADORA OBLIGATORIA',
        AutenticadorApp: 'S',
        NumeroIntentos: 5,
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    await makeUser('FACTORCINCO', {
      IdConfiguracionLogeo: created.body.IdConfiguracionLogeo ?? created.body.id,
    });
    const login = await authenticate(w.app, 'FACTORCINCO', PASSWORD);
    expect(login.status).toBe(200);
    const answer = login.body.result;
    expect(answer).toMatchObject({ enrolarAutenticador: 'S', accessToken: '', refreshToken: '' });
    expect(answer.ticketAutenticador).toMatch(/^[\w-]{20,}$/);
    // No session by other paths meanwhile.
    const other = await post('/api/usuario/refreshTokenPassword', {
      username: 'FACTORCINCO',
      password: PASSWORD,
      idPerfil: ids.authoriser,
      idDivision: ids.division,
    });
    expect(other.body.params?.codigo).toBe('08');

    const forged = await post('/api/usuario/enrolartotp', {
      username: 'FACTORCINCO',
      ticket: 'x'.repeat(32),
    });
    expect(forged.status).toBe(400);
    expect(forged.body.messageKey).toBe('login.totp.notInStep');
    const offered = await post('/api/usuario/enrolartotp', {
      username: 'FACTORCINCO',
      ticket: answer.ticketAutenticador,
    });
    expect(offered.status, JSON.stringify(offered.body)).toBe(200);
    const { secreto } = offered.body.result as { secreto: string };
    const wrong = await post('/api/usuario/confirmartotp', {
      username: 'FACTORCINCO',
      ticket: answer.ticketAutenticador,
      codigo: codeOf(secreto) === '000000' ? '000001' : '000000',
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.messageKey).toBe('totp.confirmInvalid');
    expect(await w.app.auth.authenticator.enrolled('FACTORCINCO')).toBe(false);
    const confirmed = await post('/api/usuario/confirmartotp', {
      username: 'FACTORCINCO',
      ticket: answer.ticketAutenticador,
      codigo: codeOf(secreto),
    });
    expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200);
    expect(confirmed.body.result.accessToken).toMatch(/^ey/);
    expect(confirmed.body.result.codigosRecuperacion).toHaveLength(10);
    const token = await session(confirmed.body.result);
    // The ticket is spent.
    const reused = await post('/api/usuario/enrolartotp', {
      username: 'FACTORCINCO',
      ticket: answer.ticketAutenticador,
    });
    expect(reused.status).toBe(400);

    // Required: not turned off; the next sign-in asks for the app's code.
    clock.advance(STEP);
    const off = await post('/api/SeguridadSegundoFactor/desactivar', { codigo: codeOf(secreto) }, token);
    expect(off.status).toBe(403);
    expect(off.body.messageKey).toBe('totp.required');
    clock.advance(MINUTE);
    const next = await authenticate(w.app, 'FACTORCINCO', PASSWORD);
    expect(next.body.result).toMatchObject({
      autenticadorApp: 'S',
      enrolarAutenticador: 'N',
      accessToken: '',
    });
    expect((await validate('FACTORCINCO', codeOf(secreto))).status).toBe(200);
  });

  it('refuses bad input with its message and never a 5xx', async () => {
    for (const [url, payload] of [
      ['/api/usuario/validatetotp', { username: 'FACTORUNO' }],
      ['/api/usuario/validatetotp', { username: 'FACTORUNO', codigo: 'x'.repeat(21) }],
      ['/api/usuario/validatetotp', { username: '', codigo: '123456' }],
      ['/api/usuario/enrolartotp', { username: 'FACTORUNO' }],
      ['/api/usuario/confirmartotp', { username: 'FACTORUNO', ticket: 'nada', codigo: '123456' }],
      ['/api/usuario/validatetotp', { username: 'FACTORUNO', codigo: 123456 }],
    ] as const) {
      const res = await post(url, payload);
      expect(res.status, `${url} ${JSON.stringify(payload)}`).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
      expect(res.body.messageKey ?? res.body.code).toBeTruthy();
    }
    const noSession = await post('/api/SeguridadSegundoFactor/iniciar', {});
    expect(noSession.status).toBe(401);
  });
});
