import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD } from '../../src/server/demo/security.js';
import { type CallOptions, call, listUrl, signIn, startTestApp, type TestApp } from '../support/app.js';
import {
  authenticate,
  codeIn,
  freshAddress,
  lastMessage,
  MINUTE,
  testClock,
  unlockUser,
} from '../support/auth.js';
import { DIALECTS } from '../support/databases.js';

const PASSWORD = 'Minera#Segura24';

describe.each(DIALECTS)('sign-in outcomes on %s', (dialect) => {
  let t: TestApp;
  let admin: string;
  const clock = testClock();
  // The tests move the clock past the administrator's token: sign in again when it has run out.
  const api = async (options: CallOptions) => {
    const res = await call(t.app, { token: admin, ...options });
    if (res.status !== 401) return res;
    admin = (await signIn(t.app, 'ADMIN')).accessToken;
    return call(t.app, { token: admin, ...options });
  };
  const ids: Record<string, number> = {};

  /** A user made through the API (as an administrator would), with a known password. */
  async function makeUser(
    IdUsuario: string,
    fields: Record<string, unknown> = {},
    assignment: Record<string, unknown> | null = { IdPerfil: ids.authoriser, IdDivision: ids.division },
  ) {
    const created = await api({
      method: 'POST',
      url: '/api/rest/user',
      payload: {
        IdUsuario,
        Nombre: 'PRUEBA',
        Apellido: 'USUARIO',
        Correo: `${IdUsuario.toLowerCase()}@minandes.com.pe`,
        Telefono: '999888777',
        PrimeraClaveCambiada: 'S',
        ...fields,
      },
    });
    expect(created.status).toBe(201);
    await t.app.auth.passwords.initialPassword(IdUsuario, PASSWORD, 'S');
    if (assignment) {
      const res = await api({
        method: 'POST',
        url: '/api/rest/user-profile',
        payload: { IdUsuario, ...assignment },
      });
      expect(res.status).toBe(201);
    }
  }

  const refusal = async (username: string, codigo: string, password = PASSWORD) => {
    const res = await authenticate(t.app, username, password);
    expect(res.body.params?.codigo, JSON.stringify(res.body)).toBe(codigo);
    expect(res.body.messageKey).toBe(`login.messages.${codigo}`);
    return res;
  };

  beforeAll(async () => {
    t = await startTestApp(dialect, {
      auth: {
        now: clock.now,
        // A setting may choose the phone only with an SMS centre (06's test); its user has no
        // phone, so this one is never reached.
        smppUrl: 'smpp://acredita:clave@127.0.0.1:9',
      },
    });
    admin = (await signIn(t.app, 'ADMIN')).accessToken;
    const find = async (resource: string, filter: object) =>
      (await api({ method: 'GET', url: listUrl(resource, { filter }) })).body[0].id as number;
    ids.authoriser = await find('profile', { q: 'AUTORIZADOR' });
    ids.division = await find('division', { q: 'SAN GABRIEL' });
    ids.company = await find('company', { q: 'SERMIPAC' });
    ids.doubleSetting = await find('login-setting', { DobleAutenticacion: 'S' });
  });
  afterAll(async () => {
    await t?.close();
  });
  it('answers the login response of spec section 3 on success', async () => {
    const res = await authenticate(t.app, 'autorizador');
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.result).sort()).toEqual(
      expect.arrayContaining(
        [
          'username',
          'firstName',
          'lastName',
          'fullName',
          'accessToken',
          'refreshToken',
          'cambiarClaveCaducada',
          'dobleAutenticacion',
          'flagTelefono',
          'primeraClaveCambiada',
          'minutosCaduca',
          'longitudClave',
          'nivelSeguridadClave',
          'perfil',
          'division',
          'contratista',
          'responsableContratista',
          'idCompania',
          'compania',
          'rolAcreditacion',
        ].sort(),
      ),
    );
    expect(res.body.result).toMatchObject({
      username: 'AUTORIZADOR',
      fullName: 'JORGE LUIS CHÁVEZ NINA',
      dobleAutenticacion: 'N',
      cambiarClaveCaducada: 'N',
      primeraClaveCambiada: 'S',
      minutosCaduca: 15,
      longitudClave: 8,
      nivelSeguridadClave: 'A',
      contratista: 'N',
      rolAcreditacion: 'AUTORIZADOR DE ACREDITACIÓN',
    });
    expect(res.body.result.division).toHaveLength(2);
    expect(res.body.result.accessToken).toMatch(/^ey/);
  });

  it('01: wrong password and unknown user read the same', async () => {
    const wrong = await refusal('AUTORIZADOR', '01', 'Equivocada#1');
    expect(wrong.status).toBe(401);
    expect(wrong.body.message).toBe('Incorrect username or password.');
    const unknown = await refusal('NADIE', '01');
    expect(unknown.status).toBe(401);
    expect(unknown.body.message).toBe(wrong.body.message);
    await unlockUser(t.app, 'AUTORIZADOR');
  });

  it('02: a user without any profile', async () => {
    await makeUser('SINPERFIL', {}, null);
    expect((await refusal('SINPERFIL', '02')).status).toBe(403);
  });

  it('03: a user whose only profile is in an inactive division', async () => {
    const division = await api({
      method: 'POST',
      url: '/api/rest/division',
      payload: { Division: 'DIVISIÓN CERRADA', IdPais: 'PE', Activo: 'N' },
    });
    await makeUser('SINDIVISION', {}, { IdPerfil: ids.authoriser, IdDivision: division.body.id });
    await refusal('SINDIVISION', '03');
  });

  it('04: locked after the setting’s failed attempts, for its minutes, and unlocked by itself after them', async () => {
    await makeUser('INTENTOS');
    for (let i = 0; i < 4; i++) await refusal('INTENTOS', '01', 'Equivocada#1');
    const locked = await refusal('INTENTOS', '04', 'Equivocada#1');
    expect(locked.status).toBe(423);
    expect(locked.body.params.minutos).toBe(15);
    expect(locked.body.message).toBe('User blocked, try again within 15 minutes.');
    // Locked means locked, even with the right password.
    const still = await refusal('INTENTOS', '04');
    expect(still.body.params.minutos).toBe(15);
    const user = await api({ method: 'GET', url: '/api/rest/user/INTENTOS' });
    expect(user.body).toMatchObject({ Bloqueado: 'S' });
    clock.advance(10 * MINUTE);
    expect((await refusal('INTENTOS', '04')).body.params.minutos).toBe(5);
    clock.advance(5 * MINUTE + 1000);
    expect((await authenticate(t.app, 'INTENTOS', PASSWORD)).status).toBe(200);
    expect((await api({ method: 'GET', url: '/api/rest/user/INTENTOS' })).body.Bloqueado).toBe('N');
  });

  it('05 and 06: double authentication needs an e-mail or a phone to send the code to', async () => {
    await makeUser('SINCORREO', { IdConfiguracionLogeo: ids.doubleSetting });
    await t.app.database.db
      .updateTable('security_user')
      .set({ Correo: null })
      .where('IdUsuario', '=', 'SINCORREO')
      .execute();
    await refusal('SINCORREO', '05');

    const phone = await api({
      method: 'POST',
      url: '/api/rest/login-setting',
      payload: { Descripcion: 'CÓDIGO POR TELÉFONO', DobleAutenticacion: 'S', NotificarPor: 'T' },
    });
    expect(phone.status).toBe(201);
    await makeUser('SINTELEFONO', { IdConfiguracionLogeo: phone.body.id });
    await t.app.database.db
      .updateTable('security_user')
      .set({ Telefono: null })
      .where('IdUsuario', '=', 'SINTELEFONO')
      .execute();
    await refusal('SINTELEFONO', '06');
  });

  it('08 and 09: a code confirmation without a code, and the lock after wrong codes', async () => {
    await makeUser('CODIGOS', { IdConfiguracionLogeo: ids.doubleSetting });
    const pending = await authenticate(t.app, 'CODIGOS', PASSWORD);
    expect(pending.status).toBe(200);
    expect(pending.body.result).toMatchObject({ dobleAutenticacion: 'S', accessToken: '', refreshToken: '' });
    const validate = (codigo: string) =>
      call(t.app, {
        method: 'POST',
        url: '/api/usuario/validatelogin',
        remoteAddress: freshAddress(),
        payload: { username: 'CODIGOS', codigo },
      });

    const missing = await validate('');
    expect(missing.status).toBe(400);
    expect(missing.body.params.codigo).toBe('08');

    // The double-authentication setting allows 3 attempts: two wrong codes are refused, the third locks.
    expect((await validate('0000')).body.messageKey).toBe('login.messages.codeInvalid');
    expect((await validate('0001')).body.messageKey).toBe('login.messages.codeInvalid');
    const locked = await validate('0002');
    expect(locked.status).toBe(423);
    expect(locked.body.params).toEqual({ codigo: '09', minutos: 30 });
    expect((await refusal('CODIGOS', '09')).body.params.minutos).toBe(30);
    clock.advance(31 * MINUTE);
  });

  it('10: an inactive user', async () => {
    await makeUser('INACTIVO', { Activo: 'N' });
    await refusal('INACTIVO', '10');
  });

  it('11 and 12: a contractor needs a company on a profile, and a company still active', async () => {
    await makeUser('CONTRATISTA1', { Contratista: 'N' });
    // The user becomes a contractor after the assignment was made without a company.
    await t.app.database.db
      .updateTable('security_user')
      .set({ Contratista: 'S' })
      .where('IdUsuario', '=', 'CONTRATISTA1')
      .execute();
    await refusal('CONTRATISTA1', '11');

    const company = await api({
      method: 'POST',
      url: '/api/rest/company',
      payload: {
        IdTipoDocumento: (
          await api({ method: 'GET', url: listUrl('document-type', { filter: { q: 'RUC' } }) })
        ).body[0].id,
        Documento: '20999888772',
        Compania: 'CONTRATISTA DADA DE BAJA S.A.C.',
        IdCategoriaCompania: (await api({ method: 'GET', url: listUrl('company-category') })).body[0].id,
        IdPais: 'PE',
        Activo: 'N',
      },
    });
    expect(company.status).toBe(201);
    await makeUser(
      'CONTRATISTA2',
      { Contratista: 'S' },
      { IdPerfil: ids.authoriser, IdDivision: ids.division, IdCompania: company.body.id },
    );
    await refusal('CONTRATISTA2', '12');
  });

  it('00: an unexpected failure reads as a system error', async () => {
    const { loginError } = await import('../../src/server/auth/login-errors.js');
    const error = loginError('00');
    expect(error).toMatchObject({ status: 500, messageKey: 'login.messages.00', params: { codigo: '00' } });
  });

  it('refuses to assign a profile without a company to a contractor user', async () => {
    await makeUser('CONTRATISTA3', { Contratista: 'S' }, null);
    const res = await api({
      method: 'POST',
      url: '/api/rest/user-profile',
      payload: { IdUsuario: 'CONTRATISTA3', IdPerfil: ids.authoriser, IdDivision: ids.division },
    });
    expect(res.status).toBe(400);
    expect(res.body.errors.IdCompania.messageKey).toBe('validation.contractorCompany');
  });

  it('throttles sign-in by user name and by address before computing any hash', async () => {
    const address = freshAddress();
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) {
      statuses.push((await authenticate(t.app, `INVENTADO${i % 2}`, 'x', address)).status);
    }
    // 30 a minute per address, 10 per user name: user names run out first here.
    expect(statuses.slice(0, 10).every((s) => s === 401)).toBe(true);
    const perUser = [];
    for (let i = 0; i < 11; i++) perUser.push((await authenticate(t.app, 'ACOSADO', 'x')).status);
    expect(perUser.slice(0, 10).every((s) => s === 401)).toBe(true);
    expect(perUser[10]).toBe(429);
    const perAddress = [];
    const busy = freshAddress();
    for (let i = 0; i < 31; i++) perAddress.push((await authenticate(t.app, `OTRO${i}`, 'x', busy)).status);
    expect(perAddress[30]).toBe(429);
    const throttled = await authenticate(t.app, 'AUTORIZADOR', DEMO_PASSWORD, busy);
    expect(throttled.status).toBe(429);
    expect(throttled.body.code).toBe('TOO_MANY_REQUESTS');
    clock.advance(MINUTE + 1);
    expect((await authenticate(t.app, 'AUTORIZADOR', DEMO_PASSWORD, busy)).status).toBe(200);
  });

  it('sends the double-authentication code by e-mail and signs in with it, once', async () => {
    const res = await authenticate(t.app, 'SUPERVISOR', DEMO_PASSWORD);
    expect(res.body.result.dobleAutenticacion).toBe('S');
    const message = await lastMessage(t.app, 'SUPERVISOR');
    expect(message).toMatchObject({ Canal: 'C', Destinatario: 'supervisor@minandes.com.pe' });
    const code = codeIn(message.Cuerpo, 4);
    const ok = await call(t.app, {
      method: 'POST',
      url: '/api/usuario/validatelogin',
      payload: { username: 'supervisor', codigo: code },
    });
    expect(ok.status).toBe(200);
    expect(ok.body.result.accessToken).toMatch(/^ey/);
    const again = await call(t.app, {
      method: 'POST',
      url: '/api/usuario/validatelogin',
      payload: { username: 'supervisor', codigo: code },
    });
    expect(again.status).toBe(400);
    expect(again.body.messageKey).toBe('login.messages.codeInvalid');
  });

  it('refuses a code after its ten minutes, and resends a new one', async () => {
    await unlockUser(t.app, 'SUPERVISOR');
    await authenticate(t.app, 'SUPERVISOR', DEMO_PASSWORD);
    const first = codeIn((await lastMessage(t.app, 'SUPERVISOR')).Cuerpo, 4);
    clock.advance(10 * MINUTE + 1);
    const late = await call(t.app, {
      method: 'POST',
      url: '/api/usuario/validatelogin',
      payload: { username: 'SUPERVISOR', codigo: first },
    });
    expect(late.body.messageKey).toBe('login.messages.codeInvalid');
    await unlockUser(t.app, 'SUPERVISOR');
    await authenticate(t.app, 'SUPERVISOR', DEMO_PASSWORD);
    const resent = await call(t.app, {
      method: 'POST',
      url: '/api/usuario/resendcode',
      payload: { username: 'SUPERVISOR' },
    });
    expect(resent.status).toBe(200);
    const second = codeIn((await lastMessage(t.app, 'SUPERVISOR')).Cuerpo, 4);
    const ok = await call(t.app, {
      method: 'POST',
      url: '/api/usuario/validatelogin',
      payload: { username: 'SUPERVISOR', codigo: second },
    });
    expect(ok.status).toBe(200);
  });

  it('a code allows three wrong tries, then is spent even for the right digits', async () => {
    await unlockUser(t.app, 'SUPERVISOR');
    const codes = t.app.auth.codes;
    const code = await codes.issue('SUPERVISOR', 'login');
    const wrong = code === '0000' ? '1111' : '0000';
    expect(await codes.check('SUPERVISOR', 'login', wrong)).toBe('invalid');
    expect(await codes.check('SUPERVISOR', 'login', wrong)).toBe('invalid');
    expect(await codes.check('SUPERVISOR', 'login', wrong)).toBe('exhausted');
    expect(await codes.check('SUPERVISOR', 'login', code)).toBe('missing');
    const recovery = await codes.issue('SUPERVISOR', 'recovery');
    expect(recovery).toMatch(/^\d{6}$/);
  });

  // Last: it moves the clock three months on.
  it('10: a user left unused longer than the setting allows is inactivated', async () => {
    await makeUser('DORMIDO');
    expect((await authenticate(t.app, 'DORMIDO', PASSWORD)).status).toBe(200);
    clock.advance(91 * 24 * 60 * MINUTE);
    await refusal('DORMIDO', '10');
    const row = await t.app.database.db
      .selectFrom('security_user')
      .select('Activo')
      .where('IdUsuario', '=', 'DORMIDO')
      .executeTakeFirst();
    expect(row?.Activo).toBe('N');
  });
});
