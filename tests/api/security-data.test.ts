import { describe, expect, it } from 'vitest';
import { DEMO_PASSWORD } from '../../src/server/demo/security.js';
import { call, type SignedIn, signIn } from '../support/app.js';
import { authenticate } from '../support/auth.js';
import { DIALECTS } from '../support/databases.js';
import { world } from '../support/world.js';

/**
 * The security page's Data tab (spec section 2) and the password an administrator sets
 * (SeguridadusuarioClave/crear): per-field settings from the field rules, enforced on saving.
 */
describe.each(DIALECTS)('the security page’s user record on %s', (dialect) => {
  let admin: SignedIn;
  let requester: SignedIn;
  let authoriser: SignedIn;

  const obtain = (who: SignedIn, IdUsuario?: string) =>
    call(w.app, {
      method: 'PUT',
      url: '/api/SeguridadusuarioLogin/obtener',
      token: who.accessToken,
      payload: IdUsuario ? { IdUsuario } : {},
    });
  const save = (who: SignedIn, payload: object) =>
    call(w.app, {
      method: 'PUT',
      url: '/api/SeguridadusuarioLogin/actualizar',
      token: who.accessToken,
      payload,
    });
  const setPassword = (who: SignedIn, payload: object) =>
    call(w.app, { method: 'POST', url: '/api/SeguridadusuarioClave/crear', token: who.accessToken, payload });
  const stored = async (userId: string) =>
    (await w.t.db.database.db
      .selectFrom(w.registry.require('user').table)
      .selectAll()
      .where('IdUsuario', '=', userId)
      .executeTakeFirstOrThrow()) as Record<string, unknown>;
  const settings = (body: { result: { campos: Array<{ Campo: string }> } }) =>
    Object.fromEntries(body.result.campos.map(({ Campo, ...rest }) => [Campo, rest]));

  const w = world(dialect, {
    users: { admin: 'ADMIN', requester: 'SOLICITANTE', authoriser: 'AUTORIZADOR' },
    ready: async () => {
      admin = w.signedIn.admin;
      requester = w.signedIn.requester;
      authoriser = w.signedIn.authoriser;
    },
  });

  it('answers each field’s settings from the page’s rules for a user, from the users screen’s for an administrator', async () => {
    const own = await obtain(requester);
    expect(own.status).toBe(200);
    expect(settings(own.body)).toEqual({
      IdUsuario: { Obligatorio: 'S', Modificable: 'N' },
      Nombre: { Obligatorio: 'S', Modificable: 'S' },
      Apellido: { Obligatorio: 'S', Modificable: 'S' },
      // The demo's page rules: the document is the administrator's to change, the mail is required.
      IdTipoDocumento: { Obligatorio: 'N', Modificable: 'N' },
      Documento: { Obligatorio: 'N', Modificable: 'N' },
      Correo: { Obligatorio: 'S', Modificable: 'S' },
      Telefono: { Obligatorio: 'N', Modificable: 'S' },
      IdConfiguracionLogeo: { Obligatorio: 'N', Modificable: 'N' },
      Activo: { Obligatorio: 'S', Modificable: 'N' },
    });
    const byAdmin = await obtain(admin, 'solicitante');
    expect(byAdmin.body.result).toMatchObject({ IdUsuario: 'SOLICITANTE', esNuevoRegistro: false });
    const forAdmin = settings(byAdmin.body);
    expect(forAdmin.IdUsuario).toEqual({ Obligatorio: 'S', Modificable: 'N' });
    for (const field of ['Documento', 'IdTipoDocumento', 'IdConfiguracionLogeo', 'Activo', 'Correo'])
      expect(forAdmin[field], field).toMatchObject({ Modificable: 'S' });

    // A rule of the page, set in the console, takes effect at the next load: the telephone locked.
    const rule = await call(w.app, {
      method: 'POST',
      url: '/api/rest/field-rule',
      token: admin.accessToken,
      payload: { IdDato: 'user-login', Campo: 'Telefono', Obligatorio: 'N', Modificable: 'N', Activo: 'S' },
    });
    expect(rule.status).toBe(201);
    expect(settings((await obtain(requester)).body).Telefono).toEqual({ Obligatorio: 'N', Modificable: 'N' });
    const refused = await save(requester, { Telefono: '999888777' });
    expect(refused.status).toBe(400);
    expect(refused.body.errors.Telefono.messageKey).toBe('validation.notModifiable');
    await call(w.app, {
      method: 'DELETE',
      url: `/api/rest/field-rule/${rule.body.id}`,
      token: admin.accessToken,
    });
    // The page's rules never give a user their state, setting or sign-in name.
    const beyond = await call(w.app, {
      method: 'POST',
      url: '/api/rest/field-rule',
      token: admin.accessToken,
      payload: { IdDato: 'user-login', Campo: 'Activo', Obligatorio: 'N', Modificable: 'S', Activo: 'S' },
    });
    expect(beyond.status).toBe(400);
    expect(beyond.body.errors.Campo.messageKey).toBe('validation.unknownFormField');
  });

  it('saves what the user may change, upper-cased like the users screen, and audits it', async () => {
    const res = await save(requester, {
      Nombre: 'ricardo martín',
      Correo: 'ricardo.huaman@sermipac.com.pe',
      Telefono: '987001122',
    });
    expect(res.status).toBe(200);
    expect(res.body.result).toMatchObject({
      IdUsuario: 'SOLICITANTE',
      Nombre: 'RICARDO MARTÍN',
      Correo: 'ricardo.huaman@sermipac.com.pe',
      Telefono: '987001122',
    });
    expect(await stored('SOLICITANTE')).toMatchObject({
      Nombre: 'RICARDO MARTÍN',
      Apellido: 'HUAMÁN TORRES',
      Telefono: '987001122',
      IdUsuarioModificacion: 'SOLICITANTE',
    });
    const audit = w.registry.require('audit');
    const trail = await w.t.db.database.db
      .selectFrom(audit.table)
      .selectAll()
      .where('Recurso', '=', 'user')
      .where('IdRegistro', '=', 'SOLICITANTE')
      .execute();
    expect(trail.length).toBeGreaterThan(0);
    // An unchanged value of a field the user may not change is no change.
    const same = await save(requester, { Activo: 'S', Nombre: 'RICARDO' });
    expect(same.status).toBe(200);
    expect((await stored('SOLICITANTE')).Nombre).toBe('RICARDO');
  });

  it('refuses a field the user may not change, writing nothing', async () => {
    const before = await stored('SOLICITANTE');
    for (const [field, value] of [
      ['Activo', 'N'],
      ['Documento', '44556677'],
      ['IdConfiguracionLogeo', 999],
    ] as const) {
      const res = await save(requester, { Nombre: 'OTRO NOMBRE', [field]: value });
      expect(res.status, field).toBe(400);
      expect(res.body.errors[field], field).toMatchObject({
        messageKey: 'validation.notModifiable',
        message: 'This field cannot be changed',
      });
    }
    // Properties beyond the page's fields are refused too, not dropped.
    const admin = await save(requester, { Nombre: 'OTRO NOMBRE', Administrador: 'S' });
    expect(admin.status).toBe(400);
    expect(admin.body.errors.Administrador.messageKey).toBe('validation.unknownField');
    expect(await stored('SOLICITANTE')).toEqual(before);
  });

  it('answers bad values with a message per field', async () => {
    const before = await stored('SOLICITANTE');
    const res = await save(requester, { Correo: 'no es un correo', Telefono: '98-77' });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION_FAILED');
    expect(Object.keys(res.body.errors).sort()).toEqual(['Correo', 'Telefono']);
    expect(res.body.errors.Correo.message).toMatch(/mail/i);
    expect(res.body.errors.Telefono.message).toBeTruthy();
    const long = await save(requester, { Apellido: 'A'.repeat(51) });
    expect(long.status).toBe(400);
    expect(long.body.errors.Apellido).toMatchObject({
      messageKey: 'validation.maxLength',
      params: { limit: 50 },
    });
    // A required field may not be emptied.
    const empty = await save(requester, { Correo: '' });
    expect(empty.status).toBe(400);
    expect(empty.body.errors.Correo.messageKey).toBe('validation.required');
    const wrongType = await save(requester, { Nombre: 12 });
    expect(wrongType.status).toBe(400);
    expect(Object.keys(wrongType.body.errors)).toEqual(['Nombre']);
    const notObject = await save(requester, [1, 2] as unknown as object);
    expect(notObject.status).toBe(400);
    expect(await stored('SOLICITANTE')).toEqual(before);
  });

  it('keeps another user’s record for administrators who manage users', async () => {
    expect((await obtain(requester, 'ADMIN')).status).toBe(403);
    const other = await save(requester, { IdUsuario: 'AUTORIZADOR', Nombre: 'INTRUSO' });
    expect(other.status).toBe(403);
    expect((await stored('AUTORIZADOR')).Nombre).toBe('JORGE LUIS');
    expect((await save(authoriser, { IdUsuario: 'SOLICITANTE', Telefono: '1' })).status).toBe(403);

    // The administrator changes more: the document, the login setting, the state.
    const types = await call(w.app, {
      method: 'GET',
      url: '/api/sistematipodocumento/obtenerTodos',
      token: admin.accessToken,
    });
    const dni = types.body.result.find((r: { Alias: string }) => r.Alias === 'DNI');
    const settingsList = await call(w.app, {
      method: 'GET',
      url: '/api/SeguridadConfiguracionLogeo/obtenerTodos',
      token: admin.accessToken,
    });
    const double = settingsList.body.result.find((s: { Descripcion: string }) => /DOBLE/.test(s.Descripcion));
    const res = await save(admin, {
      IdUsuario: 'autorizador',
      IdTipoDocumento: dni.IdTipoDocumento,
      Documento: '40123456',
      IdConfiguracionLogeo: double.IdConfiguracionLogeo,
      Telefono: '',
    });
    expect(res.status).toBe(200);
    expect(await stored('AUTORIZADOR')).toMatchObject({
      IdTipoDocumento: dni.IdTipoDocumento,
      Documento: '40123456',
      IdConfiguracionLogeo: double.IdConfiguracionLogeo,
      Telefono: null,
      IdUsuarioModificacion: 'ADMIN',
    });
    // A document that does not fit its type, a setting of nowhere, the sign-in name: refused.
    const bad = await save(admin, {
      IdUsuario: 'AUTORIZADOR',
      Documento: '12',
      IdConfiguracionLogeo: 999_999,
    });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.errors).sort()).toEqual(['Documento', 'IdConfiguracionLogeo']);
    const renamed = await save(admin, { IdUsuario: 'AUTORIZADOR', Nombre: 'JORGE' });
    expect(renamed.status).toBe(200);
    // The administrator does not switch their own user off.
    const self = await save(admin, { Activo: 'N' });
    expect(self.status).toBe(400);
    expect(self.body.errors.Activo.messageKey).toBe('security.ownInactive');
    expect((await stored('ADMIN')).Activo).toBe('S');
    const missing = await save(admin, { IdUsuario: 'NADIE', Nombre: 'X' });
    expect(missing.status).toBe(404);
    expect(missing.body.message).toContain('NADIE');
  });

  it('lets an administrator set a new user’s password, changed at the first sign-in, and nobody else', async () => {
    const created = await call(w.app, {
      method: 'POST',
      url: '/api/rest/user',
      token: admin.accessToken,
      payload: {
        IdUsuario: 'NUEVA',
        Nombre: 'Elena',
        Apellido: 'Paredes',
        Correo: 'elena.paredes@minandes.com.pe',
      },
    });
    expect(created.status).toBe(201);
    const assigned = await call(w.app, {
      method: 'POST',
      url: '/api/rest/user-profile',
      token: admin.accessToken,
      payload: {
        IdUsuario: 'NUEVA',
        IdPerfil: authoriser.perfil.IdPerfil,
        IdDivision: authoriser.perfil.IdDivision,
      },
    });
    expect(assigned.status).toBe(201);
    const password = 'Cordillera#2026';
    const mailsBefore = w.t.mail.length;

    expect((await setPassword(requester, { IdUsuario: 'NUEVA', Clave: password })).status).toBe(403);
    expect((await setPassword(authoriser, { IdUsuario: 'NUEVA', Clave: password })).status).toBe(403);
    const weak = await setPassword(admin, { IdUsuario: 'NUEVA', Clave: 'abc' });
    expect(weak.status).toBe(400);
    expect(weak.body.errors.Clave.messageKey).toBe('password.tooShort');
    const named = await setPassword(admin, { IdUsuario: 'NUEVA', Clave: 'Nueva#2026x' });
    expect(named.body.errors.Clave.messageKey).toBe('password.containsUser');
    const unknown = await setPassword(admin, { IdUsuario: 'NADIE', Clave: password });
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe('There is no user NADIE in this client.');
    const empty = await setPassword(admin, {});
    expect(empty.status).toBe(400);
    expect(Object.keys(empty.body.errors).sort()).toEqual(['Clave', 'IdUsuario']);
    const own = await setPassword(admin, { IdUsuario: 'ADMIN', Clave: password });
    expect(own.status).toBe(400);

    const set = await setPassword(admin, { IdUsuario: 'nueva', Clave: password });
    expect(set.status).toBe(200);
    expect(set.body.result.id).toBe(0);
    expect((await stored('NUEVA')).PrimeraClaveCambiada).toBe('N');
    const login = await authenticate(w.app, 'NUEVA', password);
    expect(login.status).toBe(200);
    expect(login.body.result.primeraClaveCambiada).toBe('N');
    // The password is in no message, the outbox or the audit trail.
    expect(w.t.mail.slice(mailsBefore).some((m) => JSON.stringify(m).includes(password))).toBe(false);
    for (const resource of ['outbox', 'audit']) {
      const rows = await w.t.db.database.db
        .selectFrom(w.registry.require(resource).table)
        .selectAll()
        .execute();
      expect(JSON.stringify(rows).includes(password), resource).toBe(false);
    }
    // The same password again is one used before.
    expect((await setPassword(admin, { IdUsuario: 'NUEVA', Clave: password })).body.result.id).toBe(2);
  });

  it('ends the sessions of a user whose password an administrator sets', async () => {
    const session = await signIn(w.app, 'IDENTIFICACION');
    expect((await obtain(session)).status).toBe(200);
    const set = await setPassword(admin, { IdUsuario: 'IDENTIFICACION', Clave: 'Credencial#77' });
    expect(set.status).toBe(200);
    expect((await obtain(session)).status).toBe(401);
    expect((await authenticate(w.app, 'IDENTIFICACION', DEMO_PASSWORD)).status).not.toBe(200);
  });
});
