import { describe, expect, it } from 'vitest';
import { DEMO_PASSWORD } from '../../src/server/demo/security.js';
import { type CallOptions, call, listUrl, signIn } from '../support/app.js';
import { authenticate, codeIn, lastMessage, MINUTE, testClock } from '../support/auth.js';
import { DIALECTS } from '../support/databases.js';
import { world } from '../support/world.js';

describe.each(DIALECTS)('passwords on %s', (dialect) => {
  let admin: string;
  const clock = testClock();
  const api = async (options: CallOptions) => {
    const res = await call(w.app, { token: admin, ...options });
    if (res.status !== 401) return res;
    admin = (await signIn(w.app, 'ADMIN')).accessToken;
    return call(w.app, { token: admin, ...options });
  };
  let authoriserProfile: number;
  let division: number;

  const w = world(dialect, {
    auth: { now: clock.now },
    users: { admin: 'ADMIN' },
    ready: async () => {
      admin = w.signedIn.admin.accessToken;
      authoriserProfile = (
        await api({ method: 'GET', url: listUrl('profile', { filter: { q: 'AUTORIZADOR' } }) })
      ).body[0].id;
      division = (await api({ method: 'GET', url: listUrl('division', { filter: { q: 'SAN GABRIEL' } }) }))
        .body[0].id;
    },
  });

  const forcedChange = (token: string, Clave: string) =>
    call(w.app, { method: 'POST', url: '/api/SeguridadusuarioClave/actualizar', token, payload: { Clave } });

  it('gives a new user a temporary password by e-mail and makes the first sign-in change it', async () => {
    const created = await api({
      method: 'POST',
      url: '/api/rest/user',
      payload: { IdUsuario: 'nuevo', Nombre: 'Ana', Apellido: 'Rojas', Correo: 'ana.rojas@minandes.com.pe' },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ IdUsuario: 'NUEVO', PrimeraClaveCambiada: 'N' });
    await api({
      method: 'POST',
      url: '/api/rest/user-profile',
      payload: { IdUsuario: 'NUEVO', IdPerfil: authoriserProfile, IdDivision: division },
    });

    const mail = await lastMessage(w.app, 'NUEVO', /Clave temporal/);
    expect(mail.Destinatario).toBe('ana.rojas@minandes.com.pe');
    const temporary = /Clave temporal: (\S+)/.exec(mail.Cuerpo)?.[1] as string;
    const login = await authenticate(w.app, 'NUEVO', temporary);
    expect(login.status).toBe(200);
    expect(login.body.result.primeraClaveCambiada).toBe('N');
    const token = login.body.result.accessToken;

    // No profile until the password is changed.
    const blocked = await call(w.app, {
      method: 'POST',
      url: '/api/usuario/refreshTokenbyperfil',
      token,
      payload: { idPerfil: authoriserProfile },
    });
    expect(blocked.status).toBe(403);
    expect(blocked.body.messageKey).toBe('password.firstChange');

    const weak = await forcedChange(token, 'minera2026');
    expect(weak.status).toBe(400);
    expect(weak.body.errors.Clave).toMatchObject({
      messageKey: 'password.needsUpper',
      message: 'The password must contain an upper-case letter.',
    });
    const short = await forcedChange(token, 'Ab#1');
    expect(short.body.errors.Clave).toMatchObject({ messageKey: 'password.tooShort', params: { min: 8 } });
    const breached = await forcedChange(token, 'P@ssw0rd');
    expect(breached.status).toBe(400);
    expect(breached.body.errors.Clave.messageKey).toBe('password.common');
    const same = await forcedChange(token, temporary);
    expect(same.body.result).toMatchObject({ id: 2 });

    const ok = await forcedChange(token, 'Cuajone#Norte7');
    expect(ok.status).toBe(200);
    expect(ok.body.result).toEqual({ id: 0, mensaje: 'password.changed' });
    // The change ends the session: sign in again with the new password.
    expect((await call(w.app, { method: 'GET', url: '/api/usuario/getUserByToken', token })).status).toBe(
      401,
    );
    expect((await authenticate(w.app, 'NUEVO', temporary)).status).toBe(401);
    const again = await authenticate(w.app, 'NUEVO', 'Cuajone#Norte7');
    expect(again.body.result.primeraClaveCambiada).toBe('S');
  });

  it('flags an expired password, and counts the days left at 6 or fewer', async () => {
    const setExpiry = (ms: number) =>
      w.app.database.db
        .updateTable('security_user')
        .set({ FechaCaducidadClave: new Date(clock.now() + ms).toISOString() })
        .where('IdUsuario', '=', 'NUEVO')
        .execute();
    await setExpiry(5 * 24 * 60 * MINUTE - MINUTE);
    expect((await authenticate(w.app, 'NUEVO', 'Cuajone#Norte7')).body.result).toMatchObject({
      cambiarClaveCaducada: 'N',
      diasCaducidadClave: 5,
    });
    await setExpiry(2 * MINUTE);
    expect((await authenticate(w.app, 'NUEVO', 'Cuajone#Norte7')).body.result.diasCaducidadClave).toBe(1);
    await setExpiry(-MINUTE);
    const expired = await authenticate(w.app, 'NUEVO', 'Cuajone#Norte7');
    expect(expired.body.result.cambiarClaveCaducada).toBe('S');
    const token = expired.body.result.accessToken;
    const blocked = await call(w.app, {
      method: 'POST',
      url: '/api/usuario/refreshTokenbyperfil',
      token,
      payload: { idPerfil: authoriserProfile },
    });
    expect(blocked.body.messageKey).toBe('password.expired');
    expect((await forcedChange(token, 'Toquepala#Sur8')).body.result.id).toBe(0);
    const renewed = await authenticate(w.app, 'NUEVO', 'Toquepala#Sur8');
    expect(renewed.body.result).toMatchObject({ cambiarClaveCaducada: 'N', diasCaducidadClave: 90 });
  });

  it('changes one’s own password on the security page, never back to an earlier one', async () => {
    const session = await signIn(w.app, 'NUEVO', { password: 'Toquepala#Sur8' });
    const change = (ClaveAnterior: string, Clave: string) =>
      call(w.app, {
        method: 'POST',
        url: '/api/SeguridadusuarioClave/cambiarClave',
        token: session.accessToken,
        payload: { ClaveAnterior, Clave },
      });
    const wrong = await change('Equivocada#1', 'Ilo#Puerto2026');
    expect(wrong.status).toBe(400);
    expect(wrong.body.errors.ClaveAnterior.messageKey).toBe('password.previousWrong');
    expect((await change('Toquepala#Sur8', 'Toquepala#Sur8')).body.result.id).toBe(2);
    expect((await change('Toquepala#Sur8', 'Cuajone#Norte7')).body.result.id).toBe(2);
    expect((await change('Toquepala#Sur8', 'Ilo#Puerto2026')).body.result).toEqual({
      id: 0,
      mensaje: 'password.changed',
    });
    expect((await authenticate(w.app, 'NUEVO', 'Ilo#Puerto2026')).status).toBe(200);
  });

  it('applies the level of the user’s own setting', async () => {
    const basic = await api({
      method: 'POST',
      url: '/api/rest/login-setting',
      payload: {
        Descripcion: 'POLÍTICA BÁSICA',
        NivelSeguridadClave: 'B',
        LongitudClave: 6,
        CaducaClave: 'N',
      },
    });
    await api({
      method: 'PUT',
      url: '/api/rest/user/NUEVO',
      payload: {
        ...(await api({ method: 'GET', url: '/api/rest/user/NUEVO' })).body,
        IdConfiguracionLogeo: basic.body.id,
      },
    });
    const session = await signIn(w.app, 'NUEVO', { password: 'Ilo#Puerto2026' });
    const setting = await call(w.app, {
      method: 'GET',
      url: '/api/SeguridadUsuarioPerfil/configuracionByUsuario',
      token: session.accessToken,
    });
    expect(setting.body.result).toMatchObject({ longitudClave: 6, nivelSeguridadClave: 'B' });
    const res = await call(w.app, {
      method: 'POST',
      url: '/api/SeguridadusuarioClave/cambiarClave',
      token: session.accessToken,
      payload: { ClaveAnterior: 'Ilo#Puerto2026', Clave: 'huaraz' },
    });
    expect(res.body.result.id).toBe(0);
  });

  it('recovers a forgotten password in three steps with a 6-digit code', async () => {
    const recover = (payload: object) =>
      call(w.app, { method: 'POST', url: '/api/SeguridadCodigoAutenticacion/RecuperarClave', payload });
    const mismatch = await recover({ Usuario: 'autorizador', Identificador: 'otro@correo.com' });
    expect(mismatch.status).toBe(400);
    expect(mismatch.body.messageKey).toBe('recovery.mismatch');

    const sent = await recover({
      Usuario: 'autorizador',
      Identificador: 'AUTORIZADOR@minandes.com.pe',
      NotificarPor: 'C',
    });
    expect(sent.body.result).toEqual({ enviado: true, longitudClave: 8, nivelSeguridadClave: 'A' });
    const code = codeIn((await lastMessage(w.app, 'AUTORIZADOR')).Cuerpo, 6);

    expect((await recover({ Usuario: 'AUTORIZADOR', Codigo: '000000' })).body.messageKey).toBe(
      'login.messages.codeInvalid',
    );
    expect((await recover({ Usuario: 'AUTORIZADOR', Codigo: code })).body.result).toMatchObject({
      valido: true,
    });
    const weak = await recover({ Usuario: 'AUTORIZADOR', Codigo: code, NuevaContrasenia: 'corta' });
    expect(weak.status).toBe(400);
    const done = await recover({ Usuario: 'AUTORIZADOR', Codigo: code, NuevaContrasenia: 'Moquegua#Sol9' });
    expect(done.body.result).toMatchObject({ id: 0, longitudClave: 8, nivelSeguridadClave: 'A' });
    expect((await authenticate(w.app, 'AUTORIZADOR', DEMO_PASSWORD)).status).toBe(401);
    expect((await authenticate(w.app, 'AUTORIZADOR', 'Moquegua#Sol9')).status).toBe(200);
    // The code was spent.
    expect(
      (await recover({ Usuario: 'AUTORIZADOR', Codigo: code, NuevaContrasenia: 'Otra#Clave99' })).body
        .messageKey,
    ).toBe('login.messages.codeInvalid');
  });
});
