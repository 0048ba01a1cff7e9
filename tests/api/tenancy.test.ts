import { describe, expect, it } from 'vitest';
import { moduleMenuId } from '../../src/server/demo/security.js';
import { MODULES } from '../../src/shared/modules.js';
import { anotherClientAdmin, call, listUrl } from '../support/app.js';
import { DIALECTS } from '../support/databases.js';
import { world } from '../support/world.js';

const NORTH = 'PROYECTO CORDILLERA NORTE';
const SOUTH = 'UNIDAD MINERA SAN GABRIEL';

describe.each(DIALECTS)('tenancy and permissions on %s', (dialect) => {
  const as = (who: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
    call(w.app, { method, url, token: tokens[who], payload });
  const list = async (who: string, resource: string, filter?: object) =>
    (await as(who, 'GET', listUrl(resource, { filter, range: [0, 999] }))).body as Array<
      Record<string, unknown>
    >;

  const w = world(dialect, {
    users: {
      southAdmin: { user: 'ADMIN', division: SOUTH },
      northAdmin: { user: 'ADMIN', division: NORTH },
      requester: { user: 'SOLICITANTE', division: SOUTH },
      authoriser: { user: 'AUTORIZADOR', division: SOUTH },
    },
  });
  const { tokens } = w;

  it('a division-A token gets nothing of division B, over every division-scoped resource', async () => {
    const scoped = w.registry.entities.filter((e) => e.scope.division && !e.hidden);
    expect(scoped.map((e) => e.name)).toContain('contract');
    for (const entity of scoped) {
      const field = entity.scope.division as string;
      const south = await list('southAdmin', entity.name);
      const north = await list('northAdmin', entity.name);
      expect(south.length, entity.name).toBeGreaterThan(0);
      expect(north.length, entity.name).toBeGreaterThan(0);
      expect(new Set(south.map((r) => r[field])).size, entity.name).toBe(1);
      expect(
        south.some((r) => north.some((n) => n.id === r.id)),
        entity.name,
      ).toBe(false);
      const theirs = north[0];
      const url = `/api/rest/${entity.name}/${theirs.id}`;
      expect((await as('southAdmin', 'GET', url)).status, `${entity.name} GET`).toBe(404);
      expect((await as('southAdmin', 'PUT', url, theirs)).status, `${entity.name} PUT`).toBe(404);
      expect((await as('southAdmin', 'DELETE', url)).status, `${entity.name} DELETE`).toBe(404);
      expect((await as('northAdmin', 'GET', url)).status, `${entity.name} own`).toBe(200);
    }
  });

  it('takes the division of a new record from the token, never from the body', async () => {
    const north = (await list('northAdmin', 'contract'))[0];
    const south = (await list('southAdmin', 'contract'))[0];
    const res = await as('southAdmin', 'POST', '/api/rest/contract', {
      ...north,
      id: undefined,
      IdContrato: undefined,
      NumeroContrato: 'CT-PRUEBA-01',
    });
    expect(res.status).toBe(201);
    expect(res.body.IdDivision).toBe(south.IdDivision);
    expect(res.body.IdCliente).toBe(south.IdCliente);
  });

  it('a contractor sees only its company’s records, over every company-scoped resource it reaches', async () => {
    const company = (await list('requester', 'company'))[0];
    expect(company.Alias).toBe('SERMIPAC');
    const scoped = w.registry.entities.filter((e) => e.scope.company);
    for (const entity of scoped) {
      const mine = await as('requester', 'GET', listUrl(entity.name, { range: [0, 999] }));
      if (mine.status === 403) continue;
      const field = entity.scope.company as string;
      expect(mine.body.length, entity.name).toBeGreaterThan(0);
      expect(
        mine.body.every((r: Record<string, unknown>) => r[field] === company.id),
        entity.name,
      ).toBe(true);
      const others = (await list('southAdmin', entity.name)).filter((r) => r[field] !== company.id);
      expect(others.length, entity.name).toBeGreaterThan(0);
      expect(
        (await as('requester', 'GET', `/api/rest/${entity.name}/${others[0].id}`)).status,
        entity.name,
      ).toBe(404);
    }
  });

  it('a contractor cannot write for another company: the company comes from the token', async () => {
    const mine = (await list('requester', 'company'))[0];
    const other = (await list('southAdmin', 'company', { q: 'TRANSALTI' }))[0];
    const person = (await list('requester', 'person'))[0];
    const created = await as('requester', 'POST', '/api/rest/person', {
      ...person,
      id: undefined,
      IdPersona: undefined,
      Documento: '71234567',
      IdCompania: other.id,
    });
    expect(created.status).toBe(201);
    expect(created.body.IdCompania).toBe(mine.id);
    const theirs = (await list('southAdmin', 'person', { IdCompania: other.id }))[0];
    expect((await as('requester', 'PUT', `/api/rest/person/${theirs.id}`, theirs)).status).toBe(404);
    expect((await as('requester', 'DELETE', `/api/rest/person/${theirs.id}`)).status).toBe(404);
    // A reference to another company's contract does not resolve either.
    const otherContract = (await list('southAdmin', 'contract')).find(
      (c) => c.IdCompaniaContratista !== mine.id,
    );
    expect(otherContract).toBeDefined();
  });

  it('answers 403 for what the profile does not reach, and for writes on read-only screens', async () => {
    expect((await as('requester', 'GET', '/api/rest/user')).status).toBe(403);
    expect((await as('requester', 'GET', '/api/rest/menu')).status).toBe(403);
    expect((await as('requester', 'POST', '/api/rest/company', {})).status).toBe(403);
    expect((await as('requester', 'GET', '/api/rest/company')).status).toBe(200);
    // Entities a reached one refers to are readable, for its selects.
    expect((await as('requester', 'GET', '/api/rest/country')).status).toBe(200);
    expect((await as('requester', 'POST', '/api/rest/country', { IdPais: 'ZZ', Pais: 'ZETA' })).status).toBe(
      403,
    );
    expect((await as('authoriser', 'POST', '/api/rest/person', {})).status).toBe(403);
    expect((await as('authoriser', 'GET', '/api/rest/person')).status).toBe(200);
    // The outbox is written by the server only.
    expect((await as('southAdmin', 'GET', '/api/rest/outbox')).status).toBe(200);
    expect((await as('southAdmin', 'POST', '/api/rest/outbox', {})).status).toBe(404);
  });

  it('describes to the console only what the profile reaches', async () => {
    const meta = await as('requester', 'GET', '/api/meta');
    const access = Object.fromEntries(
      meta.body.resources.map((r: { name: string; access: string }) => [r.name, r.access]),
    );
    expect(access).toMatchObject({ person: 'write', company: 'read', contract: 'read', country: 'read' });
    expect(access.user).toBeUndefined();
    expect(meta.body.context).toMatchObject({ profileType: 'requester' });
    expect(meta.body.context.companyId).toBeTypeOf('number');
    const admin = await as('southAdmin', 'GET', '/api/meta');
    expect(admin.body.resources.map((r: { name: string }) => r.name)).toEqual(
      w.registry.entities.filter((e) => !e.hidden || e.name === 'person-employment').map((e) => e.name),
    );
  });

  it('answers each profile’s own menu, ancestors included, in three levels', async () => {
    const menu = (who: string) => as(who, 'GET', '/api/SeguridadMenu/obtenerMenu');
    const requester = (await menu('requester')).body.result as Array<{ IdMenu: string; Ruta: string | null }>;
    expect(requester.map((m) => m.IdMenu)).toEqual([
      '30',
      '3001',
      '300101',
      '300102',
      '300103',
      '3006',
      '300605',
      '70',
      '7010',
      '80',
      '8011',
      '90',
      '9002',
      '9003',
      '900301',
      '900302',
      '900303',
      '900304',
      '900305',
      '9005',
      '900501',
      '900502',
      '9006',
      '900601',
      '900602',
      '900605',
      '900607',
      '9007',
      '900701',
      '900702',
      '9008',
      '900801',
      '900802',
      '900803',
      '91',
      '9106',
      '92',
      '9207',
    ]);
    expect(requester.filter((m) => m.Ruta).map((m) => m.Ruta)).toEqual([
      '/company',
      '/contract',
      '/person',
      '/vehicle',
      '/comedor/consumos',
      '/hotel/reservas',
      '/accreditation',
      '/movilizacion/solicitante/persona',
      '/movilizacion/solicitante/vehiculo',
      '/movilizacion/solicitante/visita',
      '/movilizacion/solicitante/empresa',
      '/movilizacion/solicitante/masiva',
      '/desmovilizacion/solicitante/persona',
      '/desmovilizacion/solicitante/vehiculo',
      '/requisito/solicitante/persona',
      '/requisito/solicitante/vehiculo',
      '/requisito/solicitante/visita',
      '/requisito/solicitante/empresa',
      '/contrato/solicitante/persona',
      '/contrato/solicitante/vehiculo',
      '/consultas/movilizaciones',
      '/consultas/desmovilizaciones',
      '/consultas/estado',
      '/induccion/reservas',
      '/transporte/asientos',
    ]);
    const admin = (await menu('southAdmin')).body.result as Array<{ IdMenu: string; Ruta: string | null }>;
    const modules = MODULES.flatMap((module, index) =>
      w.registry.entities.some((e) => e.module === module && !e.hidden) ? [moduleMenuId(index)] : [],
    );
    expect(admin.filter((m) => m.IdMenu.length === 2).map((m) => m.IdMenu)).toEqual(modules);
    const screens = admin.filter((m) => m.Ruta?.startsWith('/acceso/'));
    const identification = admin.filter((m) => m.Ruta?.startsWith('/identificacion/'));
    const lodging = admin.filter((m) => m.Ruta?.startsWith('/hotel/'));
    expect(lodging.map((m) => m.Ruta)).toEqual([
      '/hotel/tablero',
      '/hotel/disponibilidad',
      '/hotel/reservas',
      '/hotel/reserva-masiva',
      '/hotel/reportes',
    ]);
    const dining = admin.filter((m) => m.Ruta?.startsWith('/comedor/'));
    expect(dining.map((m) => [m.IdMenu, m.Ruta])).toEqual([
      ['7009', '/comedor/gestion'],
      ['7010', '/comedor/consumos'],
    ]);
    const attendance = admin.filter((m) => m.Ruta?.startsWith('/asistencia/'));
    const attendanceModule = String((MODULES.indexOf('attendance') + 1) * 10);
    expect(attendance.map((m) => [m.IdMenu.slice(0, 2), m.Ruta])).toEqual([
      [attendanceModule, '/asistencia/personas'],
      [attendanceModule, '/asistencia/periodo'],
      [attendanceModule, '/asistencia/cierres'],
    ]);
    // The queries and the efficiency report sit in the accreditation module.
    const queries = admin.filter((m) => m.Ruta?.startsWith('/consultas/') || m.Ruta?.startsWith('/reporte/'));
    expect(queries.map((m) => m.Ruta)).toEqual([
      '/consultas/movilizaciones',
      '/consultas/desmovilizaciones',
      '/consultas/estado',
      '/reporte/eficiencia',
    ]);
    const inductions = admin.filter((m) => m.Ruta?.startsWith('/induccion/'));
    expect(inductions.map((m) => m.Ruta)).toEqual([
      '/induccion/sesiones',
      '/induccion/reservas',
      '/induccion/reporte',
    ]);
    const transport = admin.filter((m) => m.Ruta?.startsWith('/transporte/'));
    expect(transport.map((m) => [m.IdMenu.slice(0, 2), m.Ruta])).toEqual([
      ['92', '/transporte/viajes'],
      ['92', '/transporte/tablero'],
      ['92', '/transporte/asientos'],
      ['92', '/transporte/reporte'],
    ]);
    expect(
      admin.filter((m) => m.Ruta).length -
        inductions.length -
        transport.length -
        screens.length -
        identification.length -
        lodging.length -
        dining.length -
        attendance.length -
        queries.length,
    ).toBe(w.registry.entities.filter((e) => !e.hidden).length);
    // Identification management sits in its module, after the module's entities.
    const module = String((MODULES.indexOf('identification') + 1) * 10);
    expect(identification.map((m) => [m.IdMenu.slice(0, 2), m.Ruta])).toEqual([
      [module, '/identificacion/gestion'],
    ]);
    // The security office's screens sit with the markings, after them.
    const markings = admin.find((m) => m.Ruta === '/marking') as { IdMenu: string };
    expect(screens.map((m) => m.Ruta)).toEqual(['/acceso/evacuacion', '/acceso/requisitos-vencidos']);
    for (const screen of screens) {
      expect(screen.IdMenu.slice(0, -2)).toBe(markings.IdMenu.slice(0, -2));
      expect(screen.IdMenu > markings.IdMenu).toBe(true);
    }
  });

  it('keeps a second client apart from the first', async () => {
    tokens.chile = await anotherClientAdmin(w.t, ['300103', '300101']);

    expect(await list('chile', 'person')).toEqual([]);
    expect(await list('chile', 'company')).toEqual([]);
    const peruvian = (await list('southAdmin', 'person'))[0];
    expect((await as('chile', 'GET', `/api/rest/person/${peruvian.id}`)).status).toBe(404);
    // Its records cannot point at the other client's either.
    const company = (await list('southAdmin', 'company'))[0];
    const res = await as('chile', 'POST', '/api/rest/person', {
      ...peruvian,
      id: undefined,
      IdPersona: undefined,
      IdCompania: company.id,
    });
    expect(res.status).toBe(400);
    expect(res.body.errors.IdCompania.messageKey).toBe('validation.referenceMissing');
  });
});
