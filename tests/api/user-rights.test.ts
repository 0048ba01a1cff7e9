import { describe, expect, it } from 'vitest';
import { DEMO_PASSWORD } from '../../src/server/demo/security.js';
import { SYSTEM_PRINCIPAL } from '../../src/server/plugins/auth.js';
import type { Principal } from '../../src/server/principal.js';
import { type CallOptions, call, listUrl, menuIdOf, signIn } from '../support/app.js';
import { authenticate } from '../support/auth.js';
import { DIALECTS } from '../support/databases.js';
import { world } from '../support/world.js';

const PASSWORD = 'Moquegua#Gestor1';

/**
 * Every write path of users and profile assignments, as a user manager (a help desk's profile: the
 * users and profile-assignment screens only), an administrator and a super-administrator: nobody
 * hands on a profile or a flag they do not hold, nor writes a user who holds more than they do.
 */
describe.each(DIALECTS)('who may grant what to users on %s', (dialect) => {
  const ids: Record<string, number> = {};
  let atClient: Principal;

  const as = (who: string, options: CallOptions) => call(w.app, { token: tokens[who], ...options });
  const user = async (id: string) =>
    (await w.app.database.db
      .selectFrom('security_user')
      .selectAll()
      .where('IdUsuario', '=', id)
      .executeTakeFirst()) as Record<string, unknown> | undefined;
  const assignments = async (id: string) =>
    (await w.app.database.db
      .selectFrom(w.registry.require('user-profile').table)
      .select(['IdPerfil', 'IdDivision'])
      .where('IdUsuario', '=', id)
      .execute()) as Array<{ IdPerfil: number }>;
  const refusals = async (by: string) =>
    (await w.app.database.db
      .selectFrom(w.registry.require('audit').table)
      .selectAll()
      .where('IdUsuario', '=', by)
      .where('Operacion', '=', 'R')
      .execute()) as Array<{ Recurso: string; IdRegistro: string; Despues: string }>;
  const refused = (res: { status: number; body: { messageKey?: string } }, key: string) => {
    expect(res.status, JSON.stringify(res.body)).toBe(403);
    expect(res.body.messageKey).toBe(`security.rights.${key}`);
  };

  /** A user made as the product's own data is, with a known password and these profiles. */
  async function makeUser(IdUsuario: string, profiles: number[], fields: Record<string, unknown> = {}) {
    await w.app.crud.create(
      w.registry.require('user'),
      {
        IdUsuario,
        Nombre: 'PRUEBA',
        Apellido: 'DERECHOS',
        Correo: `${IdUsuario.toLowerCase()}@minandes.com.pe`,
        PrimeraClaveCambiada: 'S',
        ...fields,
      },
      atClient,
    );
    await w.app.auth.passwords.initialPassword(IdUsuario, PASSWORD, 'S');
    for (const IdPerfil of profiles)
      await w.app.crud.create(
        w.registry.require('user-profile'),
        { IdUsuario, IdPerfil, IdDivision: ids.division },
        atClient,
      );
  }

  async function makeProfile(Perfil: string, routes: string[]): Promise<number> {
    const profile = await w.app.crud.create(w.registry.require('profile'), { Perfil }, atClient);
    for (const route of routes) {
      await w.app.crud.create(
        w.registry.require('menu-profile'),
        { IdPerfil: profile.id, IdMenu: await menuIdOf(w.t, route) },
        atClient,
      );
    }
    return profile.id as number;
  }

  const w = world(dialect, {
    users: { ADMIN: 'ADMIN' },
    ready: async () => {
      const find = async (resource: string, q: string) =>
        (await as('ADMIN', { method: 'GET', url: listUrl(resource, { filter: { q } }) })).body[0]
          .id as number;
      ids.division = await find('division', 'SAN GABRIEL');
      ids.admin = await find('profile', 'ADMINISTRADOR DEL SISTEMA');
      ids.authoriser = await find('profile', 'AUTORIZADOR');
      atClient = { userId: SYSTEM_PRINCIPAL.userId, clientId: (await user('ADMIN'))?.IdCliente as number };
      ids.manager = await makeProfile('GESTOR DE USUARIOS', ['/user', '/user-profile']);
      ids.usersOnly = await makeProfile('CONSULTA DE USUARIOS', ['/user']);
      await makeUser('GESTOR', [ids.manager]);
      await makeUser('SUPERADMIN', [ids.admin], { SuperAdministrador: 'S', Administrador: 'S' });
      tokens.GESTOR = (await signIn(w.app, 'GESTOR', { password: PASSWORD })).accessToken;
      tokens.SUPERADMIN = (await signIn(w.app, 'SUPERADMIN', { password: PASSWORD })).accessToken;
    },
  });
  const { tokens } = w;

  it('a user manager cannot give itself, or anyone, a profile it does not hold', async () => {
    const before = await assignments('GESTOR');
    const own = await as('GESTOR', {
      method: 'POST',
      url: '/api/rest/user-profile',
      payload: { IdUsuario: 'GESTOR', IdPerfil: ids.admin, IdDivision: ids.division },
    });
    refused(own, 'profile');
    expect(own.body.message).toBe(
      'You cannot assign a profile with screens or functions that you do not hold yourself.',
    );
    expect(await assignments('GESTOR')).toEqual(before);
    const other = await as('GESTOR', {
      method: 'POST',
      url: '/api/rest/user-profile',
      payload: { IdUsuario: 'AUTORIZADOR', IdPerfil: ids.admin, IdDivision: ids.division },
    });
    // The authoriser holds screens the manager lacks: it is not the manager's to change at all.
    refused(other, 'holdsMore');
    // Turning its own assignment into another profile is the same grant.
    const [mine] = (
      await as('GESTOR', {
        method: 'GET',
        url: listUrl('user-profile', { filter: { IdUsuario: 'GESTOR' } }),
      })
    ).body;
    const turned = await as('GESTOR', {
      method: 'PUT',
      url: `/api/rest/user-profile/${mine.id}`,
      payload: { IdUsuario: 'GESTOR', IdPerfil: ids.authoriser, IdDivision: ids.division, Activo: 'S' },
    });
    refused(turned, 'profile');
    const trail = await refusals('GESTOR');
    expect(trail.filter((r) => r.Recurso === 'user-profile')).toHaveLength(3);
    expect(trail.map((r) => JSON.parse(r.Despues).IdPerfil).sort()).toEqual(
      [ids.admin, ids.admin, ids.authoriser].sort(),
    );
    // Spanish too.
    const es = await as('GESTOR', {
      method: 'POST',
      url: '/api/rest/user-profile',
      headers: { 'accept-language': 'es' },
      payload: { IdUsuario: 'GESTOR', IdPerfil: ids.admin, IdDivision: ids.division },
    });
    expect(es.body.message).toBe('No puede asignar un perfil con pantallas o funciones que usted no tiene.');
  });

  it('a user manager cannot set a flag it lacks on itself', async () => {
    const self = (await as('GESTOR', { method: 'GET', url: '/api/rest/user/GESTOR' })).body;
    const { id: _id, ...fields } = self;
    const put = (extra: object) =>
      as('GESTOR', { method: 'PUT', url: '/api/rest/user/GESTOR', payload: { ...fields, ...extra } });
    refused(await put({ SuperAdministrador: 'S' }), 'superAdministrator');
    refused(await put({ Administrador: 'S' }), 'administrator');
    expect(await user('GESTOR')).toMatchObject({ SuperAdministrador: 'N', Administrador: 'N' });
    // What it may change of its own record, it still may.
    const renamed = await put({ Nombre: 'GESTORA' });
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
  });

  it('a user manager who may not read health data lets no user read them, and an administrator who may, does', async () => {
    const self = (await as('GESTOR', { method: 'GET', url: '/api/rest/user/GESTOR' })).body;
    const { id: _id, ...fields } = self;
    const put = (who: string, extra: object) =>
      as(who, { method: 'PUT', url: '/api/rest/user/GESTOR', payload: { ...fields, ...extra } });
    refused(await put('GESTOR', { DatosSalud: 'S' }), 'sensitiveData');
    refused(await put('GESTOR', { DatosAntecedentes: 'S' }), 'sensitiveData');
    expect(await user('GESTOR')).toMatchObject({ DatosSalud: null, DatosAntecedentes: null });
    // Keeping someone from them is anyone's to do.
    expect((await put('GESTOR', { DatosSalud: 'N' })).status).toBe(200);
    const granted = await put('ADMIN', { DatosSalud: 'S' });
    expect(granted.status, JSON.stringify(granted.body)).toBe(200);
    expect(await user('GESTOR')).toMatchObject({ DatosSalud: 'S' });
    // Once held, it stays through the manager's own saves.
    expect((await put('GESTOR', { DatosSalud: 'S', Nombre: 'GESTORA' })).status).toBe(200);
  });

  it('a user manager sets neither the password nor the e-mail of a user who holds more', async () => {
    const password = await as('GESTOR', {
      method: 'POST',
      url: '/api/SeguridadusuarioClave/crear',
      payload: { IdUsuario: 'ADMIN', Clave: 'Tomada#Cuenta99' },
    });
    refused(password, 'holdsMore');
    expect((await authenticate(w.app, 'ADMIN', 'Tomada#Cuenta99')).status).toBe(401);
    expect((await authenticate(w.app, 'ADMIN', DEMO_PASSWORD)).status).toBe(200);

    const admin = (await as('GESTOR', { method: 'GET', url: '/api/rest/user/ADMIN' })).body;
    const { id: _id, ...fields } = admin;
    const email = await as('GESTOR', {
      method: 'PUT',
      url: '/api/rest/user/ADMIN',
      payload: { ...fields, Correo: 'gestor@minandes.com.pe.atacante.com' },
    });
    refused(email, 'holdsMore');
    const page = await as('GESTOR', {
      method: 'PUT',
      url: '/api/SeguridadusuarioLogin/actualizar',
      payload: { IdUsuario: 'ADMIN', Correo: 'otro@atacante.com' },
    });
    refused(page, 'holdsMore');
    expect((await user('ADMIN'))?.Correo).toBe('admin@minandes.com.pe');
    const removed = await as('GESTOR', {
      method: 'DELETE',
      url: `/api/rest/user-profile/${(await as('ADMIN', { method: 'GET', url: listUrl('user-profile', { filter: { IdUsuario: 'ADMIN' } }) })).body[0].id}`,
    });
    refused(removed, 'holdsMore');
    expect((await refusals('GESTOR')).map((r) => r.IdRegistro)).toContain('ADMIN');
  });

  it('a user manager makes users and hands on what it holds', async () => {
    const created = await as('GESTOR', {
      method: 'POST',
      url: '/api/rest/user',
      payload: {
        IdUsuario: 'AYUDANTE',
        Nombre: 'ROSA',
        Apellido: 'QUISPE',
        Correo: 'ayudante@minandes.com.pe',
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const granted = await as('GESTOR', {
      method: 'POST',
      url: '/api/rest/user-profile',
      payload: { IdUsuario: 'AYUDANTE', IdPerfil: ids.usersOnly, IdDivision: ids.division },
    });
    expect(granted.status, JSON.stringify(granted.body)).toBe(201);
    const password = await as('GESTOR', {
      method: 'POST',
      url: '/api/SeguridadusuarioClave/crear',
      payload: { IdUsuario: 'AYUDANTE', Clave: 'Quebrada#Honda7' },
    });
    expect(password.body.result, JSON.stringify(password.body)).toMatchObject({ id: 0 });
    const registered = await as('GESTOR', {
      method: 'POST',
      url: '/api/auth/register',
      payload: {
        IdUsuario: 'AYUDANTE2',
        Nombre: 'LUIS',
        Apellido: 'PARI',
        Correo: 'ayudante2@minandes.com.pe',
        perfiles: [{ IdPerfil: ids.admin, IdDivision: ids.division }],
      },
    });
    refused(registered, 'profile');
    expect(await user('AYUDANTE2')).toBeUndefined();
    expect(w.t.mail.some((m) => m.userId === 'AYUDANTE2')).toBe(false);
  });

  it('an administrator grants any profile but makes no super-administrator nor touches one', async () => {
    const register = (IdUsuario: string, extra: object) =>
      ({
        method: 'POST',
        url: '/api/auth/register',
        payload: {
          IdUsuario,
          Nombre: 'MARTA',
          Apellido: 'CCORI',
          Correo: `${IdUsuario.toLowerCase()}@minandes.com.pe`,
          ...extra,
        },
      }) as const;
    refused(await as('ADMIN', register('NUEVOSUPER', { SuperAdministrador: 'S' })), 'superAdministrator');
    expect(await user('NUEVOSUPER')).toBeUndefined();
    const authoriser = await as(
      'ADMIN',
      register('NUEVOAUT', { perfiles: [{ IdPerfil: ids.authoriser, IdDivision: ids.division }] }),
    );
    expect(authoriser.status, JSON.stringify(authoriser.body)).toBe(200);
    const password = await as('ADMIN', {
      method: 'POST',
      url: '/api/SeguridadusuarioClave/crear',
      payload: { IdUsuario: 'SUPERADMIN', Clave: 'Tomada#Cuenta99' },
    });
    refused(password, 'holdsMore');
    expect(await refusals('ADMIN')).toHaveLength(2);
  });

  it('a super-administrator makes and changes super-administrators', async () => {
    const made = await as('SUPERADMIN', {
      method: 'POST',
      url: '/api/auth/register',
      payload: {
        IdUsuario: 'OTROSUPER',
        Nombre: 'RAÚL',
        Apellido: 'MEZA',
        Correo: 'otrosuper@minandes.com.pe',
        SuperAdministrador: 'S',
      },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    expect(await user('OTROSUPER')).toMatchObject({ SuperAdministrador: 'S' });
    const password = await as('SUPERADMIN', {
      method: 'POST',
      url: '/api/SeguridadusuarioClave/crear',
      payload: { IdUsuario: 'ADMIN', Clave: 'Nueva#Clave2026' },
    });
    expect(password.body.result).toMatchObject({ id: 0 });
  });

  it('keeps an e-mail to one active user of a client, on the security page and in the database', async () => {
    tokens.SOLICITANTE = (await signIn(w.app, 'SOLICITANTE')).accessToken;
    const own = await as('SOLICITANTE', {
      method: 'PUT',
      url: '/api/SeguridadusuarioLogin/actualizar',
      payload: { Correo: 'Autorizador@MINANDES.com.pe' },
    });
    expect(own.status, JSON.stringify(own.body)).toBe(400);
    expect(own.body.errors.Correo).toMatchObject({
      messageKey: 'security.emailTaken',
      message: 'Another active user of this client already has this e-mail.',
    });
    expect((await user('SOLICITANTE'))?.Correo).toBe('solicitante@sermipac.com.pe');
    // Its own address in other letters is still its own, kept in lower case.
    const same = await as('SOLICITANTE', {
      method: 'PUT',
      url: '/api/SeguridadusuarioLogin/actualizar',
      payload: { Correo: 'Solicitante@Sermipac.com.pe' },
    });
    expect(same.status, JSON.stringify(same.body)).toBe(200);
    expect((await user('SOLICITANTE'))?.Correo).toBe('solicitante@sermipac.com.pe');
    // Two writers past the check: the database refuses the second active user.
    const table = w.registry.require('user').table;
    expect((await user('AUTORIZADOR'))?.Correo).toBe('autorizador@minandes.com.pe');
    await expect(
      w.app.database.db
        .insertInto(table)
        .values({ ...(await user('AUTORIZADOR')), IdUsuario: 'COPIA' })
        .execute(),
    ).rejects.toThrow(/unique|UNIQUE/);
  });
});
