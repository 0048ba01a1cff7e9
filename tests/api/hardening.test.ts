import { beforeEach, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD } from '../../src/server/demo/security.js';
import { TOKEN_HEADERS } from '../../src/shared/session.js';
import { call, listUrl, signIn } from '../support/app.js';
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
import { world } from '../support/world.js';

const SECOND = 1000;

/**
 * The findings of the security review of the sign-in, passwords, tenancy and bad input, each
 * tried as the attacker did, on both databases.
 */
describe.each(DIALECTS)('security review findings on %s', (dialect) => {
  const clock = testClock();
  let admin: string;
  let supervisorProfile: { IdPerfil: number; IdDivision: number };
  let newcomer: { password: string; profile: number; division: number };

  const post = (url: string, payload: object, token?: string) =>
    call(w.app, { method: 'POST', url, payload, token, remoteAddress: freshAddress() });

  const w = world(dialect, {
    auth: { now: clock.now },
    users: { admin: 'ADMIN' },
    ready: async () => {
      admin = w.signedIn.admin.accessToken;
      const login = await authenticate(w.app, 'SUPERVISOR');
      supervisorProfile = login.body.result.division[0];
      // A new user with a temporary password, as the administrator creates one.
      const profile = (
        await call(w.app, { url: listUrl('profile', { filter: { q: 'AUTORIZADOR' } }), token: admin })
      ).body[0].id;
      const division = (
        await call(w.app, { url: listUrl('division', { filter: { q: 'SAN GABRIEL' } }), token: admin })
      ).body[0].id;
      const user = await post(
        '/api/rest/user',
        { IdUsuario: 'TEMPORAL', Nombre: 'Luz', Apellido: 'Quispe', Correo: 'luz@minandes.com.pe' },
        admin,
      );
      expect(user.status, JSON.stringify(user.body)).toBe(201);
      const assigned = await post(
        '/api/rest/user-profile',
        { IdUsuario: 'TEMPORAL', IdPerfil: profile, IdDivision: division },
        admin,
      );
      expect(assigned.status, JSON.stringify(assigned.body)).toBe(201);
      const temporary = /Clave temporal: (\S+)/.exec(
        (await lastMessage(w.app, 'TEMPORAL', /Clave temporal/)).Cuerpo,
      )?.[1] as string;
      newcomer = { password: temporary, profile, division };
    },
  });
  // Tests move the clock on: each starts with an administrator's token of its own time.
  beforeEach(async () => {
    admin = (await signIn(w.app, 'ADMIN')).accessToken;
  });

  describe('1 and 2: every path from a password to a session passes the login steps', () => {
    it('refreshTokenPassword refuses a user whose setting asks for a code (08), and opens no session', async () => {
      const res = await post('/api/usuario/refreshTokenPassword', {
        username: 'SUPERVISOR',
        password: DEMO_PASSWORD,
        idPerfil: supervisorProfile.IdPerfil,
        idDivision: supervisorProfile.IdDivision,
      });
      expect(res.status).toBe(400);
      expect(res.body.params.codigo).toBe('08');
      expect(res.body.result).toBeUndefined();
    });

    it('unlock without the lock’s ticket refuses it too', async () => {
      const res = await post('/api/usuario/unlock', {
        idUsuario: 'SUPERVISOR',
        password: DEMO_PASSWORD,
        idPerfil: supervisorProfile.IdPerfil,
        idDivision: supervisorProfile.IdDivision,
      });
      expect(res.status).toBe(400);
      expect(res.body.params.codigo).toBe('08');
    });

    it('a session that gave its code locks and unlocks with the ticket and the password', async () => {
      await authenticate(w.app, 'SUPERVISOR');
      const code = codeIn((await lastMessage(w.app, 'SUPERVISOR')).Cuerpo, 4);
      const validated = await post('/api/usuario/validatelogin', { username: 'SUPERVISOR', codigo: code });
      const chosen = await post(
        '/api/usuario/refreshTokenbyperfil',
        { idPerfil: supervisorProfile.IdPerfil, idDivision: supervisorProfile.IdDivision },
        validated.body.result.accessToken,
      );
      const { accessToken, refreshToken } = chosen.body.result;
      const locked = await post('/api/usuario/lock', {}, accessToken);
      expect(locked.status).toBe(200);
      const ticket = locked.body.result.ticket as string;
      // The refresh token no longer renews anything while the screen is locked.
      clock.advance(16 * MINUTE);
      const renewal = await call(w.app, {
        url: '/api/meta',
        token: accessToken,
        headers: { [TOKEN_HEADERS.refresh]: refreshToken },
      });
      expect(renewal.headers[TOKEN_HEADERS.action]).toBe('logout');
      // The ticket is no refresh token either.
      const asRefresh = await call(w.app, {
        url: '/api/meta',
        token: accessToken,
        headers: { [TOKEN_HEADERS.refresh]: ticket },
      });
      expect(asRefresh.headers[TOKEN_HEADERS.action]).toBe('logout');
      const wrong = await post('/api/usuario/unlock', {
        idUsuario: 'SUPERVISOR',
        password: 'Equivocada#2026',
        idPerfil: supervisorProfile.IdPerfil,
        ticket,
      });
      expect(wrong.status).toBe(401);
      const unlocked = await post('/api/usuario/unlock', {
        idUsuario: 'SUPERVISOR',
        password: DEMO_PASSWORD,
        idPerfil: supervisorProfile.IdPerfil,
        idDivision: supervisorProfile.IdDivision,
        ticket,
      });
      expect(unlocked.status).toBe(200);
      expect(unlocked.body.result.perfil.IdDivision).toBe(supervisorProfile.IdDivision);
      expect((await call(w.app, { url: '/api/meta', token: unlocked.body.result.accessToken })).status).toBe(
        200,
      );
      // A ticket opens once.
      const again = await post('/api/usuario/unlock', {
        idUsuario: 'SUPERVISOR',
        password: DEMO_PASSWORD,
        idPerfil: supervisorProfile.IdPerfil,
        ticket,
      });
      expect(again.status).toBe(401);
      expect(again.body.messageKey).toBe('lock.ticketInvalid');
      await unlockUser(w.app, 'SUPERVISOR');
    });

    it('a temporary password opens no session through refreshTokenPassword or unlock', async () => {
      for (const [url, user] of [
        ['/api/usuario/refreshTokenPassword', 'username'],
        ['/api/usuario/unlock', 'idUsuario'],
      ]) {
        const res = await post(url, {
          [user]: 'TEMPORAL',
          password: newcomer.password,
          idPerfil: newcomer.profile,
          idDivision: newcomer.division,
        });
        expect(res.status, `${url}: ${JSON.stringify(res.body)}`).toBe(403);
        expect(res.body.messageKey, url).toBe('password.firstChange');
      }
    });

    it('an expired password opens no session through refreshTokenPassword either', async () => {
      await w.t.db.database.db
        .updateTable('security_user')
        .set({ FechaCaducidadClave: new Date(clock.now() - MINUTE).toISOString() })
        .where('IdUsuario', '=', 'AUTORIZADOR')
        .execute();
      const login = await authenticate(w.app, 'AUTORIZADOR');
      const res = await post('/api/usuario/refreshTokenPassword', {
        username: 'AUTORIZADOR',
        password: DEMO_PASSWORD,
        idPerfil: login.body.result.division[0].IdPerfil,
      });
      expect(res.status).toBe(403);
      expect(res.body.messageKey).toBe('password.expired');
      await w.t.db.database.db
        .updateTable('security_user')
        .set({ FechaCaducidadClave: new Date(clock.now() + 90 * 24 * 60 * MINUTE).toISOString() })
        .where('IdUsuario', '=', 'AUTORIZADOR')
        .execute();
    });
  });

  describe('3: a password changes only with the current one, outside the forced step', () => {
    it('a working session’s token alone cannot change the password', async () => {
      const session = await signIn(w.app, 'SOLICITANTE');
      const bare = await post(
        '/api/SeguridadusuarioClave/actualizar',
        { Clave: 'Tomada#Cuenta2026' },
        session.accessToken,
      );
      expect(bare.status).toBe(400);
      expect(bare.body.errors.ClaveAnterior.messageKey).toBe('password.previousRequired');
      const wrong = await post(
        '/api/SeguridadusuarioClave/actualizar',
        { Clave: 'Tomada#Cuenta2026', ClaveAnterior: 'NoEsLaClave#1' },
        session.accessToken,
      );
      expect(wrong.status).toBe(400);
      expect(wrong.body.errors.ClaveAnterior.messageKey).toBe('password.previousWrong');
      // The demo password still works.
      expect((await authenticate(w.app, 'SOLICITANTE')).status).toBe(200);
    });

    it('nor can a fresh sign-in whose password is not due for a change', async () => {
      const login = await authenticate(w.app, 'SOLICITANTE');
      const res = await post(
        '/api/SeguridadusuarioClave/actualizar',
        { Clave: 'Tomada#Cuenta2026' },
        login.body.result.accessToken,
      );
      expect(res.status).toBe(400);
      expect(res.body.errors.ClaveAnterior.messageKey).toBe('password.previousRequired');
    });

    it('the forced step changes a temporary password without the current one, minutes after the sign-in', async () => {
      const login = await authenticate(w.app, 'TEMPORAL', newcomer.password);
      expect(login.status, JSON.stringify(login.body)).toBe(200);
      clock.advance(16 * MINUTE);
      const late = await post(
        '/api/SeguridadusuarioClave/actualizar',
        { Clave: 'Nueva#Clave2026' },
        login.body.result.accessToken,
      );
      // The access token expired with the step: the sign-in starts again.
      expect(late.status).toBe(401);
      const again = await authenticate(w.app, 'TEMPORAL', newcomer.password);
      const changed = await post(
        '/api/SeguridadusuarioClave/actualizar',
        { Clave: 'Nueva#Clave2026' },
        again.body.result.accessToken,
      );
      expect(changed.status).toBe(200);
      expect(changed.body.result.id).toBe(0);
    });
  });

  describe('5: numbers beyond the columns, NUL characters and huge strings are a 400', () => {
    it('answers 400 for an id, a filter or a body integer beyond the column’s range', async () => {
      const get = (url: string) => call(w.app, { url, token: admin });
      expect((await get('/api/rest/person/2147483648')).status).toBe(400);
      expect((await get('/api/rest/person/-2147483649')).status, 'negative').toBe(400);
      expect((await get('/api/rest/person/99999999999999999999')).status).toBe(400);
      expect((await get(listUrl('person', { filter: { IdCompania: 2147483648 } }))).status).toBe(400);
      expect((await get(listUrl('person', { filter: { id: [1, 2 ** 53] } }))).status).toBe(400);
      expect((await get('/api/sistemapais/obtenerTodos?IdPais=PE')).status).toBe(200);
      expect((await get('/api/sistemadivision/obtenerTodos?IdDivision=2147483648')).status, 'lookup').toBe(
        400,
      );
      const person = (await get(listUrl('person', { range: [0, 0] }))).body[0];
      const res = await call(w.app, {
        method: 'PUT',
        url: `/api/rest/person/${person.id}`,
        token: admin,
        payload: { ...person, NumeroHijos: 2147483648 },
      });
      expect(res.status).toBe(400);
      expect(res.body.errors.NumeroHijos).toBeDefined();
      const set = await post('/api/rest/access-group', { Grupo: 'X', Puertas: [2147483648] }, admin);
      expect(set.status).toBe(400);
    });

    it('refuses a NUL character in any text, on the public calls too', async () => {
      for (const [url, payload] of [
        ['/api/usuario/authenticate', { username: 'A\u0000', password: 'x' }],
        ['/api/usuario/resendcode', { username: 'A\u0000' }],
        ['/api/usuario/validatelogin', { username: 'ADMIN', codigo: '1\u00002' }],
        ['/api/SeguridadCodigoAutenticacion/RecuperarClave', { Usuario: 'ADMIN\u0000' }],
      ] as const) {
        const res = await post(url, payload);
        expect(res.status, url).toBe(400);
        expect(res.body.messageKey, url).toBe('validation.nulCharacter');
      }
      const res = await post('/api/rest/country', { IdPais: 'ZZ', Pais: 'ZE\u0000TA' }, admin);
      expect(res.status).toBe(400);
      const query = await call(w.app, {
        url: `/api/rest/country?filter=${encodeURIComponent('{"q":"A\u0000"}')}`,
        token: admin,
      });
      expect(query.status).toBe(400);
    });

    it('refuses a 500 000-character user name on resendcode', async () => {
      const res = await post('/api/usuario/resendcode', { username: 'A'.repeat(500_000) });
      expect(res.status).toBe(400);
    });

    it('refuses absurdly nested input', async () => {
      let deep: unknown = 'x';
      for (let i = 0; i < 200; i++) deep = { a: deep };
      const res = await post('/api/rest/country', { IdPais: 'ZY', Pais: 'ZETA', deep }, admin);
      expect(res.status).toBe(400);
    });
  });

  describe('6: codes and temporary passwords are kept nowhere but in the message sent', () => {
    it('masks them in the outbox', async () => {
      await authenticate(w.app, 'SUPERVISOR');
      const sent = await lastMessage(w.app, 'SUPERVISOR');
      const code = codeIn(sent.Cuerpo, 4);
      const outbox = (await w.t.db.database.db
        .selectFrom('security_outbox')
        .select(['IdUsuario', 'Cuerpo'])
        .execute()) as Array<{ IdUsuario: string; Cuerpo: string }>;
      const supervisor = outbox.filter((m) => m.IdUsuario === 'SUPERVISOR').at(-1);
      expect(supervisor?.Cuerpo).toContain('••••••');
      expect(supervisor?.Cuerpo).not.toContain(code);
      const temporal = outbox.find((m) => m.IdUsuario === 'TEMPORAL');
      expect(temporal?.Cuerpo).not.toContain(newcomer.password);
      // And the administrator's outbox screen shows the masked text.
      const listed = await call(w.app, { url: listUrl('outbox', { range: [0, 999] }), token: admin });
      for (const message of listed.body as Array<{ Cuerpo: string }>)
        expect(message.Cuerpo).not.toMatch(/\b\d{4}\b/);
      await unlockUser(w.app, 'SUPERVISOR');
    });
  });

  describe('7: security headers', () => {
    it('sends a content security policy and the other headers on every answer', async () => {
      for (const url of ['/api/health', '/api/rest/country', '/api/docs']) {
        const res = await call(w.app, { url, token: admin });
        const csp = String(res.headers['content-security-policy']);
        expect(csp, url).toContain("default-src 'self'");
        expect(csp, url).toContain("frame-ancestors 'none'");
        expect(csp, url).not.toMatch(/script-src[^;]*unsafe-inline/);
        expect(res.headers['x-content-type-options'], url).toBe('nosniff');
        expect(res.headers['referrer-policy'], url).toBe('same-origin');
      }
    });
  });

  describe('8: parallel renewals', () => {
    it('six requests renewing with the same refresh token all go on; a reuse later still ends the session', async () => {
      const session = await signIn(w.app, 'ADMIN');
      clock.advance(16 * MINUTE);
      const answers = await Promise.all(
        Array.from({ length: 6 }, () =>
          call(w.app, {
            url: '/api/rest/country',
            token: session.accessToken,
            headers: { [TOKEN_HEADERS.refresh]: session.refreshToken },
          }),
        ),
      );
      expect(answers.map((a) => a.headers[TOKEN_HEADERS.action])).toEqual(Array(6).fill('retry'));
      const rotated = answers.filter((a) => a.headers[TOKEN_HEADERS.newRefresh]);
      expect(rotated).toHaveLength(1);
      for (const answer of answers) {
        const replay = await call(w.app, {
          url: '/api/rest/country',
          token: String(answer.headers[TOKEN_HEADERS.newAccess]),
        });
        expect(replay.status).toBe(200);
      }
      // Past the grace, the same old refresh token is a theft: the session ends.
      clock.advance(11 * SECOND);
      const reuse = await call(w.app, {
        url: '/api/rest/country',
        token: session.accessToken,
        headers: { [TOKEN_HEADERS.refresh]: session.refreshToken },
      });
      expect(reuse.headers[TOKEN_HEADERS.action]).toBe('logout');
      const after = await call(w.app, {
        url: '/api/rest/country',
        token: String(rotated[0].headers[TOKEN_HEADERS.newAccess]),
      });
      expect(after.status).toBe(401);
    });
  });

  describe('9: user names cannot be told apart by the answers', () => {
    it('validatelogin answers an unknown user as a known one with a wrong code', async () => {
      const unknown = await post('/api/usuario/validatelogin', { username: 'NADIE', codigo: '1234' });
      await authenticate(w.app, 'SUPERVISOR');
      const known = await post('/api/usuario/validatelogin', { username: 'SUPERVISOR', codigo: '0000' });
      expect(unknown.status).toBe(known.status);
      expect(unknown.body.messageKey).toBe(known.body.messageKey);
      expect(unknown.body.params).toEqual(known.body.params);
      await unlockUser(w.app, 'SUPERVISOR');
    });
  });

  describe('10: lookups follow the menu, but for declared reference data', () => {
    it('a contractor reads reference data, but not functions, holidays or other screens’ field rules', async () => {
      const requester = (await signIn(w.app, 'SOLICITANTE')).accessToken;
      const get = (url: string) => call(w.app, { url, token: requester });
      // The lookup answers as the REST resource does: the menu's grant, whatever it is.
      for (const [rest, lookup] of [
        ['function', 'AdministracionFuncion'],
        ['holiday', 'AdministracionFeriado'],
      ]) {
        const status = (await get(`/api/rest/${rest}`)).status;
        expect((await get(`/api/${lookup}/obtenerTodos`)).status, lookup).toBe(status);
        expect((await get(`/api/${lookup}/filtrar`)).status, lookup).toBe(status);
      }
      expect((await get('/api/rest/holiday')).status).toBe(403);
      expect((await get('/api/sistemapais/obtenerTodos')).status).toBe(200);
      expect((await get('/api/sistematipodocumento/obtenerTodos')).status).toBe(200);
      // Field rules: those of the screens the profile opens, none of the others.
      const rule = { IdDato: 'camp', Campo: 'Ubicacion', Obligatorio: 'S', Modificable: 'S', Activo: 'S' };
      expect((await post('/api/rest/field-rule', rule, admin)).status).toBe(201);
      expect(
        (await post('/api/rest/field-rule', { ...rule, IdDato: 'person', Campo: 'Alergia' }, admin)).status,
      ).toBe(201);
      const rules = (await get('/api/SistemaReglaCampo/obtenerTodos')).body.result as Array<{
        IdDato: string;
      }>;
      expect(rules.map((r) => r.IdDato)).toContain('person');
      expect(rules.map((r) => r.IdDato)).not.toContain('camp');
      expect((await get('/api/SistemaReglaCampo/obtenerTodos?IdDato=camp')).body.result).toEqual([]);
    });

    it('another profile’s characteristics and every login setting are for those who keep them', async () => {
      const session = await signIn(w.app, 'SOLICITANTE');
      const get = (url: string) => call(w.app, { url, token: session.accessToken });
      const own = await get(`/api/SeguridadPerfilCaracteristica/listar?IdPerfil=${session.perfil.IdPerfil}`);
      expect(own.status).toBe(200);
      const other = await get(
        `/api/SeguridadPerfilCaracteristica/listar?IdPerfil=${session.perfil.IdPerfil + 1}`,
      );
      expect(other.status).toBe(403);
      const settings = (await get('/api/SeguridadConfiguracionLogeo/obtenerTodos')).body.result as unknown[];
      expect(settings).toHaveLength(1);
      const all = (await call(w.app, { url: '/api/SeguridadConfiguracionLogeo/obtenerTodos', token: admin }))
        .body.result as unknown[];
      expect(all.length).toBeGreaterThan(1);
    });
  });
});
