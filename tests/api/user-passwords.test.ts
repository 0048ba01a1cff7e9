import { afterEach, describe, expect, it, vi } from 'vitest';
import { Accounts } from '../../src/server/auth/accounts.js';
import { DEMO_PASSWORD } from '../../src/server/demo/security.js';
import { call, type SignedIn, signIn } from '../support/app.js';
import { authenticate, lastMessage } from '../support/auth.js';
import { DIALECTS } from '../support/databases.js';
import { world } from '../support/world.js';

/**
 * The users screen's password and registration (spec sections 7 and 8): an administrator sets a
 * user's password by the rules of the user's login setting (SeguridadusuarioClave/crear), registers
 * users through auth/register; a password that cannot be stored answers "Error saving password
 * information", and a sign-in that fails unexpectedly answers login code 00.
 */
describe.each(DIALECTS)('users’ passwords set by an administrator on %s', (dialect) => {
  let admin: SignedIn;
  let requester: SignedIn;
  let authoriser: SignedIn;

  const w = world(dialect, {
    users: { admin: 'ADMIN', requester: 'SOLICITANTE', authoriser: 'AUTORIZADOR' },
    ready: async () => {
      admin = w.signedIn.admin;
      requester = w.signedIn.requester;
      authoriser = w.signedIn.authoriser;
    },
  });
  afterEach(() => vi.restoreAllMocks());

  const setPassword = (who: SignedIn, payload: object, language = 'en') =>
    call(w.app, {
      method: 'POST',
      url: '/api/SeguridadusuarioClave/crear',
      token: who.accessToken,
      payload,
      headers: { 'accept-language': language },
    });
  const register = (who: SignedIn, payload: object, language = 'en') =>
    call(w.app, {
      method: 'POST',
      url: '/api/auth/register',
      token: who.accessToken,
      payload,
      headers: { 'accept-language': language },
    });
  const newcomer = (IdUsuario: string) => ({
    IdUsuario,
    Nombre: 'Rosa',
    Apellido: 'Mamani',
    Correo: `${IdUsuario.toLowerCase()}@minandes.com.pe`,
    perfiles: [{ IdPerfil: authoriser.perfil.IdPerfil, IdDivision: authoriser.perfil.IdDivision }],
  });

  it('registers a user, whose password the administrator then sets by the user’s login setting, to be changed at sign-in', async () => {
    const registered = await register(admin, newcomer('rmamani'));
    expect(registered.status, JSON.stringify(registered.body)).toBe(200);
    const temporary = /Clave temporal: (\S+)/.exec(
      (await lastMessage(w.app, 'RMAMANI', /Clave temporal/)).Cuerpo,
    )?.[1] as string;
    expect((await authenticate(w.app, 'RMAMANI', temporary)).body.result.primeraClaveCambiada).toBe('N');

    // The dialog reads the user's rules: those of the user's login setting (the client's default).
    const record = await call(w.app, {
      method: 'PUT',
      url: '/api/SeguridadusuarioLogin/obtener',
      token: admin.accessToken,
      payload: { IdUsuario: 'RMAMANI' },
    });
    expect(record.status).toBe(200);
    const user = await w.app.database.db
      .selectFrom(w.table('user'))
      .selectAll()
      .where('IdUsuario', '=', 'RMAMANI')
      .executeTakeFirstOrThrow();
    const setting = await new Accounts(w.db(), w.registry).setting(user as never);
    expect(record.body.result).toMatchObject({
      IdUsuario: 'RMAMANI',
      longitudClave: setting.LongitudClave,
      nivelSeguridadClave: setting.NivelSeguridadClave,
    });

    // Refused by the setting's rules, each with its message, in the caller's language.
    const short = await setPassword(admin, { IdUsuario: 'RMAMANI', Clave: 'Ab#1' });
    expect(short.status).toBe(400);
    expect(short.body.errors.Clave).toMatchObject({
      messageKey: 'password.tooShort',
      message: `The password must have at least ${setting.LongitudClave} characters.`,
    });
    const plain = await setPassword(admin, { IdUsuario: 'RMAMANI', Clave: 'cordilleraandina' }, 'es');
    expect(plain.status).toBe(400);
    expect(plain.body.errors.Clave.messageKey).toMatch(/^password\.needs/);
    expect(plain.body.errors.Clave.message).toMatch(/^La clave debe contener/);
    const named = await setPassword(admin, { IdUsuario: 'RMAMANI', Clave: 'Rmamani#2026x' });
    expect(named.body.errors.Clave.messageKey).toBe('password.containsUser');

    // Only who manages users.
    for (const who of [requester, authoriser])
      expect((await setPassword(who, { IdUsuario: 'RMAMANI', Clave: 'Huascaran#6768' })).status).toBe(403);

    const set = await setPassword(admin, { IdUsuario: 'rmamani', Clave: 'Huascaran#6768' });
    expect(set.status).toBe(200);
    expect(set.body.result).toEqual({ id: 0, mensaje: 'password.changed' });
    expect((await authenticate(w.app, 'RMAMANI', temporary)).status).toBe(401);
    const login = await authenticate(w.app, 'RMAMANI', 'Huascaran#6768');
    expect(login.status).toBe(200);
    // The call's own behaviour: the user must change it at the next sign-in.
    expect(login.body.result.primeraClaveCambiada).toBe('N');
  });

  it('answers “Error saving password information” when the password cannot be stored, never the failure itself', async () => {
    const created = await register(admin, newcomer('fallida'));
    expect(created.status).toBe(200);
    const store = vi.spyOn(Accounts.prototype, 'storePassword');

    store.mockRejectedValueOnce(new Error('disk I/O error at security_password page 7'));
    const en = await setPassword(admin, { IdUsuario: 'FALLIDA', Clave: 'Huascaran#6768' });
    expect(en.status).toBe(500);
    expect(en.body).toMatchObject({
      code: 'INTERNAL',
      messageKey: 'password.saveFailed',
      message: 'Error saving password information.',
    });
    expect(JSON.stringify(en.body)).not.toContain('disk I/O');

    store.mockRejectedValueOnce(new Error('disk I/O error'));
    const es = await setPassword(admin, { IdUsuario: 'FALLIDA', Clave: 'Huascaran#6768' }, 'es');
    expect(es.body.message).toBe('Error al guardar la información de la clave.');

    // The database out of reach: the same message, with the wait a caller is asked for.
    store.mockRejectedValueOnce(
      Object.assign(new Error('connect ECONNREFUSED 10.0.0.9:5432'), { code: 'ECONNREFUSED' }),
    );
    const down = await setPassword(admin, { IdUsuario: 'FALLIDA', Clave: 'Huascaran#6768' });
    expect(down.status).toBe(503);
    expect(down.headers['retry-after']).toBe('5');
    expect(down.body).toMatchObject({ code: 'SERVICE_UNAVAILABLE', messageKey: 'password.saveFailed' });
    expect(JSON.stringify(down.body)).not.toContain('10.0.0.9');

    // One's own change on the security page, likewise; the old password still works.
    const own = await signIn(w.app, 'SOLICITANTE');
    store.mockRejectedValueOnce(new Error('disk I/O error'));
    const change = await call(w.app, {
      method: 'POST',
      url: '/api/SeguridadusuarioClave/cambiarClave',
      token: own.accessToken,
      payload: { ClaveAnterior: DEMO_PASSWORD, Clave: 'Huascaran#6768' },
    });
    expect(change.status, JSON.stringify(change.body)).toBe(500);
    expect(change.body.messageKey).toBe('password.saveFailed');
    expect((await authenticate(w.app, 'SOLICITANTE')).status).toBe(200);

    // A registration whose temporary password cannot be stored: the same message, no user left.
    store.mockRejectedValueOnce(new Error('disk I/O error'));
    const refused = await register(admin, newcomer('sinclave'), 'es');
    expect(refused.status).toBe(500);
    expect(refused.body.message).toBe('Error al guardar la información de la clave.');
    expect(await w.count('user', { IdUsuario: 'SINCLAVE' })).toBe(0);

    // And once the store works again, the password is set.
    store.mockRestore();
    expect((await setPassword(admin, { IdUsuario: 'FALLIDA', Clave: 'Huascaran#6768' })).body.result.id).toBe(
      0,
    );
  });

  it('answers login code 00, the server error, when a sign-in fails unexpectedly', async () => {
    const setting = vi.spyOn(Accounts.prototype, 'setting');
    setting.mockRejectedValueOnce(new TypeError("Cannot read properties of undefined (reading 'Hash')"));
    const en = await authenticate(w.app, 'SOLICITANTE');
    expect(en.status).toBe(500);
    expect(en.body).toMatchObject({
      code: 'INTERNAL',
      messageKey: 'login.messages.00',
      params: { codigo: '00' },
      message: 'System error.',
    });
    expect(JSON.stringify(en.body)).not.toContain('Hash');

    setting.mockRejectedValueOnce(new Error('unexpected'));
    const es = await call(w.app, {
      method: 'POST',
      url: '/api/usuario/authenticate',
      headers: { 'accept-language': 'es' },
      payload: { username: 'SOLICITANTE', password: 'x' },
    });
    expect(es.body).toMatchObject({ params: { codigo: '00' }, message: 'Error del sistema.' });

    // Refusals keep their own codes.
    setting.mockRestore();
    const wrong = await authenticate(w.app, 'SOLICITANTE', 'NoEs#LaClave1');
    expect(wrong.status).toBe(401);
    expect(wrong.body.params.codigo).toBe('01');
  });
});
