import { describe, expect, it } from 'vitest';
import { addDays, siteDate } from '../../src/shared/dates.js';
import { catalogue, copyContract, peopleOnContract } from '../support/accreditation.js';
import { DIALECTS } from '../support/databases.js';
import { world } from '../support/world.js';

// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON
type Json = any;
const SOUTH = 'UNIDAD MINERA SAN GABRIEL';
const BASE = '/api/acreditacionsolicitud';

/**
 * A contract's endowment (spec section 3 Contract; section 5 "Contract exceeds current
 * headcount"): the people accredited on it and those of its open requests stay within the
 * contract's endowment, or its unit's when it applies by organisational unit; over it a worker's
 * request is refused with nothing written, or let through flagged when the client says so; a
 * contract change that would break the new contract's cap is refused too; two filings at once
 * for the last place: one passes.
 */
describe.each(DIALECTS)('the endowment cap on %s', (dialect) => {
  const w = world(dialect, {
    users: { admin: 'ADMIN', requester: 'SOLICITANTE' },
    division: SOUTH,
    ready: async () => {
      cat = await catalogue(w.app, tokens.admin);
      contract = (await cat.list('contract')).find(
        (c: Json) => c.NumeroContrato === 'CT-2026-001',
      ).IdContrato;
      units = (await cat.list('organisational-unit')).map((u: Json) => u.IdUnidadOrganizativa).slice(0, 2);
    },
  });
  let cat: Awaited<ReturnType<typeof catalogue>>;
  const today = siteDate('PE');
  let contract: number;
  let units: number[];
  let serial = 0;

  const { as, tokens, db, table } = w;
  const requests = async () =>
    Number(
      (
        (await db()
          .selectFrom(table('request'))
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()) as { n: number | string }
      ).n,
    );
  const held = (unit?: number) => peopleOnContract(db(), w.registry, contract, today, unit);
  const cap = (values: { TipoDotacion?: string; Dotacion?: number }) =>
    db().updateTable(table('contract')).set(values).where('IdContrato', '=', contract).execute();
  const setting = (value: string) =>
    db()
      .updateTable(table('parameter'))
      .set({ Valor1: value })
      .where('IdConfiguracion', '=', 'DOTACIONEXCEDIDA')
      .execute();
  const worker = (unit?: number) => ({
    IdEntidad: 'T',
    IdContrato: contract,
    IdPerfilAcreditacion: cat.worker,
    FechaInicio: today,
    FechaFin: addDays(today, 60),
    ...(unit ? { IdUnidadOrganizativa: unit } : {}),
    IdTipoDocumento: cat.dni,
    Documento: String(72_300_000 + serial++),
    Apellido: 'Yupanqui Ramos',
    Nombre: 'Luis',
    Sexo: 'M',
    FechaNacimiento: '1987-06-15',
    IdPaisNacimiento: 'PE',
    IdPaisResidencia: 'PE',
    TelefonoMovil: '987555666',
  });
  const file = (unit?: number) => as('requester', 'POST', `${BASE}/crearsolicitante`, worker(unit));

  it('refuses a worker over the contract’s endowment with the spec’s message, writing nothing', async () => {
    await cap({ TipoDotacion: 'C', Dotacion: (await held()) + 1 });
    const first = await file();
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const before = await requests();
    const people = await held();
    const refused = await file();
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe(
      `Contract exceeds current headcount: ${people + 1} people for an endowment of ${people}.`,
    );
    expect(await requests()).toBe(before);
    // Without an endowment (applies to none), the same worker is filed.
    await cap({ TipoDotacion: 'N' });
    expect((await file()).status).toBe(200);
  });

  it('lets it through flagged when the client says so', async () => {
    await cap({ TipoDotacion: 'C', Dotacion: await held() });
    await setting('F');
    const flagged = await file();
    expect(flagged.status, JSON.stringify(flagged.body)).toBe(200);
    const stored = (await db()
      .selectFrom(table('request'))
      .select('ExcedeDotacion')
      .where('IdSolicitud', '=', flagged.body.result.IdSolicitud)
      .executeTakeFirstOrThrow()) as Json;
    expect(stored.ExcedeDotacion).toBe('S');
    await setting('R');
    // A request within the endowment is not flagged.
    await cap({ Dotacion: (await held()) + 1 });
    const within = await file();
    const plain = (await db()
      .selectFrom(table('request'))
      .select('ExcedeDotacion')
      .where('IdSolicitud', '=', within.body.result.IdSolicitud)
      .executeTakeFirstOrThrow()) as Json;
    expect(plain.ExcedeDotacion).toBe('N');
  });

  it('counts by organisational unit when the endowment applies by unit', async () => {
    const [one, two] = units;
    await cap({ TipoDotacion: 'U', Dotacion: 0 });
    await db()
      .insertInto(table('contract-unit'))
      .values({
        IdCliente: (
          (await db()
            .selectFrom(table('contract'))
            .select('IdCliente')
            .where('IdContrato', '=', contract)
            .executeTakeFirstOrThrow()) as Json
        ).IdCliente,
        IdDivision: (
          (await db()
            .selectFrom(table('contract'))
            .select('IdDivision')
            .where('IdContrato', '=', contract)
            .executeTakeFirstOrThrow()) as Json
        ).IdDivision,
        IdContrato: contract,
        IdUnidadOrganizativa: one,
        Dotacion: (await held(one)) + 1,
        Activo: 'S',
        IdUsuarioCreacion: 'ADMIN',
        FechaCreacion: new Date().toISOString(),
      })
      .execute();
    expect((await file(one)).status).toBe(200);
    const refused = await file(one);
    expect(refused.status).toBe(400);
    expect(refused.body.messageKey).toBe('accreditation.refusals.endowmentExceeded');
    // A unit the contract does not list is not one it may staff (contract-terms.test.ts).
    const unlisted = await file(two);
    expect(unlisted.status).toBe(400);
    expect(unlisted.body.errors.IdUnidadOrganizativa.messageKey).toBe(
      'accreditation.refusals.unitNotInContract',
    );
  });

  it('refuses a contract change that breaks the new contract’s cap', async () => {
    await cap({ TipoDotacion: 'N' });
    const target = await copyContract(db(), w.registry, contract, '-B');
    await db()
      .updateTable(table('contract'))
      .set({ TipoDotacion: 'C', Dotacion: 0 })
      .where('IdContrato', '=', target)
      .execute();
    const accredited = (await db()
      .selectFrom(table('accreditation'))
      .select(['IdAcreditacion', 'FechaFin'])
      .where('IdContrato', '=', contract)
      .where('IdEntidad', '=', 'T')
      .where('Estado', '=', 'A')
      .where('FechaFin', '>=', addDays(today, 10))
      .execute()) as Json[];
    expect(accredited.length).toBeGreaterThan(0);
    const before = await requests();
    const move = () =>
      as('requester', 'POST', '/api/acreditacioncontrato/cambiar', {
        IdEntidad: 'T',
        Acreditaciones: [accredited[0].IdAcreditacion],
        IdContrato: target,
        FechaFin: addDays(today, 5),
      });
    const refused = await move();
    expect(refused.status).toBe(400);
    expect(refused.body.messageKey).toBe('accreditation.refusals.endowmentExceeded');
    expect(await requests()).toBe(before);
    await db().updateTable(table('contract')).set({ Dotacion: 1 }).where('IdContrato', '=', target).execute();
    const moved = await move();
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
  });

  it('gives the last place to one of two filings at the same time', async () => {
    await cap({ TipoDotacion: 'C', Dotacion: (await held()) + 1 });
    const answers = await Promise.all([file(), file()]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 400]);
    expect(await held()).toBe(
      (
        (await db()
          .selectFrom(table('contract'))
          .select('Dotacion')
          .where('IdContrato', '=', contract)
          .executeTakeFirstOrThrow()) as Json
      ).Dotacion,
    );
  });
});
