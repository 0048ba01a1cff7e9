import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH_TABLES } from '../../src/server/auth/tables.js';
import { call, callerAs, listUrl, startTestApp, type TestApp } from '../support/app.js';
import { authenticate, codeIn, freshAddress, lastMessage, testClock } from '../support/auth.js';
import { DIALECTS } from '../support/databases.js';

const PASSWORD = 'Arequipa#Misti7';

/**
 * What an attacker tries on the counts and the recovery: many wrong tries sent at once, and a
 * recovery call used to learn a password or whether a user exists without the code.
 */
describe.each(DIALECTS)('sign-in counts and recovery under attack on %s', (dialect) => {
  let t: TestApp;
  const clock = testClock();
  const api = callerAs(() => t.app);
  let threeTries: number;
  let doubleSetting: number;

  const recover = (payload: object) =>
    call(t.app, {
      method: 'POST',
      url: '/api/SeguridadCodigoAutenticacion/RecuperarClave',
      remoteAddress: freshAddress(),
      payload,
    });
  const state = async (userId: string) =>
    (await t.app.database.db
      .selectFrom(AUTH_TABLES.state)
      .selectAll()
      .where('IdUsuario', '=', userId)
      .executeTakeFirst()) as { IntentosFallidos: number; IntentosCodigo: number } | undefined;

  async function makeUser(IdUsuario: string, fields: Record<string, unknown> = {}) {
    const created = await api({
      method: 'POST',
      url: '/api/rest/user',
      payload: {
        IdUsuario,
        Nombre: 'PRUEBA',
        Apellido: 'ATAQUE',
        Correo: `${IdUsuario.toLowerCase()}@minandes.com.pe`,
        PrimeraClaveCambiada: 'S',
        IdConfiguracionLogeo: threeTries,
        ...fields,
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    await t.app.auth.passwords.initialPassword(IdUsuario, PASSWORD, 'S');
    const find = async (resource: string, q: string) =>
      (await api({ method: 'GET', url: listUrl(resource, { filter: { q } }) })).body[0].id as number;
    const assigned = await api({
      method: 'POST',
      url: '/api/rest/user-profile',
      payload: {
        IdUsuario,
        IdPerfil: await find('profile', 'AUTORIZADOR'),
        IdDivision: await find('division', 'SAN GABRIEL'),
      },
    });
    expect(assigned.status).toBe(201);
  }

  beforeAll(async () => {
    t = await startTestApp(dialect, { auth: { now: clock.now } });
    const setting = await api({
      method: 'POST',
      url: '/api/rest/login-setting',
      payload: { Descripcion: 'TRES INTENTOS', NumeroIntentos: 3, MinutosDesbloqueo: 20 },
    });
    expect(setting.status, JSON.stringify(setting.body)).toBe(201);
    threeTries = setting.body.id;
    const double = await api({
      method: 'POST',
      url: '/api/rest/login-setting',
      payload: {
        Descripcion: 'CÓDIGO TRES INTENTOS',
        NumeroIntentos: 3,
        MinutosDesbloqueo: 20,
        DobleAutenticacion: 'S',
        NotificarPor: 'C',
      },
    });
    expect(double.status, JSON.stringify(double.body)).toBe(201);
    doubleSetting = double.body.id;
  });
  afterAll(async () => {
    await t?.close();
  });

  it('locks at the setting’s third wrong password however many tries arrive at once', async () => {
    await makeUser('RAFAGA');
    // Nine tries: the throttle lets a name have ten a minute, and the tenth is the right password.
    const answers = await Promise.all(
      Array.from({ length: 9 }, () => authenticate(t.app, 'RAFAGA', 'Equivocada#1')),
    );
    const codes = answers.map((a) => a.body.params?.codigo);
    expect(codes.filter((c) => c === '01')).toHaveLength(2);
    expect(codes.filter((c) => c === '04')).toHaveLength(7);
    expect((await state('RAFAGA'))?.IntentosFallidos).toBe(9);
    // Locked, even with the right password.
    expect((await authenticate(t.app, 'RAFAGA', PASSWORD)).body.params?.codigo).toBe('04');
  });

  it('locks at the setting’s third wrong code however many arrive at once', async () => {
    await makeUser('RAFAGACOD', { IdConfiguracionLogeo: doubleSetting });
    expect((await authenticate(t.app, 'RAFAGACOD', PASSWORD)).body.result.dobleAutenticacion).toBe('S');
    const answers = await Promise.all(
      ['0000', '0001', '0002', '0003', '0004', '0005', '0006', '0007'].map((codigo) =>
        call(t.app, {
          method: 'POST',
          url: '/api/usuario/validatelogin',
          remoteAddress: freshAddress(),
          payload: { username: 'RAFAGACOD', codigo },
        }),
      ),
    );
    expect(answers.filter((a) => a.status === 423)).toHaveLength(answers.length - 2);
    expect(answers.filter((a) => a.body.messageKey === 'login.messages.codeInvalid')).toHaveLength(2);
  });

  it('checks the recovery code before saying anything of the password, and counts wrong codes', async () => {
    await makeUser('OLVIDO');
    const sent = await recover({ Usuario: 'OLVIDO', Identificador: 'olvido@minandes.com.pe' });
    expect(sent.body.result.enviado).toBe(true);
    const code = codeIn((await lastMessage(t.app, 'OLVIDO')).Cuerpo, 6);
    const wrong = code === '123456' ? '654321' : '123456';

    // The current password, a weak one and a fine one read the same with a made-up code.
    const current = await recover({ Usuario: 'OLVIDO', Codigo: wrong, NuevaContrasenia: PASSWORD });
    const weak = await recover({ Usuario: 'OLVIDO', Codigo: wrong, NuevaContrasenia: 'corta' });
    for (const answer of [current, weak]) {
      expect(answer.status).toBe(400);
      expect(answer.body).toMatchObject({
        code: 'CODE_INVALID',
        messageKey: 'login.messages.codeInvalid',
        params: { codigo: '08' },
      });
    }
    expect((await state('OLVIDO'))?.IntentosCodigo).toBe(2);
    // The right code, still within its three tries: only now is the password judged.
    const third = await recover({ Usuario: 'OLVIDO', Codigo: code, NuevaContrasenia: PASSWORD });
    expect(third.status).toBe(200);
    expect(third.body.result).toMatchObject({ id: 2, mensaje: 'password.mustDiffer' });
  });

  it('answers a known and an unknown user alike until the code is right', async () => {
    await makeUser('CONOCIDO');
    await recover({ Usuario: 'CONOCIDO', Identificador: 'conocido@minandes.com.pe' });
    const strip = ({ status, body }: { status: number; body: Record<string, unknown> }) => ({
      status,
      body: { ...body, requestId: undefined },
    });
    for (const password of ['corta', 'Nueva#Clave2026']) {
      const known = await recover({ Usuario: 'CONOCIDO', Codigo: '111111', NuevaContrasenia: password });
      const unknown = await recover({ Usuario: 'NADIE', Codigo: '111111', NuevaContrasenia: password });
      expect(strip(known)).toEqual(strip(unknown));
      expect(known.body.code).toBe('CODE_INVALID');
    }
  });

  it('sets the password once when one right code is sent twice at once', async () => {
    await makeUser('DOBLEUSO');
    await recover({ Usuario: 'DOBLEUSO', Identificador: 'dobleuso@minandes.com.pe' });
    const code = codeIn((await lastMessage(t.app, 'DOBLEUSO')).Cuerpo, 6);
    const answers = await Promise.all(
      ['Primera#Clave1', 'Segunda#Clave2'].map((NuevaContrasenia) =>
        recover({ Usuario: 'DOBLEUSO', Codigo: code, NuevaContrasenia }),
      ),
    );
    expect(answers.filter((a) => a.body.result?.id === 0)).toHaveLength(1);
    expect(answers.filter((a) => a.body.code === 'CODE_INVALID')).toHaveLength(1);
  });
});
