import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PEOPLE, isEmpty, seedDemo } from '../../src/server/demo/seed.js';
import { prepareDatabase } from '../../src/server/prepare.js';
import { loadRegistry } from '../../src/server/registry.js';
import { rucCheckDigit, rutCheckDigit } from '../../src/shared/check-digits.js';
import { createTestDatabase, DIALECTS, type TestDatabase } from '../support/databases.js';

const registry = loadRegistry();

describe.each(DIALECTS)('demo data on %s', (dialect) => {
  let t: TestDatabase;
  const count = async (resource: string) =>
    Number(
      (
        (await t.database.db
          .selectFrom(registry.require(resource).table)
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()) as { n: number | string }
      ).n,
    );

  beforeAll(async () => {
    t = await createTestDatabase(dialect);
    await prepareDatabase(t.database, registry);
  });
  afterAll(async () => {
    await t?.drop();
  });

  it('loads into an empty database only', async () => {
    expect(await isEmpty(t.database, registry)).toBe(true);
    const report = await seedDemo(t.database, registry);
    expect(report).toMatchObject({ person: DEMO_PEOPLE, country: 15, 'blood-type': 8 });
    // Entities without seeding code load the records of their <entity>.demo.json.
    expect(report.currency).toBe(8);
    expect(await isEmpty(t.database, registry)).toBe(false);
  });

  it('holds Peruvian and Chilean documents with their real lengths and check digits', async () => {
    const types = await t.database.db.selectFrom('system_document_type').selectAll().execute();
    const type = (country: string, alias: string) =>
      types.find((d) => d.IdPais === country && d.Alias === alias);
    expect(type('PE', 'DNI')).toMatchObject({ Longitud: 8, LongitudFija: 'S', CaracteresPermitidos: '0-9' });
    expect(type('PE', 'RUC')).toMatchObject({ Longitud: 11, LongitudFija: 'S' });
    expect(type('CH', 'RUT')).toMatchObject({ Longitud: 9, CaracteresPermitidos: '0-9K' });

    const companies = await t.database.db.selectFrom('administration_company').selectAll().execute();
    expect(companies.filter((c) => c.Contratista === 'S').length).toBeGreaterThanOrEqual(6);
    for (const company of companies) {
      const doc = String(company.Documento);
      if (company.IdTipoDocumento === type('PE', 'RUC')?.IdTipoDocumento) {
        expect(doc).toMatch(/^\d{11}$/);
        expect(Number(doc[10])).toBe(rucCheckDigit(doc.slice(0, 10)));
      } else {
        expect(doc.slice(-1)).toBe(rutCheckDigit(doc.slice(0, -1)));
      }
    }
    const people = await t.database.db.selectFrom('administration_person').selectAll().execute();
    const dni = type('PE', 'DNI')?.IdTipoDocumento;
    for (const person of people.filter((p) => p.IdTipoDocumento === dni))
      expect(person.Documento).toMatch(/^\d{8}$/);
    expect(people.every((p) => typeof p.Edad === 'number' && p.Edad >= 18)).toBe(true);
  });

  it('reloads on demand, replacing rather than doubling', async () => {
    await t.database.db
      .updateTable('system_country')
      .set({ Pais: 'CAMBIADO' })
      .where('IdPais', '=', 'PE')
      .execute();
    await seedDemo(t.database, registry, { replace: true });
    expect(await count('person')).toBe(DEMO_PEOPLE);
    expect(await count('country')).toBe(15);
    const peru = await t.database.db
      .selectFrom('system_country')
      .select('Pais')
      .where('IdPais', '=', 'PE')
      .executeTakeFirst();
    expect(peru?.Pais).toBe('PERÚ');
  });
});
