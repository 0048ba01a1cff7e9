import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { call, listUrl, menuIdOf, signIn } from '../support/app.js';
import { DIALECTS } from '../support/databases.js';
import { world } from '../support/world.js';

// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON
type Json = any;

/**
 * The marking report: the demo's week of markings filtered by a date range, a company (through
 * the person or vehicle marked), a door and a result, as a list and as its Excel export; a
 * contractor reaches its own company's only; a bad bound is refused.
 */
describe.each(DIALECTS)('the marking report on %s', (dialect) => {
  const db = () => w.t.db.database.db;
  const table = (name: string) => w.registry.require(name).table;
  let days: string[];
  let companies: number[];
  let requesterCompany: number;

  const list = async (who: string, filter: Json, range = [0, 499]) => {
    const res = await call(w.app, {
      url: listUrl('marking', { filter, range, sort: ['Fecha', 'ASC'] }),
      token: tokens[who],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const total = Number(String(res.headers['content-range']).split('/')[1]);
    return { rows: res.body as Json[], total };
  };

  /** The markings of the division counted in the database, with the company of each. */
  const counted = async (where: { from: string; to: string; company?: number; result?: string }) => {
    let qb = db()
      .selectFrom(`${table('marking')} as m`)
      .leftJoin(`${table('person')} as p`, 'p.IdPersona', 'm.IdPersona')
      .leftJoin(`${table('vehicle')} as v`, 'v.IdVehiculo', 'm.IdVehiculo')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('m.IdDivision', '=', 1)
      .where('m.Fecha', '>=', where.from)
      .where('m.Fecha', '<=', where.to);
    if (where.company !== undefined)
      qb = qb.where((eb) =>
        eb.or([eb('p.IdCompania', '=', where.company), eb('v.IdCompania', '=', where.company)]),
      );
    if (where.result) qb = qb.where('m.Resultado', '=', where.result);
    return Number(((await qb.executeTakeFirstOrThrow()) as Json).n);
  };

  const w = world(dialect, {
    users: { admin: { user: 'ADMIN', division: 'UNIDAD MINERA SAN GABRIEL' } },
    ready: async () => {
      tokens.requester = (
        await signIn(w.app, 'SOLICITANTE', { division: 'UNIDAD MINERA SAN GABRIEL' })
      ).accessToken;
      days = (
        (await db()
          .selectFrom(table('marking'))
          .select('Fecha')
          .distinct()
          .where('IdDivision', '=', 1)
          .orderBy('Fecha')
          .execute()) as Json[]
      ).map((r) => r.Fecha);
      companies = (
        (await db()
          .selectFrom(`${table('marking')} as m`)
          .innerJoin(`${table('person')} as p`, 'p.IdPersona', 'm.IdPersona')
          .select('p.IdCompania')
          .distinct()
          .where('m.IdDivision', '=', 1)
          .orderBy('p.IdCompania')
          .execute()) as Json[]
      ).map((r) => r.IdCompania);
      requesterCompany = (
        (await db()
          .selectFrom(table('user-profile'))
          .select('IdCompania')
          .where('IdUsuario', '=', 'SOLICITANTE')
          .where('IdCompania', 'is not', null)
          .executeTakeFirstOrThrow()) as Json
      ).IdCompania;
    },
  });
  const { tokens } = w;

  it('has a week of markings of more than one company to report on', () => {
    expect(days.length).toBeGreaterThanOrEqual(5);
    expect(companies.length).toBeGreaterThanOrEqual(2);
    expect(companies).toContain(requesterCompany);
  });

  it('keeps the markings of a date range, bounds included', async () => {
    const [from, to] = [days[1], days[3]];
    const { rows, total } = await list('admin', { Fecha_gte: from, Fecha_lte: to });
    expect(total).toBe(await counted({ from, to }));
    expect(total).toBeGreaterThan(0);
    expect(rows.every((r) => r.Fecha >= from && r.Fecha <= to)).toBe(true);
    expect(rows.some((r) => r.Fecha === from)).toBe(true);
    expect(rows.some((r) => r.Fecha === to)).toBe(true);
    // One day: both bounds the same.
    const one = await list('admin', { Fecha_gte: from, Fecha_lte: from });
    expect(one.total).toBe(await counted({ from, to: from }));
    expect(new Set(one.rows.map((r) => r.Fecha))).toEqual(new Set([from]));
  });

  it('keeps the markings of a company, through the person or the vehicle marked, with the other filters', async () => {
    const [from, to] = [days[0], days[days.length - 1]];
    for (const company of companies) {
      const { total } = await list('admin', { Fecha_gte: from, Fecha_lte: to, IdCompania: company });
      expect(total, `company ${company}`).toBe(await counted({ from, to, company }));
    }
    const denied = await list('admin', { IdCompania: companies[0], Resultado: 'D', Fecha_gte: from });
    expect(denied.total).toBe(await counted({ from, to, company: companies[0], result: 'D' }));
    expect(denied.rows.every((r) => r.Resultado === 'D')).toBe(true);
    // Several companies at once: the sum of each.
    const both = await list('admin', { IdCompania: companies.slice(0, 2) });
    const each = await Promise.all(
      companies.slice(0, 2).map((company) => counted({ from: '1900-01-01', to: '9999-12-31', company })),
    );
    expect(both.total).toBe(each[0] + each[1]);
  });

  it('exports what the filters keep to Excel', async () => {
    const [from, to] = [days[2], days[2]];
    const filter = { Fecha_gte: from, Fecha_lte: to, IdCompania: requesterCompany };
    const res = await w.app.inject({
      url: `/api/rest/marking/export?filter=${encodeURIComponent(JSON.stringify(filter))}`,
      headers: { authorization: `Bearer ${tokens.admin}`, 'accept-language': 'es' },
    });
    expect(res.statusCode).toBe(200);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = book.getWorksheet('data') as ExcelJS.Worksheet;
    expect(sheet.rowCount - 1).toBe(await counted({ from, to, company: requesterCompany }));
    expect(sheet.getRow(1).getCell(1).value).toBe('Fecha');
  });

  it('gives a contractor its own company’s markings only, whatever company it names', async () => {
    // The demo's requester does not reach the report; a profile that grants it, read-only:
    const refused = await call(w.app, { url: listUrl('marking'), token: tokens.requester });
    expect(refused.status).toBe(403);
    const menu = { IdMenu: await menuIdOf(w.t, '/marking') };
    const profile = (await db()
      .selectFrom(table('user-profile'))
      .select(['IdPerfil', 'IdCliente'])
      .where('IdUsuario', '=', 'SOLICITANTE')
      .where('IdCompania', '=', requesterCompany)
      .executeTakeFirstOrThrow()) as Json;
    await db()
      .insertInto(table('menu-profile'))
      .values({
        IdCliente: profile.IdCliente,
        IdPerfil: profile.IdPerfil,
        IdMenu: menu.IdMenu,
        SoloLectura: 'S',
        Activo: 'S',
        IdUsuarioCreacion: 'SISTEMA',
        FechaCreacion: new Date().toISOString(),
      })
      .execute();
    w.app.grants.clear();
    const own = await list('requester', { IdCompania: requesterCompany });
    expect(own.total).toBe(
      await counted({ from: '1900-01-01', to: '9999-12-31', company: requesterCompany }),
    );
    const other = companies.find((c) => c !== requesterCompany);
    expect((await list('requester', { IdCompania: other })).total).toBe(0);
  });

  it('refuses a bad bound or company, and a company filter where a list has none', async () => {
    const refused = async (resource: string, filter: Json) => {
      const res = await call(w.app, { url: listUrl(resource, { filter }), token: tokens.admin });
      expect(res.status, JSON.stringify(filter)).toBe(400);
      expect(res.body.code).toBe('BAD_QUERY');
      const detail = res.body.errors.filter;
      expect(detail.message).not.toMatch(/^query\./);
      return detail;
    };
    expect((await refused('marking', { Fecha_gte: '2026-13-01' })).messageKey).toBe('query.filterValue');
    expect((await refused('marking', { Fecha_lte: null })).messageKey).toBe('query.filterValue');
    // Year 0 is no date a database keeps.
    expect((await refused('marking', { Fecha_gte: '0000-01-01' })).messageKey).toBe('query.filterValue');
    // Hora is no declared filter, Placa no date or number.
    expect((await refused('marking', { Hora_gte: '06:00' })).messageKey).toBe('query.filterField');
    expect((await refused('marking', { Placa_gte: 'A' })).messageKey).toBe('query.filterField');
    expect((await refused('marking', { IdCompania: 'uno' })).messageKey).toBe('query.filterValue');
    // No company id is a boolean, a blank or beyond what the column holds (PostgreSQL would fail on it).
    for (const IdCompania of [true, ' ', 99_999_999_999, [requesterCompany, 2 ** 31]])
      expect((await refused('marking', { IdCompania })).messageKey).toBe('query.filterValue');
    expect((await refused('person-access', { IdCompania: requesterCompany })).messageKey).toBe(
      'query.filterField',
    );
  });

  it('bounds any list by a filterable date: the holidays of a range', async () => {
    const res = await call(w.app, {
      url: listUrl('holiday', { filter: { Fecha_gte: '2026-07-01', Fecha_lte: '2026-12-31' } }),
      token: tokens.admin,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const all = await call(w.app, { url: listUrl('holiday'), token: tokens.admin });
    const expected = (all.body as Json[]).filter((h) => h.Fecha >= '2026-07-01' && h.Fecha <= '2026-12-31');
    expect(expected.length).toBeGreaterThan(0);
    expect((res.body as Json[]).map((h) => h.id).sort()).toEqual(expected.map((h) => h.id).sort());
  });
});
