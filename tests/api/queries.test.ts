import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { ACCESS_TABLES } from '../../src/server/services/site/tables.js';
import { addDays, siteDate } from '../../src/shared/dates.js';
import { call } from '../support/app.js';
import { DIALECTS } from '../support/databases.js';
import { CONTRACTOR_CAST, world } from '../support/world.js';

// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON
type Json = any;
const SOUTH = 'UNIDAD MINERA SAN GABRIEL';

/** The first sheet of a workbook as rows of values (row 1 the headers). */
async function sheetOf(bytes: Buffer): Promise<unknown[][]> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(bytes as never);
  const rows: unknown[][] = [];
  workbook.worksheets[0].eachRow((row) => {
    rows.push((row.values as unknown[]).slice(1));
  });
  return rows;
}

/**
 * The queries of /consultas: the division's mobilisations and demobilisations by company,
 * contract, status and dates, and the current status of its accredited people and vehicles, each
 * with its Excel workbook of every row; a contractor sees its company only, the client its
 * division, a profile without the screens nothing.
 */
describe.each(DIALECTS)('queries on %s', (dialect) => {
  const w = world(dialect, {
    users: { ...CONTRACTOR_CAST, dining: 'COMEDOR' },
    division: SOUTH,
  });
  const today = siteDate('PE');
  let company: number;

  const get = (who: string, url: string) => call(w.app, { url, token: tokens[who] });
  const excel = async (who: string, url: string, query: Record<string, string>) => {
    const response = await w.app.inject({
      method: 'GET',
      url: `${url}?${new URLSearchParams(query)}`,
      headers: { authorization: `Bearer ${tokens[who]}`, 'accept-language': 'es' },
    });
    return { status: response.statusCode, type: response.headers['content-type'], body: response.rawPayload };
  };
  const { table, db, tokens } = w;
  /** The south division's id, as stored. */
  const south = async () =>
    (
      (await db()
        .selectFrom(table('division'))
        .select('IdDivision')
        .where('Division', '=', SOUTH)
        .executeTakeFirstOrThrow()) as { IdDivision: number }
    ).IdDivision;

  it('lists mobilisations and demobilisations by role: the requester its company’s, the client its division’s, without drafts', async () => {
    const all = (await get('admin', '/api/consulta/solicitudes?Tipo=M&take=1000')).body.result;
    const stored = (await db()
      .selectFrom(table('request'))
      .select(['IdSolicitud', 'IdCompania', 'EstadoAprobacion'])
      .where('TipoSolicitud', '=', 'M')
      .where('IdDivision', '=', await south())
      .execute()) as Json[];
    const sent = stored.filter((r) => r.EstadoAprobacion !== 'I');
    expect(all.totalCount).toBe(sent.length);
    expect(all.data.map((r: Json) => r.IdSolicitud).sort()).toEqual(sent.map((r) => r.IdSolicitud).sort());
    expect(new Set(all.data.map((r: Json) => r.IdCompania)).size).toBeGreaterThan(1);
    // The authoriser queries the division as the administrator does.
    expect(
      (await get('authoriser', '/api/consulta/solicitudes?Tipo=M&take=1000')).body.result.totalCount,
    ).toBe(sent.length);
    // The requester: its company's, drafts included.
    const mine = (await get('requester', '/api/consulta/solicitudes?Tipo=M&take=1000')).body.result;
    company = mine.data[0].IdCompania;
    expect(mine.totalCount).toBe(stored.filter((r) => r.IdCompania === company).length);
    expect(mine.data.length).toBe(mine.totalCount);
    expect(mine.data.filter((r: Json) => r.IdCompania === company)).toHaveLength(mine.totalCount);
    // Another division's session sees that division's only.
    const north = (await get('requesterNorth', '/api/consulta/solicitudes?Tipo=M&take=1000')).body.result;
    expect(north.data.some((r: Json) => mine.data.some((m: Json) => m.IdSolicitud === r.IdSolicitud))).toBe(
      false,
    );
    // Demobilisations are their own list: the requester files one first, so the list has one to show.
    const demobilisable = await w.app.inject({
      method: 'POST',
      url: '/api/acreditaciondesmovilizacion/filtrarNuevoSolicitante',
      headers: { authorization: `Bearer ${tokens.requester}` },
      payload: { IdEntidad: 'T' },
    });
    const candidate = (demobilisable.json().result as Json[]).find((r) => r.Estado === 'A');
    const filed = await w.app.inject({
      method: 'POST',
      url: '/api/acreditaciondesmovilizacion/crear',
      headers: { authorization: `Bearer ${tokens.requester}` },
      payload: { IdEntidad: 'T', Acreditaciones: [candidate.IdAcreditacion], Observacion: 'Fin de obra' },
    });
    expect(filed.statusCode, filed.body).toBe(200);
    const demobilised = (await get('admin', '/api/consulta/solicitudes?Tipo=D&take=1000')).body.result;
    const storedDemobilisations = await db()
      .selectFrom(table('request'))
      .select('IdSolicitud')
      .where('TipoSolicitud', '=', 'D')
      .where('IdDivision', '=', await south())
      .where('EstadoAprobacion', '!=', 'I')
      .execute();
    expect(storedDemobilisations.length).toBeGreaterThan(0);
    expect(demobilised.totalCount).toBe(storedDemobilisations.length);
    expect(demobilised.data.filter((r: Json) => r.Movilizacion === 'D')).toHaveLength(
      storedDemobilisations.length,
    );
    // A profile without the query screens is refused.
    expect((await get('dining', '/api/consulta/solicitudes?Tipo=M')).status).toBe(403);
    expect((await get('dining', '/api/consulta/estado?IdEntidad=T')).status).toBe(403);
  });

  it('filters by company, status and the site’s request dates', async () => {
    const all = (await get('admin', '/api/consulta/solicitudes?Tipo=M&take=1000')).body.result.data as Json[];
    company = (await get('requester', '/api/consulta/solicitudes?Tipo=M&take=1')).body.result.data[0]
      .IdCompania;
    const other = all.find((r) => r.IdCompania !== company);
    const byCompany = (
      await get('admin', `/api/consulta/solicitudes?Tipo=M&take=1000&IdCompania=${other.IdCompania}`)
    ).body.result;
    expect(byCompany.totalCount).toBe(all.filter((r) => r.IdCompania === other.IdCompania).length);
    const approved = (await get('admin', '/api/consulta/solicitudes?Tipo=M&take=1000&EstadoAprobacion=A'))
      .body.result;
    const approvedStored = all.filter((r) => r.EstadoAprobacion === 'A').length;
    expect(approvedStored).toBeGreaterThan(0);
    expect(approved.totalCount).toBe(approvedStored);
    expect(approved.data.filter((r: Json) => r.EstadoAprobacion === 'A')).toHaveLength(approvedStored);
    // Today's requests (the site's day) and none tomorrow.
    const todays = (
      await get('admin', `/api/consulta/solicitudes?Tipo=M&take=1000&FechaDesde=${today}&FechaHasta=${today}`)
    ).body.result;
    expect(todays.totalCount).toBe(
      all.filter((r) => siteDate('PE', Date.parse(r.FechaSolicitud)) === today).length,
    );
    const tomorrow = addDays(today, 1);
    expect(
      (await get('admin', `/api/consulta/solicitudes?Tipo=M&FechaDesde=${tomorrow}&FechaHasta=${tomorrow}`))
        .body.result.totalCount,
    ).toBe(0);
    // A backwards range, a date that is none, a kind that is none: refused, said where.
    const backwards = await get(
      'admin',
      `/api/consulta/solicitudes?Tipo=M&FechaDesde=${today}&FechaHasta=${addDays(today, -1)}`,
    );
    expect(backwards.status).toBe(400);
    expect(backwards.body.errors.FechaHasta.messageKey).toBe('queries.refusals.rangeBackwards');
    expect(backwards.body.errors.FechaHasta.message).toBe('The end date must be on or after the start date.');
    expect((await get('admin', '/api/consulta/solicitudes?Tipo=M&FechaDesde=28-11-2026')).status).toBe(400);
    expect((await get('admin', '/api/consulta/solicitudes?Tipo=X')).status).toBe(400);
  });

  it('answers the current status of people: where, until when, the next requirement to expire, present now', async () => {
    const people = (await get('admin', '/api/consulta/estado?IdEntidad=T&take=1000')).body.result;
    const stored = (await db()
      .selectFrom(table('accreditation'))
      .select(['IdAcreditacion', 'IdPersona', 'FechaFin', 'Estado'])
      .where('IdEntidad', '=', 'T')
      .where('IdDivision', '=', await south())
      .execute()) as Json[];
    expect(people.totalCount).toBe(stored.length);
    // The next requirement to expire of one accredited worker, as the kept values say.
    const row = people.data.find((r: Json) => r.ProximoVencimiento);
    expect(row).toBeDefined();
    const holder = stored.find((s) => s.IdAcreditacion === row.IdAcreditacion).IdPersona;
    const kept = (await db()
      .selectFrom(table('accredited-requirement'))
      .select('FechaVencimiento')
      .where('IdPersona', '=', holder)
      .where('FechaVencimiento', '>=', today)
      .orderBy('FechaVencimiento')
      .executeTakeFirstOrThrow()) as Json;
    expect(row.ProximoVencimiento).toBe(kept.FechaVencimiento);
    // Present now: the presence table's entries; the filter agrees with the column.
    const inside = (await db()
      .selectFrom(ACCESS_TABLES.presence)
      .select('Titular')
      .where('Funcion', '=', 'E')
      .where('Titular', 'like', 'P:%')
      .execute()) as Json[];
    const present = (await get('admin', '/api/consulta/estado?IdEntidad=T&Presente=S&take=1000')).body.result;
    expect(present.totalCount).toBeGreaterThan(0);
    expect(present.data.filter((r: Json) => r.Presente === 'S' && r.Desde)).toHaveLength(present.totalCount);
    const presentHolders = new Set(
      present.data.map(
        (r: Json) => `P:${stored.find((s) => s.IdAcreditacion === r.IdAcreditacion).IdPersona}`,
      ),
    );
    for (const key of presentHolders) expect(inside.map((i) => i.Titular)).toContain(key);
    const absent = (await get('admin', '/api/consulta/estado?IdEntidad=T&Presente=N&take=1000')).body.result;
    expect(present.totalCount + absent.totalCount).toBe(people.totalCount);
    // State and text filters; vehicles are their own list.
    const active = (await get('admin', '/api/consulta/estado?IdEntidad=T&Estado=A&take=1000')).body.result;
    expect(active.totalCount).toBe(stored.filter((s) => s.Estado === 'A').length);
    const named = (
      await get('admin', `/api/consulta/estado?IdEntidad=T&Texto=${encodeURIComponent(row.Documento)}`)
    ).body.result;
    expect(named.data.map((r: Json) => r.IdAcreditacion)).toContain(row.IdAcreditacion);
    const vehicles = (await get('admin', '/api/consulta/estado?IdEntidad=V&take=1000')).body.result;
    expect(vehicles.totalCount).toBeGreaterThan(0);
    expect(vehicles.data.filter((r: Json) => r.Documento === r.Nombres)).toHaveLength(vehicles.totalCount);
    // The requester: its company's holders only.
    const mine = (await get('requester', '/api/consulta/estado?IdEntidad=T&take=1000')).body.result;
    expect(mine.totalCount).toBeGreaterThan(0);
    expect(mine.totalCount).toBeLessThan(people.totalCount);
  });

  it('exports every row of each query as a streamed workbook, in the caller’s language', async () => {
    const people = (await get('admin', '/api/consulta/estado?IdEntidad=T&take=1')).body.result;
    const book = await excel('admin', '/api/consulta/estado/excel', { IdEntidad: 'T' });
    expect(book.status).toBe(200);
    expect(book.type).toContain('spreadsheetml');
    const rows = await sheetOf(book.body);
    expect(rows[0]).toContain('Próximo requisito por vencer');
    expect(rows.length - 1).toBe(people.totalCount);
    const requests = (await get('requester', '/api/consulta/solicitudes?Tipo=M&take=1')).body.result;
    const mine = await sheetOf(
      (await excel('requester', '/api/consulta/solicitudes/excel', { Tipo: 'M' })).body,
    );
    expect(mine.length - 1).toBe(requests.totalCount);
    expect((await excel('dining', '/api/consulta/estado/excel', { IdEntidad: 'T' })).status).toBe(403);
  });
});
