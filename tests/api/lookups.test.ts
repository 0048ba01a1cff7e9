import { describe, expect, it } from 'vitest';
import { call, type SignedIn } from '../support/app.js';
import { DIALECTS } from '../support/databases.js';
import { world } from '../support/world.js';

describe.each(DIALECTS)('lookups and grid lists of spec section 7 on %s', (dialect) => {
  let admin: SignedIn;
  let requester: SignedIn;
  const w = world(dialect, {
    users: { admin: 'ADMIN', requester: 'SOLICITANTE' },
    ready: async () => {
      admin = w.signedIn.admin;
      requester = w.signedIn.requester;
    },
  });
  const get = (url: string, who: SignedIn = admin) =>
    call(w.app, { method: 'GET', url, token: who.accessToken });

  it('answers the named lookups inside result, filtered by their parameters', async () => {
    const countries = await get('/api/sistemapais/obtenerTodos');
    expect(countries.status).toBe(200);
    expect(countries.body.result.map((c: { IdPais: string }) => c.IdPais)).toEqual(
      expect.arrayContaining(['PE', 'CH', 'AR', 'BO']),
    );
    const peru = await get('/api/sistematipodocumento/obtenerTodos?IdPais=PE');
    expect(peru.body.result.map((d: { Alias: string }) => d.Alias).sort()).toEqual([
      'CE',
      'CPP',
      'DNI',
      'PAS',
      'RUC',
    ]);
    const chileLicences = await get('/api/sistemalicenciaconducir/obtenerTodos?IdPais=CH');
    expect(chileLicences.body.result.length).toBeGreaterThan(5);
    expect(chileLicences.body.result.every((l: { IdPais: string }) => l.IdPais === 'CH')).toBe(true);
  });

  it('pages a reference list longer than one answer instead of stopping silently', async () => {
    const table = w.table('function');
    const before = Number(
      (
        (await w
          .db()
          .selectFrom(table)
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()) as {
          n: number | string;
        }
      ).n,
    );
    const rows = Array.from({ length: 5002 - before + 3 }, (_, i) => ({
      IdCliente: 1,
      Descripcion: `FUNCIÓN DE PRUEBA ${String(i).padStart(5, '0')}`,
      Contratista: 'S',
      Activo: 'S',
    }));
    for (let i = 0; i < rows.length; i += 500)
      await w
        .db()
        .insertInto(table)
        .values(rows.slice(i, i + 500))
        .execute();
    const total = before + rows.length;
    const first = await get('/api/AdministracionFuncion/obtenerTodos');
    expect(first.status).toBe(200);
    expect(first.body.result).toHaveLength(5000);
    expect(first.body.totalCount).toBe(total);
    expect(first.body.siguiente).toBe(5000);
    const second = await get(`/api/AdministracionFuncion/obtenerTodos?skip=${first.body.siguiente}`);
    expect(second.body.result).toHaveLength(total - 5000);
    expect(second.body.siguiente).toBeUndefined();
    const ids = new Set(
      [...first.body.result, ...second.body.result].map((f: { IdFuncion: number }) => f.IdFuncion),
    );
    expect(ids.size).toBe(total);
    await w.db().deleteFrom(table).where('Descripcion', 'like', 'FUNCIÓN DE PRUEBA %').execute();
  });

  it('takes the client from the token and ignores IdCliente', async () => {
    const functions = await get('/api/AdministracionFuncion/obtenerTodos?IdCliente=999&Contratista=S');
    expect(functions.status).toBe(200);
    expect(functions.body.result.length).toBeGreaterThan(0);
    for (const f of functions.body.result) {
      expect(f.Contratista).toBe('S');
      expect(f.IdCliente).toBe(admin.perfil.IdCliente);
    }
    // Reference data is every signed-in user's; the rest follows the menu (hardening.test.ts).
    expect((await get('/api/sistemapais/obtenerTodos', requester)).status).toBe(200);
    const unauthenticated = await call(w.app, { method: 'GET', url: '/api/sistemapais/obtenerTodos' });
    expect(unauthenticated.status).toBe(401);
  });

  it('refuses parameters that are not filters of the list', async () => {
    const res = await get('/api/sistemapais/obtenerTodos?Pais=PERU');
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('BAD_QUERY');
  });

  it('answers the configuration values the forms read', async () => {
    for (const id of ['MAXIMAGESIZECLIENTE', 'CLIENTIMAGERATIO', 'SIZEMAXPHOTOUPLOAD']) {
      const res = await get(`/api/sistemaConfiguracion/obtener?IdCliente=1&IdConfiguracion=${id}`, requester);
      expect(res.status).toBe(200);
      expect(res.body.result.IdConfiguracion).toBe(id);
      expect(res.body.result.Valor1).toBeTruthy();
    }
    const missing = await get('/api/sistemaConfiguracion/obtener?IdConfiguracion=NOEXISTE');
    expect(missing.body.result).toBeNull();
  });

  it('pages a grid list with skip, take, sort and AND-joined equality filters', async () => {
    const filter = encodeURIComponent(JSON.stringify([['IdPais', '=', 'PE'], 'and', ['Activo', '=', 'S']]));
    const sort = encodeURIComponent(JSON.stringify([{ selector: 'Alias', desc: true }]));
    const first = await get(`/api/sistematipodocumento/filtrar?skip=0&take=2&sort=${sort}&filter=${filter}`);
    expect(first.status).toBe(200);
    expect(first.body.result.totalCount).toBe(5);
    expect(first.body.result.totalPages).toBe(3);
    expect(first.body.result.data.map((d: { Alias: string }) => d.Alias)).toEqual(['RUC', 'PAS']);
    const last = await get(`/api/sistematipodocumento/filtrar?skip=4&take=2&sort=${sort}&filter=${filter}`);
    expect(last.body.result.data.map((d: { Alias: string }) => d.Alias)).toEqual(['CE']);
    // RowIndex is the list's default order.
    const rowIndex = encodeURIComponent(JSON.stringify([{ selector: 'RowIndex', desc: false }]));
    const byDefault = await get(
      `/api/sistematipodocumento/filtrar?take=20&sort=${rowIndex}&filter=${filter}`,
    );
    expect(byDefault.body.result.data.map((d: { Alias: string }) => d.Alias)).toEqual([
      'CE',
      'CPP',
      'DNI',
      'PAS',
      'RUC',
    ]);
  });

  it('reads the grid filters’ dates as yyyyMMdd', async () => {
    const filter = (date: string) =>
      encodeURIComponent(JSON.stringify([['Fecha', '=', date], 'and', ['IdPais', '=', 'PE']]));
    const labour = await get(`/api/AdministracionFeriado/filtrar?filter=${filter('20260501')}`);
    expect(labour.status).toBe(200);
    expect(labour.body.result.totalCount).toBe(1);
    expect(labour.body.result.data[0]).toMatchObject({ Fecha: '2026-05-01', IdPais: 'PE' });
    expect(
      (await get(`/api/AdministracionFeriado/filtrar?filter=${filter('20260502')}`)).body.result.totalCount,
    ).toBe(0);
    for (const bad of ['2026050', '20261345']) {
      const res = await get(`/api/AdministracionFeriado/filtrar?filter=${filter(bad)}`);
      expect(res.status, bad).toBe(400);
      expect(res.body.code).toBe('BAD_QUERY');
    }
    // The console's lists take ISO dates, checked the same way.
    const list = (date: string) =>
      get(`/api/rest/holiday?filter=${encodeURIComponent(JSON.stringify({ Fecha: date }))}`);
    expect((await list('2026-05-01')).body).toHaveLength(1);
    expect((await list('2026-02-30')).status).toBe(400);
  });

  it('refuses grid filters other than equalities joined by and', async () => {
    for (const filter of [
      [['IdPais', '=', 'PE'], 'or', ['Activo', '=', 'S']],
      ['Alias', 'contains', 'D'],
      ['Nada', '=', 1],
    ]) {
      const res = await get(
        `/api/sistematipodocumento/filtrar?filter=${encodeURIComponent(JSON.stringify(filter))}`,
      );
      expect(res.status, JSON.stringify(filter)).toBe(400);
    }
    expect((await get('/api/sistematipodocumento/filtrar?take=100000')).status).toBe(400);
  });
});
