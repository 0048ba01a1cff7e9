import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SECRET_MASK } from '../../src/server/auth/notifier.js';
import { readConfig } from '../../src/server/config.js';
import { type CallOptions, call, listUrl, signIn, startTestApp, type TestApp } from '../support/app.js';
import { authenticate, codeIn, freshAddress } from '../support/auth.js';
import { DIALECTS } from '../support/databases.js';
import { type SmsCentre, startSmsCentre } from '../support/sms.js';

const PASSWORD = 'Minera#Segura24';

describe('the SMS centre settings', () => {
  it('reads SMPP_URL and SMPP_SOURCE, and refuses them malformed at start-up', () => {
    const config = readConfig({
      SMPP_URL: 'smpp://acredita:clave@sms.operador.pe:2775',
      SMPP_SOURCE: 'MINANDES',
    });
    expect(config).toMatchObject({
      smppUrl: 'smpp://acredita:clave@sms.operador.pe:2775',
      smppSource: 'MINANDES',
    });
    expect(readConfig({}).smppUrl).toBeUndefined();
    expect(() => readConfig({ SMPP_URL: 'http://sms.operador.pe' })).toThrow(/SMPP_URL/);
    expect(() => readConfig({ SMPP_URL: 'smpp://sms.operador.pe:2775' })).toThrow(/system id/);
    expect(() => readConfig({ SMPP_URL: 'smpp://a:b@h:1', SMPP_SOURCE: 'MINANDES PERU SAC' })).toThrow(
      /SMPP_SOURCE/,
    );
  });
});

describe.each(DIALECTS)('codes by SMS on %s', (dialect) => {
  let t: TestApp;
  /** The same product without an SMS centre. */
  let bare: TestApp;
  let centre: SmsCentre;
  let phoneSetting: number;
  const tokens = new Map<TestApp, string>();
  const ids: Record<string, number> = {};

  const api = async (app: TestApp, options: CallOptions) => {
    if (!tokens.has(app)) tokens.set(app, (await signIn(app.app, 'ADMIN')).accessToken);
    return call(app.app, { token: tokens.get(app), ...options });
  };

  /** A user with the phone channel's setting, a known password and a profile. */
  async function phoneUser(IdUsuario: string, Telefono: string) {
    const created = await api(t, {
      method: 'POST',
      url: '/api/rest/user',
      payload: {
        IdUsuario,
        Nombre: 'PRUEBA',
        Apellido: 'SMS',
        Correo: `${IdUsuario.toLowerCase()}@minandes.com.pe`,
        Telefono: Telefono.replace(/\D/g, ''),
        PrimeraClaveCambiada: 'S',
        IdConfiguracionLogeo: phoneSetting,
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    // A number written as people write it (+, spaces, dashes), as an import may have left it.
    await t.app.database.db
      .updateTable('security_user')
      .set({ Telefono })
      .where('IdUsuario', '=', IdUsuario)
      .execute();
    await t.app.auth.passwords.initialPassword(IdUsuario, PASSWORD, 'S');
    const assigned = await api(t, {
      method: 'POST',
      url: '/api/rest/user-profile',
      payload: { IdUsuario, IdPerfil: ids.authoriser, IdDivision: ids.division },
    });
    expect(assigned.status).toBe(201);
  }

  const outbox = (userId: string) =>
    t.app.database.db
      .selectFrom('security_outbox')
      .select(['Canal', 'Destinatario', 'Cuerpo', 'Estado', 'Error'])
      .where('IdUsuario', '=', userId)
      .orderBy('IdMensaje')
      .execute();

  const validate = (username: string, codigo: string, remoteAddress = freshAddress()) =>
    call(t.app, {
      method: 'POST',
      url: '/api/usuario/validatelogin',
      remoteAddress,
      payload: { username, codigo },
    });

  beforeAll(async () => {
    centre = await startSmsCentre();
    t = await startTestApp(dialect, {
      auth: { smppUrl: centre.url, smppSource: 'MINANDES', smppTimeoutMs: 1_000 },
    });
    bare = await startTestApp(dialect);
    const find = async (resource: string, filter: object) =>
      (await api(t, { method: 'GET', url: listUrl(resource, { filter }) })).body[0].id as number;
    ids.authoriser = await find('profile', { q: 'AUTORIZADOR' });
    ids.division = await find('division', { q: 'SAN GABRIEL' });
    const setting = await api(t, {
      method: 'POST',
      url: '/api/rest/login-setting',
      payload: { Descripcion: 'CÓDIGO POR SMS', DobleAutenticacion: 'S', NotificarPor: 'T' },
    });
    expect(setting.status, JSON.stringify(setting.body)).toBe(201);
    phoneSetting = setting.body.id;
  });
  afterAll(async () => {
    await t?.close();
    await bare?.close();
    await centre?.close();
  });

  it('sends the sign-in code by SMS and signs in with it; the outbox shows it sent, the code masked', async () => {
    await phoneUser('SMSUNO', '999888777');
    const pending = await authenticate(t.app, 'SMSUNO', PASSWORD);
    expect(pending.status, JSON.stringify(pending.body)).toBe(200);
    expect(pending.body.result).toMatchObject({
      dobleAutenticacion: 'S',
      flagTelefono: 'S',
      accessToken: '',
    });

    expect(centre.messages).toHaveLength(1);
    const sms = centre.messages[0];
    expect(sms).toMatchObject({
      systemId: 'acredita',
      source: 'MINANDES',
      sourceTon: 5,
      destination: '999888777',
      destinationTon: 0,
    });
    expect(sms.text).toMatch(/^Su código de verificación es \d{4}\. Vence en \d+ minutos\./);
    const code = codeIn(sms.text, 4);

    const signedIn = await validate('SMSUNO', code);
    expect(signedIn.status, JSON.stringify(signedIn.body)).toBe(200);
    expect(signedIn.body.result.accessToken).toMatch(/^ey/);

    const rows = await outbox('SMSUNO');
    const sent = rows.filter((r) => r.Canal === 'T');
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ Destinatario: '999888777', Estado: 'E', Error: null });
    expect(sent[0].Cuerpo).toContain(`Su código de verificación es ${SECRET_MASK}.`);
    expect(sent[0].Cuerpo).not.toContain(code);
  });

  it('sends a new code by SMS when asked again, over the session it keeps or a new one after the centre drops it', async () => {
    await phoneUser('SMSDOS', '+51 999-111-222');
    const before = centre.messages.length;
    expect((await authenticate(t.app, 'SMSDOS', PASSWORD)).status).toBe(200);
    const resent = await call(t.app, {
      method: 'POST',
      url: '/api/usuario/resendcode',
      remoteAddress: freshAddress(),
      payload: { username: 'SMSDOS' },
    });
    expect(resent.status).toBe(200);
    const toUser = centre.messages.slice(before);
    expect(toUser).toHaveLength(2);
    // An international number goes as such: the + stripped, the type of number international.
    expect(toUser.map((m) => [m.destination, m.destinationTon])).toEqual([
      ['51999111222', 1],
      ['51999111222', 1],
    ]);
    expect((await validate('SMSDOS', codeIn(toUser[1].text, 4))).status).toBe(200);
    expect((await outbox('SMSDOS')).filter((r) => r.Canal === 'T').map((r) => r.Estado)).toEqual(['E', 'E']);

    // The centre closes the kept session (its idle timeout): the next code binds again.
    const binds = centre.binds();
    await centre.dropSessions();
    expect((await authenticate(t.app, 'SMSDOS', PASSWORD)).status).toBe(200);
    expect(centre.binds()).toBe(binds + 1);
    expect(centre.messages.slice(before)).toHaveLength(3);
  });

  it('refuses a phone no SMS can reach with the spec’s 06, sending and writing nothing', async () => {
    await phoneUser('SMSCORTO', '12345');
    const before = centre.messages.length;
    const refused = await authenticate(t.app, 'SMSCORTO', PASSWORD);
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({
      messageKey: 'login.messages.06',
      params: { codigo: '06' },
      message: 'User without cell phone: contact the administrator.',
    });
    expect(centre.messages).toHaveLength(before);
    expect((await outbox('SMSCORTO')).filter((r) => r.Canal === 'T')).toEqual([]);
    // No code was made: asking for it again sends nothing either.
    await call(t.app, {
      method: 'POST',
      url: '/api/usuario/resendcode',
      remoteAddress: freshAddress(),
      payload: { username: 'SMSCORTO' },
    });
    expect(centre.messages).toHaveLength(before);
  });

  it('answers a clear refusal when the SMS centre refuses, stays silent or is out of reach, and records why', async () => {
    await phoneUser('SMSFALLA', '987654321');
    const expectNotSent = async () => {
      const res = await authenticate(t.app, 'SMSFALLA', PASSWORD);
      expect(res.status, JSON.stringify(res.body)).toBe(403);
      expect(res.body).toMatchObject({
        messageKey: 'login.messages.smsNotSent',
        message:
          'The code could not be sent by SMS: try again in a few minutes or contact the administrator.',
      });
      const spanish = await call(t.app, {
        method: 'POST',
        url: '/api/usuario/authenticate',
        remoteAddress: freshAddress(),
        headers: { 'accept-language': 'es' },
        payload: { username: 'SMSFALLA', password: PASSWORD },
      });
      expect(spanish.status).toBe(403);
      expect(spanish.body.message).toBe(
        'No se pudo enviar el código por SMS: intente de nuevo en unos minutos o comuníquese con el administrador.',
      );
      const failed = (await outbox('SMSFALLA')).filter((r) => r.Canal === 'T').slice(-2);
      expect(failed.map((r) => r.Estado)).toEqual(['F', 'F']);
      for (const row of failed) expect(row.Cuerpo).toContain(SECRET_MASK);
      return failed[1].Error as string;
    };

    centre.mode = 'refuse';
    expect(await expectNotSent()).toMatch(/refused the message: ESME_RSYSERR/);

    // A centre that never answers holds the sign-in no longer than the timeout (1 s here).
    centre.mode = 'silent';
    const started = Date.now();
    expect(await expectNotSent()).toMatch(/did not answer within 1000 ms/);
    expect(Date.now() - started).toBeLessThan(8_000);

    centre.mode = 'accept';
    expect((await authenticate(t.app, 'SMSFALLA', PASSWORD)).status).toBe(200);
    expect(centre.messages.at(-1)?.destination).toBe('987654321');

    // Out of reach (last: the centre is gone for good).
    await centre.close();
    expect(await expectNotSent()).toMatch(/out of reach|closed the connection/);
    expect((await outbox('SMSFALLA')).filter((r) => r.Canal === 'T').map((r) => r.Estado)).toEqual([
      'F',
      'F',
      'F',
      'F',
      'E',
      'F',
      'F',
    ]);
  });

  it('saves a login setting with the phone channel only when an SMS centre is configured', async () => {
    const payload = { Descripcion: 'CÓDIGO POR SMS SIN CENTRO', DobleAutenticacion: 'S', NotificarPor: 'T' };
    const refused = await api(bare, { method: 'POST', url: '/api/rest/login-setting', payload });
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe('VALIDATION_FAILED');
    expect(refused.body.errors.NotificarPor).toMatchObject({
      messageKey: 'validation.smsNotConfigured',
      message: 'Sending codes by SMS is not set up on the server (SMPP_URL): choose e-mail',
    });
    const spanish = await api(bare, {
      method: 'POST',
      url: '/api/rest/login-setting',
      payload,
      headers: { 'accept-language': 'es' },
    });
    expect(spanish.body.errors.NotificarPor.message).toBe(
      'El envío de códigos por SMS no está configurado en el servidor (SMPP_URL): elija correo',
    );
    const listed = async (app: TestApp, q: string) =>
      (await api(app, { method: 'GET', url: listUrl('login-setting', { filter: { q } }) })).body as Array<{
        id: number;
        NotificarPor: string;
      }>;
    expect(await listed(bare, 'SIN CENTRO')).toEqual([]);

    // Nor can a setting by e-mail be switched to the phone.
    const byMail = await api(bare, {
      method: 'POST',
      url: '/api/rest/login-setting',
      payload: { ...payload, NotificarPor: 'C' },
    });
    expect(byMail.status).toBe(201);
    const switched = await api(bare, {
      method: 'PUT',
      url: `/api/rest/login-setting/${byMail.body.id}`,
      payload: { ...byMail.body, NotificarPor: 'T' },
    });
    expect(switched.status).toBe(400);
    expect(switched.body.errors.NotificarPor.messageKey).toBe('validation.smsNotConfigured');
    expect((await listed(bare, 'SIN CENTRO')).map((s) => s.NotificarPor)).toEqual(['C']);

    // With an SMS centre configured the same setting is saved.
    const saved = await api(t, { method: 'POST', url: '/api/rest/login-setting', payload });
    expect(saved.status).toBe(201);
    expect((await listed(t, 'SIN CENTRO')).map((s) => s.NotificarPor)).toEqual(['T']);
  });
});
