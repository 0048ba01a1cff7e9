import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { brokenUniqueWhen } from '../../src/server/db/errors.js';
import { runMigrations } from '../../src/server/db/migrate.js';
import { syncSchema } from '../../src/server/db/sync.js';
import { prepareDatabase } from '../../src/server/prepare.js';
import { buildRegistry, loadRegistry, readSchemaFiles, type SchemaFile } from '../../src/server/registry.js';
import { createTestDatabase, DIALECTS, type TestDatabase } from '../support/databases.js';

const files = readSchemaFiles();
const withCountryField = (): SchemaFile[] =>
  files.map((file) => {
    if (file.name !== 'country') return file;
    const schema = structuredClone(file.schema) as { properties: Record<string, unknown> };
    schema.properties.Capital = { type: 'string', maxLength: 60 };
    return { ...file, schema };
  });
/** The country's name no longer required (its column was made NOT NULL when it was). */
const withCountryNameOptional = (): SchemaFile[] =>
  files.map((file) => {
    if (file.name !== 'country') return file;
    const schema = structuredClone(file.schema) as { required: string[] };
    schema.required = schema.required.filter((field) => field !== 'Pais');
    return { ...file, schema };
  });
const withNewEntity = (): SchemaFile[] => [
  ...files,
  {
    path: 'schemas/system/currency.schema.json',
    module: 'system',
    name: 'test-currency',
    schema: {
      $schema: 'http://json-schema.org/draft-07/schema#',
      title: 'MonedaPrueba',
      type: 'object',
      'x-module': 'system',
      'x-primaryKey': 'IdMoneda',
      'x-label': ['Moneda'],
      'x-list': ['IdMoneda', 'Moneda'],
      required: ['IdMoneda', 'Moneda'],
      additionalProperties: false,
      properties: {
        IdMoneda: { type: 'string', maxLength: 3 },
        Moneda: { type: 'string', maxLength: 50 },
        IdPais: { type: 'string', 'x-ref': { resource: 'country' } },
      },
    },
  },
];

/** A table of tickets, of which a holder may have one pending (Estado P) of a kind at a time, or as many as it likes. */
const withTickets = (partial: boolean): SchemaFile[] => [
  ...files,
  {
    path: 'schemas/system/currency.schema.json',
    module: 'system',
    name: 'test-ticket',
    schema: {
      $schema: 'http://json-schema.org/draft-07/schema#',
      title: 'TicketPrueba',
      type: 'object',
      'x-module': 'system',
      'x-primaryKey': 'IdTicket',
      'x-label': ['IdTicket'],
      'x-list': ['IdTicket'],
      ...(partial
        ? {
            'x-uniqueWhen': [
              { fields: ['Titular', 'Tipo'], when: { Estado: ['P'] }, messageKey: 'ticket.openTwice' },
            ],
          }
        : {}),
      required: ['Titular', 'Tipo', 'Estado'],
      additionalProperties: false,
      properties: {
        IdTicket: { type: 'integer', 'x-generated': true },
        Titular: { type: 'integer' },
        Tipo: { type: 'string', maxLength: 1 },
        Estado: { type: 'string', enum: ['P', 'R'], 'x-enum': 'requestStatus' },
      },
    },
  },
];

async function columns(t: TestDatabase, table: string): Promise<string[]> {
  const tables = await t.database.db.introspection.getTables();
  return tables.find((x) => x.name === table)?.columns.map((c) => c.name) ?? [];
}

describe.each(DIALECTS)('schema sync and migrations on %s', (dialect) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase(dialect);
  });
  afterAll(async () => {
    await t?.drop();
  });

  it('creates every table with its columns and the audit columns on a first start', async () => {
    const report = await prepareDatabase(t.database, loadRegistry());
    expect(report.createdTables).toContain('system_country');
    expect(report.createdTables).toContain('administration_person');
    expect(await columns(t, 'system_country')).toEqual(
      expect.arrayContaining([
        'IdPais',
        'Pais',
        'IdUsuarioCreacion',
        'FechaCreacion',
        'IdUsuarioModificacion',
        'FechaModificacion',
      ]),
    );
  });

  it('does nothing the second time', async () => {
    const report = await syncSchema(t.database, loadRegistry());
    expect(report.createdTables).toEqual([]);
    expect(report.addedColumns).toEqual([]);
    expect(report.relaxedColumns).toEqual([]);
  });

  it('adds a new property as a column and keeps the rows', async () => {
    await t.database.db
      .insertInto('system_country')
      .values({ IdPais: 'PE', Pais: 'PERÚ', Activo: 'S' })
      .execute();
    const report = await syncSchema(t.database, buildRegistry(withCountryField()));
    expect(report.addedColumns).toEqual(['system_country.Capital']);
    const rows = await t.database.db.selectFrom('system_country').selectAll().execute();
    expect(rows).toEqual([expect.objectContaining({ IdPais: 'PE', Pais: 'PERÚ', Capital: null })]);
  });

  it('never drops a column a schema no longer has', async () => {
    const report = await syncSchema(t.database, loadRegistry());
    expect(report.addedColumns).toEqual([]);
    expect(await columns(t, 'system_country')).toContain('Capital');
  });

  it('lets a column hold nothing once its field is no longer required, keeping its rows, indexes and keys', async () => {
    const db = t.database.db;
    const report = await syncSchema(t.database, buildRegistry(withCountryNameOptional()));
    expect(report.relaxedColumns).toEqual(['system_country.Pais']);
    expect(report.addedColumns).toEqual([]);
    // The rows stay, and a country without a name may now be written.
    expect(await db.selectFrom('system_country').select(['IdPais', 'Pais']).execute()).toEqual([
      { IdPais: 'PE', Pais: 'PERÚ' },
    ]);
    await db.insertInto('system_country').values({ IdPais: 'CL', Pais: null, Activo: 'S' }).execute();
    // Its unique key still holds, and so do the foreign keys that point at it.
    await expect(
      db.insertInto('system_country').values({ IdPais: 'CL', Pais: 'CHILE', Activo: 'S' }).execute(),
    ).rejects.toThrow();
    await expect(
      db.insertInto('system_country').values({ IdPais: 'BO', Pais: 'PERÚ', Activo: 'S' }).execute(),
    ).rejects.toThrow();
    await expect(
      db
        .insertInto('administration_holiday')
        .values({ Fecha: '2026-07-28', Descripcion: 'FIESTAS PATRIAS', Plantilla: 'N', IdPais: 'XX' })
        .execute(),
    ).rejects.toThrow();
    await db
      .insertInto('administration_holiday')
      .values({ Fecha: '2026-07-28', Descripcion: 'FIESTAS PATRIAS', Plantilla: 'N', IdPais: 'PE' })
      .execute();
    await db.deleteFrom('administration_holiday').execute();
    await db.deleteFrom('system_country').where('IdPais', '=', 'CL').execute();
    // Once nullable, a second start relaxes nothing; the required schema does not tighten it again.
    expect((await syncSchema(t.database, buildRegistry(withCountryNameOptional()))).relaxedColumns).toEqual(
      [],
    );
    expect((await syncSchema(t.database, loadRegistry())).relaxedColumns).toEqual([]);
  });

  it('creates the table of a schema dropped in, with its foreign key', async () => {
    const report = await syncSchema(t.database, buildRegistry(withNewEntity()));
    expect(report.createdTables).toEqual(['system_test_currency']);
    await t.database.db
      .insertInto('system_test_currency')
      .values({ IdMoneda: 'PEN', Moneda: 'SOL', IdPais: 'PE' })
      .execute();
    await expect(
      t.database.db
        .insertInto('system_test_currency')
        .values({ IdMoneda: 'XXX', Moneda: 'X', IdPais: 'ZZ' })
        .execute(),
    ).rejects.toThrow();
  });

  it('makes a partial unique index of x-uniqueWhen; rows already breaking it leave it unmade and named, until they are gone', async () => {
    await syncSchema(t.database, buildRegistry(withTickets(false)));
    const db = t.database.db;
    const ticket = (Titular: number, Estado: string, Tipo = 'X') =>
      db.insertInto('system_test_ticket').values({ Titular, Tipo, Estado }).execute();
    await ticket(1, 'P');
    await ticket(1, 'P');
    const registry = buildRegistry(withTickets(true));
    const refused = await syncSchema(t.database, registry);
    expect(refused.refusedIndexes).toEqual([
      { index: expect.stringMatching(/^uq_system_test_ticket_titular_tipo_w/), reason: expect.any(String) },
    ]);
    await db.deleteFrom('system_test_ticket').where('IdTicket', '=', 2).execute();
    const made = await syncSchema(t.database, registry);
    expect(made.refusedIndexes).toEqual([]);
    // Closed ones repeat, and a pending one of another kind; a second pending one of a kind is refused.
    await ticket(1, 'R');
    await ticket(1, 'R');
    await ticket(1, 'P', 'Y');
    const error = await ticket(1, 'P').then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeDefined();
    expect(brokenUniqueWhen(registry, error)).toMatchObject({ messageKey: 'ticket.openTwice' });
    expect(brokenUniqueWhen(registry, new Error('other'))).toBeUndefined();
    const open = await db
      .selectFrom('system_test_ticket')
      .select(['Titular', 'Tipo'])
      .where('Estado', '=', 'P')
      .orderBy('IdTicket')
      .execute();
    expect(open).toEqual([
      { Titular: 1, Tipo: 'X' },
      { Titular: 1, Tipo: 'Y' },
    ]);
  });

  it('runs a frozen migration once and records it', async () => {
    const migration = {
      up: async (db: typeof t.database.db) => {
        await db.schema.alterTable('system_country').renameColumn('Capital', 'CiudadCapital').execute();
      },
    };
    const first = await runMigrations(t.database.db, { '20261121_rename_capital': migration });
    expect(first.results?.map((r) => r.status)).toEqual(['Success']);
    expect(await columns(t, 'system_country')).toContain('CiudadCapital');
    const second = await runMigrations(t.database.db, { '20261121_rename_capital': migration });
    expect(second.results).toEqual([]);
    const recorded = await sql<{ name: string }>`select name from kysely_migration`.execute(t.database.db);
    expect(recorded.rows.map((r) => r.name)).toEqual(['20261121_rename_capital']);
  });
});
