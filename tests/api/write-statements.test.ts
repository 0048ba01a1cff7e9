/**
 * Writes in few round trips: the statements a person's create and delete send, counted (not
 * timed), and every column a write's update or delete filters on led by an index, so that neither
 * creeps back. What each statement is: docs/benchmarks.md, "Writes".
 */
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { Db, DialectName } from '../../src/server/db/connection.js';
import { siteDate } from '../../src/shared/dates.js';
import { DIALECTS } from '../support/databases.js';
import { world } from '../support/world.js';

// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON
type Json = any;

/** The first column of each index of the tables that is not partial (a partial one serves its rows only). */
async function indexLeads(db: Db, dialect: DialectName): Promise<Set<string>> {
  if (dialect === 'postgres') {
    const { rows } = await sql<{ t: string; c: string }>`
      select t.relname as t, a.attname as c
      from pg_index i
      join pg_class t on t.oid = i.indrelid
      join pg_namespace n on n.oid = t.relnamespace and n.nspname = current_schema()
      join pg_attribute a on a.attrelid = t.oid and a.attnum = i.indkey[0]
      where i.indpred is null`.execute(db);
    return new Set(rows.map((r) => `${r.t}.${r.c}`));
  }
  const leads = new Set<string>();
  const { rows: tables } = await sql<{ name: string }>`
    select name from sqlite_master where type = 'table'`.execute(db);
  for (const { name } of tables) {
    const { rows: indexes } = await sql<{ name: string; partial: number }>`
      select name, partial from pragma_index_list(${name})`.execute(db);
    for (const index of indexes.filter((i) => !i.partial)) {
      const { rows: columns } = await sql<{ name: string; seqno: number }>`
        select name, seqno from pragma_index_info(${index.name})`.execute(db);
      const first = columns.find((c) => c.seqno === 0);
      if (first) leads.add(`${name}.${first.name}`);
    }
  }
  return leads;
}

/** `table.column` of the first condition of each update and delete among the statements. */
function writeFilters(statements: string[]): string[] {
  const found = new Set<string>();
  for (const text of statements) {
    const match = /^\s*(?:delete from|update)\s+"(\w+)"[\s\S]*?\bwhere\s+\(?"(\w+)"/i.exec(text);
    if (match) found.add(`${match[1]}.${match[2]}`);
  }
  return [...found];
}

describe.each(DIALECTS)('the statements a write sends on %s', (dialect) => {
  const w = world(dialect, { users: { admin: 'ADMIN', requester: 'SOLICITANTE' } });
  const today = siteDate('PE');

  /** What the database was sent while `act` ran. */
  const sent = async <T>(act: () => Promise<T>): Promise<{ result: T; statements: string[] }> => {
    const statements: string[] = [];
    const stop = w.t.db.database.onStatement((text) => statements.push(text));
    try {
      return { result: await act(), statements };
    } finally {
      stop();
    }
  };
  const listed = (statements: string[]) => statements.map((s, i) => `${i + 1}. ${s}`).join('\n');

  const person = async (document: string) => {
    const dni = ((await w.as('admin', 'GET', '/api/rest/document-type?range=[0,99]')).body as Json[]).find(
      (d) => d.Alias === 'DNI' && d.IdPais === 'PE',
    );
    const company = ((await w.as('requester', 'GET', '/api/rest/company?range=[0,0]')).body as Json[])[0];
    return {
      IdTipoDocumento: dni.IdTipoDocumento,
      Documento: document,
      Apellido: 'QUISPE HUAMÁN',
      Nombre: 'ROSA',
      IdCompania: company.IdCompania,
      Sexo: 'F',
      FechaNacimiento: '1991-02-03',
      IdPaisNacimiento: 'PE',
      IdPaisResidencia: 'PE',
      TelefonoMovil: '987650001',
      Condicion: 'T',
      Visita: 'N',
    };
  };

  for (const who of ['admin', 'requester']) {
    it(`creates a person in at most 8 statements and deletes one in 8 (${who})`, async () => {
      const body = await person(who === 'admin' ? '71900001' : '71900002');
      const created = await sent(() => w.as(who, 'POST', '/api/rest/person', body));
      expect(created.result.status, JSON.stringify(created.result.body)).toBe(201);
      expect(created.statements.length, listed(created.statements)).toBeLessThanOrEqual(8);
      // The employment the create opens is written in the same transaction.
      const id = created.result.body.IdPersona;
      expect(await w.count('person-employment', { IdPersona: id, Vigente: 'S' })).toBe(1);
      const deleted = await sent(() => w.as(who, 'DELETE', `/api/rest/person/${id}`));
      expect(deleted.result.status, JSON.stringify(deleted.result.body)).toBe(200);
      expect(deleted.statements.length, listed(deleted.statements)).toBeLessThanOrEqual(8);
      expect(await w.count('person', { IdPersona: id })).toBe(0);
      expect(await w.count('person-employment', { IdPersona: id })).toBe(0);
    });
  }

  it('still refuses what the checks refused, from their one statement', async () => {
    const body = await person('71900003');
    const missing = await w.as('admin', 'POST', '/api/rest/person', { ...body, IdPaisResidencia: 'ZZ' });
    expect(missing.status, JSON.stringify(missing.body)).toBe(400);
    expect(missing.body.code).toBe('MISSING_REFERENCE');
    expect(Object.keys(missing.body.errors)).toEqual(['IdPaisResidencia']);
    const badDocument = await w.as('admin', 'POST', '/api/rest/person', { ...body, Documento: '12AB' });
    expect(badDocument.status, JSON.stringify(badDocument.body)).toBe(400);
    expect(badDocument.body.code).toBe('VALIDATION_FAILED');
    expect(Object.keys(badDocument.body.errors)).toEqual(['Documento']);
    expect((await w.as('admin', 'POST', '/api/rest/person', body)).status).toBe(201);
    const twice = await w.as('requester', 'POST', '/api/rest/person', body);
    expect(twice.status).toBe(409);
    expect(twice.body.code, JSON.stringify(twice.body)).toBe('DUPLICATE');
  });

  it('filters every update and delete of a person’s life on a column an index leads with', async () => {
    const statements: string[] = [];
    const stop = w.t.db.database.onStatement((text) => statements.push(text));
    try {
      const created = await w.as('admin', 'POST', '/api/rest/person', await person('71900004'));
      const id = created.body.IdPersona;
      const reason = (
        (await w.as('admin', 'GET', '/api/rest/cessation-reason?range=[0,0]')).body as Json[]
      )[0];
      const stored = (await w.as('admin', 'GET', `/api/rest/person/${id}`)).body;
      const ceased = await w.as('admin', 'PUT', `/api/rest/person/${id}`, {
        ...stored,
        Condicion: 'C',
        FechaCese: today,
        IdMotivoCese: reason.id,
      });
      expect(ceased.status, JSON.stringify(ceased.body)).toBe(200);
      expect((await w.as('admin', 'DELETE', `/api/rest/person/${id}`)).status).toBe(200);
    } finally {
      stop();
    }
    const filters = writeFilters(statements);
    // The cessation ends the employment; the delete removes it and the person.
    expect(filters).toEqual(
      expect.arrayContaining([
        `${w.table('person-employment')}.IdEmpleo`,
        `${w.table('person-employment')}.IdPersona`,
        `${w.table('person')}.IdPersona`,
      ]),
    );
    const leads = await indexLeads(w.db(), dialect);
    const primaryKeys = new Set(w.registry.entities.map((e) => `${e.table}.${e.primaryKey}`));
    expect(filters.filter((f) => !leads.has(f) && !primaryKeys.has(f))).toEqual([]);
  });

  it('leads an index with every reference, which a delete of the record it points at asks by', async () => {
    const leads = await indexLeads(w.db(), dialect);
    const unled = w.registry.entities.flatMap((entity) =>
      entity.references
        .filter((ref) => !ref.many && ref.field !== entity.primaryKey)
        .map((ref) => `${entity.table}.${ref.field}`)
        .filter((column) => !leads.has(column)),
    );
    expect(unled).toEqual([]);
  });
});
