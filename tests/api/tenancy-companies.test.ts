import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Entity } from '../../src/server/registry.js';
import { call, listUrl, signIn, startTestApp, type TestApp } from '../support/app.js';
import { DIALECTS } from '../support/databases.js';

const SOUTH = 'UNIDAD MINERA SAN GABRIEL';
type Row = Record<string, unknown>;

/**
 * A company's records reach further than the entities that hold the company themselves: a
 * person's credentials and accesses, a contract's addenda, a vehicle's accesses. Every role signs
 * in with every screen of every entity granted (as a generous menu would), and for every entity
 * that belongs to a company, directly or through a reference, the contractor sees, exports,
 * changes and deletes only its own company's records, while the client's profiles see them all.
 */
describe.each(DIALECTS)('company scope through references on %s', (dialect) => {
  let t: TestApp;
  const sessions: Record<string, { token: string; company: number | null; division: number }> = {};
  // Entities with screens: the hidden ones (requests and their lines) are read through their feature's calls.
  const owned = () =>
    t.registry.entities.filter((e) => !e.hidden && (e.scope.company || e.companyThrough.length));

  /** The companies a stored record belongs to, read straight from the database. */
  async function ownersOf(entity: Entity, row: Row): Promise<Set<unknown>> {
    if (entity.scope.company) return new Set([row[entity.scope.company]]);
    const out = new Set<unknown>();
    for (const field of entity.companyThrough) {
      if (row[field] === null || row[field] === undefined) continue;
      const target = t.registry.require(entity.references.find((r) => r.field === field)?.target as string);
      const parent = (await t.db.database.db
        .selectFrom(target.table)
        .selectAll()
        .where(target.primaryKey, '=', row[field])
        .executeTakeFirstOrThrow()) as Row;
      for (const owner of await ownersOf(target, parent)) out.add(owner);
    }
    return out;
  }

  /** Every record of the entity in the session's client and division, from the database. */
  async function stored(entity: Entity, who: string): Promise<Row[]> {
    let qb = t.db.database.db.selectFrom(entity.table).selectAll();
    const session = sessions[who];
    if (entity.scope.division) qb = qb.where(entity.scope.division, '=', session.division);
    return (await qb.execute()) as Row[];
  }

  const as = (who: string, method: 'GET' | 'PUT' | 'DELETE' | 'POST', url: string, payload?: object) =>
    call(t.app, { method, url, token: sessions[who].token, payload });

  beforeAll(async () => {
    t = await startTestApp(dialect);
    const db = t.db.database.db;
    // Every role's profile reaches every screen, writable.
    const menus = (await db
      .selectFrom(t.registry.require('menu').table)
      .select('IdMenu')
      .where('Ruta', 'is not', null)
      .execute()) as Array<{ IdMenu: string }>;
    const profiles = (await db
      .selectFrom(t.registry.require('profile').table)
      .select(['IdPerfil', 'IdCliente'])
      .execute()) as Array<{ IdPerfil: number; IdCliente: number }>;
    const assigned = t.registry.require('menu-profile');
    for (const profile of profiles) {
      const has = new Set(
        (
          (await db
            .selectFrom(assigned.table)
            .select('IdMenu')
            .where('IdPerfil', '=', profile.IdPerfil)
            .execute()) as Array<{ IdMenu: string }>
        ).map((r) => r.IdMenu),
      );
      const missing = menus.filter((m) => !has.has(m.IdMenu));
      if (missing.length)
        await db
          .insertInto(assigned.table)
          .values(
            missing.map((m) => ({
              IdCliente: profile.IdCliente,
              IdPerfil: profile.IdPerfil,
              IdMenu: m.IdMenu,
              SoloLectura: 'N',
              Activo: 'S',
              IdUsuarioCreacion: 'SISTEMA',
              FechaCreacion: new Date().toISOString(),
            })),
          )
          .execute();
      await db
        .updateTable(assigned.table)
        .set({ SoloLectura: 'N' })
        .where('IdPerfil', '=', profile.IdPerfil)
        .execute();
    }
    t.app.grants.clear();
    for (const who of ['ADMIN', 'SOLICITANTE', 'AUTORIZADOR']) {
      const signed = await signIn(t.app, who, { division: SOUTH });
      sessions[who] = {
        token: signed.accessToken,
        company: signed.perfil.IdCompania,
        division: signed.perfil.IdDivision,
      };
    }
  });
  afterAll(async () => {
    await t?.close();
  });

  it('every entity that refers to a company’s records says whether it belongs to one', () => {
    expect(owned().map((e) => e.name)).toEqual(
      expect.arrayContaining([
        'person',
        'addendum',
        'credential',
        'person-access',
        'vehicle-access',
        'marking',
      ]),
    );
  });

  it('a contractor lists, reads, exports, changes and deletes only its company’s records', async () => {
    const mine = sessions.SOLICITANTE.company;
    expect(mine).toBeTypeOf('number');
    for (const entity of owned()) {
      const listed = await as('SOLICITANTE', 'GET', listUrl(entity.name, { range: [0, 999] }));
      expect(listed.status, entity.name).toBe(200);
      for (const row of listed.body as Row[])
        expect([...(await ownersOf(entity, row))], `${entity.name} ${row.id}`).toContain(mine);

      const foreign: Row[] = [];
      for (const row of await stored(entity, 'SOLICITANTE'))
        if (!(await ownersOf(entity, row)).has(mine)) foreign.push(row);
      expect(foreign.length, `${entity.name}: the demo data has other companies’ records`).toBeGreaterThan(0);
      const theirs = foreign[0];
      const id = theirs[entity.primaryKey];
      const url = `/api/rest/${entity.name}/${id}`;
      expect((await as('SOLICITANTE', 'GET', url)).status, `${entity.name} GET`).toBe(404);
      expect((await as('SOLICITANTE', 'GET', `${url}/history`)).status, `${entity.name} history`).toBe(404);
      const put = await as('SOLICITANTE', 'PUT', url, theirs);
      expect(put.status, `${entity.name} PUT ${JSON.stringify(put.body)}`).toBe(404);
      expect((await as('SOLICITANTE', 'DELETE', url)).status, `${entity.name} DELETE`).toBe(404);
      const still = await t.db.database.db
        .selectFrom(entity.table)
        .select(entity.primaryKey)
        .where(entity.primaryKey, '=', id)
        .executeTakeFirst();
      expect(still, `${entity.name} survives`).toBeDefined();

      const exported = await t.app.inject({
        url: `/api/rest/${entity.name}/export?filter=${encodeURIComponent(JSON.stringify({ id: [id] }))}`,
        headers: { authorization: `Bearer ${sessions.SOLICITANTE.token}` },
      });
      expect(exported.statusCode, `${entity.name} export`).toBe(200);
      const book = new ExcelJS.Workbook();
      await book.xlsx.load(exported.rawPayload as unknown as ArrayBuffer);
      expect(book.getWorksheet('data')?.actualRowCount, `${entity.name} export rows`).toBe(1);

      // Nor can a new record hang from another company's record.
      for (const field of entity.companyThrough) {
        if (theirs[field] === null || theirs[field] === undefined) continue;
        const { [entity.primaryKey]: _key, ...copy } = theirs;
        const created = await as('SOLICITANTE', 'POST', `/api/rest/${entity.name}`, copy);
        expect(created.status, `${entity.name} POST through ${field}`).toBe(400);
        expect(created.body.errors?.[field]?.messageKey, `${entity.name} ${field}`).toBe(
          'validation.referenceMissing',
        );
      }
    }
  });

  it('a contractor’s record that belongs to a company through a reference must name one', async () => {
    const entity = t.registry.require('credential');
    const mine = (await as('SOLICITANTE', 'GET', listUrl('credential', { range: [0, 0] }))).body[0] as Row;
    const { [entity.primaryKey]: _key, IdPersona: _person, ...rest } = mine;
    const res = await as('SOLICITANTE', 'POST', '/api/rest/credential', { ...rest, Activo: 'N' });
    expect(res.status).toBe(400);
    expect(res.body.errors.IdPersona.messageKey).toBe('validation.required');
  });

  it('the client’s own profiles see every company’s records of their division', async () => {
    for (const who of ['ADMIN', 'AUTORIZADOR']) {
      for (const entity of owned()) {
        const listed = await as(who, 'GET', listUrl(entity.name, { range: [0, 999] }));
        expect(listed.status, `${who} ${entity.name}`).toBe(200);
        const rows = await stored(entity, who);
        const visible = rows.filter((r) => !entity.scope.client || r[entity.scope.client] !== null);
        expect(listed.body.length, `${who} ${entity.name}`).toBe(Math.min(visible.length, 1000));
      }
    }
  });
});
