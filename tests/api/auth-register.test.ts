import { describe, expect, it } from 'vitest';
import { DEMO_PASSWORD } from '../../src/server/demo/security.js';
import { type CallOptions, call, listUrl, signIn } from '../support/app.js';
import { authenticate, codeIn, freshAddress, lastMessage, MINUTE, testClock } from '../support/auth.js';
import { DIALECTS } from '../support/databases.js';
import { world } from '../support/world.js';

describe.each(DIALECTS)('forgot-password and register on %s', (dialect) => {
  let admin: string;
  let requester: string;
  let authoriserProfile: number;
  let division: number;
  const clock = testClock();
  const api = async (options: CallOptions) => {
    const res = await call(w.app, { token: admin, ...options });
    if (res.status !== 401) return res;
    admin = (await signIn(w.app, 'ADMIN')).accessToken;
    return call(w.app, { token: admin, ...options });
  };
  const forgot = (payload: object, remoteAddress = freshAddress()) =>
    call(w.app, { method: 'POST', url: '/api/auth/forgot-password', remoteAddress, payload });
  const recover = (payload: object) =>
    call(w.app, {
      method: 'POST',
      url: '/api/SeguridadCodigoAutenticacion/RecuperarClave',
      remoteAddress: freshAddress(),
      payload,
    });
  const register = (payload: unknown, token = admin) =>
    call(w.app, { method: 'POST', url: '/api/auth/register', token, payload: payload as object });

  /** What a refused registration must leave untouched: users, assignments, audit, outbox, mail. */
  const footprint = async () => {
    const db = w.app.database.db;
    const count = async (table: string) =>
      Number(
        (
          (await db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()) as { n: number | string }
        ).n,
      );
    return {
      users: await count(w.registry.require('user').table),
      assignments: await count(w.registry.require('user-profile').table),
      audit: await count(w.registry.require('audit').table),
      outbox: await count('security_outbox'),
      mail: w.t.mail.length,
    };
  };

  const w = world(dialect, {
    auth: { now: clock.now },
    users: { admin: 'ADMIN', requester: 'SOLICITANTE' },
    ready: async () => {
      admin = w.signedIn.admin.accessToken;
      requester = w.signedIn.requester.accessToken;
      authoriserProfile = (
        await api({ method: 'GET', url: listUrl('profile', { filter: { q: 'AUTORIZADOR' } }) })
      ).body[0].id;
      division = (await api({ method: 'GET', url: listUrl('division', { filter: { q: 'SAN GABRIEL' } }) }))
        .body[0].id;
    },
  });

  describe('POST /api/auth/forgot-password', () => {
    it('sends a 6-digit code, and RecuperarClave completes the change with it', async () => {
      const sent = await forgot({ username: 'autorizador', email: 'AUTORIZADOR@minandes.com.pe' });
      expect(sent.status).toBe(200);
      expect(sent.body.result).toEqual({ enviado: true, longitudClave: 8, nivelSeguridadClave: 'A' });
      const mail = await lastMessage(w.app, 'AUTORIZADOR');
      expect(mail.Destinatario).toBe('autorizador@minandes.com.pe');
      const code = codeIn(mail.Cuerpo, 6);

      expect((await recover({ Usuario: 'AUTORIZADOR', Codigo: code })).body.result).toMatchObject({
        valido: true,
      });
      const done = await recover({
        Usuario: 'AUTORIZADOR',
        Codigo: code,
        NuevaContrasenia: 'Ilabaya#Valle4',
      });
      expect(done.body.result).toMatchObject({ id: 0, mensaje: 'password.changed' });
      expect((await authenticate(w.app, 'AUTORIZADOR', DEMO_PASSWORD)).status).toBe(401);
      expect((await authenticate(w.app, 'AUTORIZADOR', 'Ilabaya#Valle4')).status).toBe(200);
    });

    it('takes RecuperarClave’s own field names too', async () => {
      const sent = await forgot({ Usuario: 'SUPERVISOR', Identificador: 'supervisor@minandes.com.pe' });
      const theirs = await recover({ Usuario: 'SUPERVISOR', Identificador: 'supervisor@minandes.com.pe' });
      expect(sent.status).toBe(200);
      expect(sent.body).toEqual(theirs.body);
      expect(sent.body.result).toMatchObject({ enviado: true });
      expect(codeIn((await lastMessage(w.app, 'SUPERVISOR')).Cuerpo, 6)).toMatch(/^\d{6}$/);
    });

    it('refuses a name and e-mail that do not match as RecuperarClave does, and sends nothing', async () => {
      const before = w.t.mail.length;
      const mismatch = await forgot({ username: 'AUTORIZADOR', email: 'otro@correo.com' });
      const theirs = await recover({ Usuario: 'AUTORIZADOR', Identificador: 'otro@correo.com' });
      expect(mismatch.status).toBe(400);
      expect(mismatch.body).toEqual(theirs.body);
      expect(mismatch.body.messageKey).toBe('recovery.mismatch');
      const unknown = await forgot({ username: 'NADIE', email: 'nadie@minandes.com.pe' });
      expect(unknown.status).toBe(400);
      expect(unknown.body.messageKey).toBe('recovery.mismatch');
      const missing = await forgot({ email: 'autorizador@minandes.com.pe' });
      expect(missing.status).toBe(400);
      expect(missing.body.errors.Usuario.messageKey).toBe('validation.required');
      expect(w.t.mail.length).toBe(before);
    });

    it('is throttled per user name like the sign-in', async () => {
      const statuses: number[] = [];
      for (let i = 0; i < 11; i++)
        statuses.push((await forgot({ username: 'ACOSADO', email: 'acosado@correo.com' })).status);
      expect(statuses.slice(0, 10).every((s) => s === 400)).toBe(true);
      expect(statuses[10]).toBe(429);
      // The name is spent for RecuperarClave too: one throttle for both.
      expect((await recover({ Usuario: 'ACOSADO', Identificador: 'acosado@correo.com' })).status).toBe(429);
      clock.advance(MINUTE + 1);
      expect((await forgot({ username: 'ACOSADO', email: 'acosado@correo.com' })).status).toBe(400);
    });
  });

  describe('POST /api/auth/register', () => {
    const newcomer = {
      IdUsuario: 'registrada',
      Nombre: 'Lucía',
      Apellido: 'Quispe',
      Correo: 'lucia.quispe@minandes.com.pe',
    };

    it('registers a user of the administrator’s client, who gets a temporary password to change', async () => {
      const res = await register({
        ...newcomer,
        // The e-mailed password is always changed first, whatever the body says.
        PrimeraClaveCambiada: 'S',
        perfiles: [{ IdPerfil: authoriserProfile, IdDivision: division, PorDefecto: 'S' }],
      });
      expect(res.status).toBe(200);
      expect(res.body.result.usuario).toMatchObject({
        IdUsuario: 'REGISTRADA',
        Nombre: 'LUCÍA',
        PrimeraClaveCambiada: 'N',
        Activo: 'S',
      });
      expect(res.body.result.usuario.IdCliente).toBeTypeOf('number');
      expect(res.body.result.perfiles).toHaveLength(1);
      expect(res.body.result.perfiles[0]).toMatchObject({
        IdUsuario: 'REGISTRADA',
        IdPerfil: authoriserProfile,
      });

      const mail = await lastMessage(w.app, 'REGISTRADA', /Clave temporal/);
      expect(mail.Destinatario).toBe('lucia.quispe@minandes.com.pe');
      const temporary = /Clave temporal: (\S+)/.exec(mail.Cuerpo)?.[1] as string;
      expect(JSON.stringify(res.body)).not.toContain(temporary);
      const outbox = (await w.app.database.db
        .selectFrom('security_outbox')
        .select(['IdUsuario', 'Cuerpo'])
        .where('IdUsuario', '=', 'REGISTRADA')
        .execute()) as Array<{ Cuerpo: string }>;
      expect(outbox.length).toBeGreaterThan(0);
      for (const row of outbox) expect(row.Cuerpo).not.toContain(temporary);

      // Audited as the users screen's creations are.
      const audit = (await w.app.database.db
        .selectFrom(w.registry.require('audit').table)
        .select(['Recurso', 'Operacion', 'IdUsuario'])
        .where('IdRegistro', '=', 'REGISTRADA')
        .execute()) as Array<{ Recurso: string; Operacion: string; IdUsuario: string }>;
      expect(audit).toContainEqual({ Recurso: 'user', Operacion: 'C', IdUsuario: 'ADMIN' });

      // The first sign-in must change the temporary password before any profile.
      const login = await authenticate(w.app, 'REGISTRADA', temporary);
      expect(login.status).toBe(200);
      expect(login.body.result.primeraClaveCambiada).toBe('N');
      const token = login.body.result.accessToken;
      const blocked = await call(w.app, {
        method: 'POST',
        url: '/api/usuario/refreshTokenbyperfil',
        token,
        payload: { idPerfil: authoriserProfile },
      });
      expect(blocked.status).toBe(403);
      expect(blocked.body.messageKey).toBe('password.firstChange');
      const changed = await call(w.app, {
        method: 'POST',
        url: '/api/SeguridadusuarioClave/actualizar',
        token,
        payload: { Clave: 'Candarave#Lago5' },
      });
      expect(changed.body.result).toEqual({ id: 0, mensaje: 'password.changed' });
      const session = await signIn(w.app, 'REGISTRADA', { password: 'Candarave#Lago5' });
      expect(session.perfil).toMatchObject({ IdPerfil: authoriserProfile });
    });

    it('answers 403 to a profile that may not create users, and writes nothing', async () => {
      const before = await footprint();
      const res = await register({ ...newcomer, IdUsuario: 'INTRUSA' }, requester);
      expect(res.status).toBe(403);
      expect(await footprint()).toEqual(before);
      expect(
        (await call(w.app, { method: 'POST', url: '/api/auth/register', payload: newcomer })).status,
      ).toBe(401);
    });

    it('answers 409 to an existing user id, and writes nothing', async () => {
      const before = await footprint();
      const res = await register({ ...newcomer, Correo: 'otra@minandes.com.pe' });
      expect(res.status).toBe(409);
      expect(res.body.errors.IdUsuario.messageKey).toBe('validation.duplicate');
      expect(await footprint()).toEqual(before);
    });

    it('answers 400 with the users screen’s field messages, and writes nothing', async () => {
      const before = await footprint();
      const bad = { ...newcomer, IdUsuario: 'MALCORREO', Correo: 'no-es-un-correo' };
      const res = await register(bad);
      expect(res.status).toBe(400);
      const screen = await api({ method: 'POST', url: '/api/rest/user', payload: bad });
      expect(screen.status).toBe(400);
      expect(res.body.errors.Correo).toEqual(screen.body.errors.Correo);
      expect(res.body.errors.Correo.message).toBeTruthy();

      const noMail = await register({ ...newcomer, IdUsuario: 'SINCORREO', Correo: undefined });
      expect(noMail.status).toBe(400);
      expect(noMail.body.errors.Correo.messageKey).toBe('validation.required');
      const spanish = await call(w.app, {
        method: 'POST',
        url: '/api/auth/register',
        token: admin,
        headers: { 'accept-language': 'es' },
        payload: { ...newcomer, IdUsuario: 'SINCORREO', Correo: undefined },
      });
      expect(spanish.body.errors.Correo.message).not.toBe(noMail.body.errors.Correo.message);

      const badProfile = await register({
        ...newcomer,
        IdUsuario: 'SINPERFIL',
        perfiles: [{ IdPerfil: 999_999, IdDivision: division }],
      });
      expect(badProfile.status).toBe(400);
      expect(badProfile.body.errors.IdPerfil.messageKey).toBe('validation.referenceMissing');
      const notAList = await register({ ...newcomer, IdUsuario: 'SINLISTA', perfiles: 'todos' });
      expect(notAList.status).toBe(400);
      const twice = await register({
        ...newcomer,
        IdUsuario: 'DOBLE',
        perfiles: [
          { IdPerfil: authoriserProfile, IdDivision: division },
          { IdPerfil: authoriserProfile, IdDivision: division },
        ],
      });
      expect(twice.status).toBe(409);
      for (const body of [null, [], 'texto', { ...newcomer, IdUsuario: 'X' }, { ...newcomer, Extra: 1 }]) {
        const res = await register(body);
        expect(res.status, JSON.stringify(body)).toBeGreaterThanOrEqual(400);
        expect(res.status, JSON.stringify(body)).toBeLessThan(500);
      }
      expect(await footprint()).toEqual(before);
    });
  });
});
