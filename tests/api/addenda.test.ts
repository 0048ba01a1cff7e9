import { describe, expect, it } from 'vitest';
import { applyAddenda } from '../../src/server/features/administration/addenda.js';
import { addDays, siteDate } from '../../src/shared/dates.js';
import { catalogue, copyContract, peopleOnContract, workerRequest } from '../support/accreditation.js';
import { DIALECTS } from '../support/databases.js';
import { world } from '../support/world.js';

// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON
type Json = any;
const SOUTH = 'UNIDAD MINERA SAN GABRIEL';
const BASE = '/api/acreditacionsolicitud';

/**
 * A contract's addenda act (Administration > Addenda): an approved one extends the contract's end
 * from its date (requests on the contract may then reach the new end, and the request's context
 * shows it), adds people to its endowment and a service over its period; one outside the contract
 * or overlapping another active one of it is refused; withdrawing it puts the signed end back.
 */
describe.each(DIALECTS)('contract addenda on %s', (dialect) => {
  const w = world(dialect, {
    users: { admin: 'ADMIN', requester: 'SOLICITANTE' },
    division: SOUTH,
    ready: async () => {
      cat = await catalogue(w.app, tokens.admin);
      const source = (await cat.list('contract')).find((c: Json) => c.NumeroContrato === 'CT-2026-001');
      contract = await copyContract(db(), w.registry, source.IdContrato, '-AD');
      signed = source.FechaFinOriginal;
    },
  });
  const { as, tokens, db, table } = w;
  let cat: Awaited<ReturnType<typeof catalogue>>;
  let contract: number;
  let signed: string;
  let serial = 0;
  const today = siteDate('PE');

  const contractRow = async () =>
    (await db()
      .selectFrom(table('contract'))
      .select(['FechaFin', 'FechaFinOriginal', 'FechaInicio'])
      .where('IdContrato', '=', contract)
      .executeTakeFirstOrThrow()) as Json;
  const addendum = (fields: object) =>
    as('admin', 'POST', '/api/rest/addendum', {
      IdContrato: contract,
      NumeroAdenda: `AD-T${serial++}`,
      Descripcion: 'AMPLIACIÓN DE PLAZO',
      FechaInicio: today,
      FechaFin: addDays(today, 30),
      Aprobada: 'N',
      Activo: 'S',
      ...fields,
    });
  const file = (end: string) =>
    as(
      'requester',
      'POST',
      `${BASE}/crearsolicitante`,
      workerRequest(cat, contract, today, { FechaFin: end, Documento: String(72_400_000 + serial++) }),
    );

  it('extends the contract’s end once approved, from its date; requests may then reach the new end', async () => {
    const before = await contractRow();
    expect(before.FechaFin).toBe(signed);
    const late = addDays(signed, 20);
    const refused = await file(late);
    expect(refused.status).toBe(400);
    expect(JSON.stringify(refused.body.errors)).toContain('FechaFin');

    const extended = addDays(signed, 90);
    const made = await addendum({ NuevaFechaFin: extended });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    // Not approved yet: the contract keeps its end.
    expect((await contractRow()).FechaFin).toBe(signed);
    const approved = await as('admin', 'PUT', `/api/rest/addendum/${made.body.IdAdenda}`, {
      ...made.body,
      Aprobada: 'S',
    });
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    expect(await contractRow()).toMatchObject({ FechaFin: extended, FechaFinOriginal: signed });
    const filed = await file(late);
    expect(filed.status, JSON.stringify(filed.body)).toBe(200);
    const context = await as('requester', 'GET', `${BASE}/contratocontratistainfo?IdContrato=${contract}`);
    expect(context.body.result.FechaFin).toBe(extended);

    // Withdrawn, the signed end is back.
    expect((await as('admin', 'DELETE', `/api/rest/addendum/${made.body.IdAdenda}`)).status).toBe(200);
    expect((await contractRow()).FechaFin).toBe(signed);
  });

  it('an extension approved ahead of its date moves the end on that day, by the daily job', async () => {
    const from = addDays(today, 40);
    const made = await addendum({
      FechaInicio: from,
      FechaFin: addDays(from, 10),
      NuevaFechaFin: addDays(signed, 60),
      Aprobada: 'S',
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect((await contractRow()).FechaFin).toBe(signed);
    const onItsDay = Date.parse(`${from}T17:00:00Z`);
    expect(await applyAddenda(db(), w.registry, contract, onItsDay)).toBe(true);
    expect((await contractRow()).FechaFin).toBe(addDays(signed, 60));
    expect(await applyAddenda(db(), w.registry, contract, onItsDay)).toBe(false);
    await as('admin', 'DELETE', `/api/rest/addendum/${made.body.IdAdenda}`);
    expect((await contractRow()).FechaFin).toBe(signed);
  });

  it('refuses an addendum outside its contract or overlapping another active one, naming it', async () => {
    const { FechaInicio } = await contractRow();
    const early = await addendum({ FechaInicio: addDays(FechaInicio, -1) });
    expect(early.status).toBe(400);
    expect(early.body.errors.FechaInicio.messageKey).toBe('rules.outsideContract');
    const beyond = await addendum({ FechaFin: addDays(signed, 1) });
    expect(beyond.status).toBe(400);
    expect(beyond.body.errors.FechaFin.messageKey).toBe('rules.outsideContract');

    const first = await addendum({ NumeroAdenda: 'AD-X1', FechaFin: addDays(today, 10) });
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    const overlapping = await addendum({ FechaInicio: addDays(today, 10), FechaFin: addDays(today, 20) });
    expect(overlapping.status).toBe(400);
    expect(overlapping.body.errors.FechaInicio.messageKey).toBe('rules.addendumOverlaps');
    expect(overlapping.body.errors.FechaInicio.message).toContain('AD-X1');
    const spanish = await as(
      'admin',
      'POST',
      '/api/rest/addendum',
      {
        IdContrato: contract,
        NumeroAdenda: 'AD-X2',
        Descripcion: 'OTRA',
        FechaInicio: today,
        FechaFin: today,
        Aprobada: 'N',
        Activo: 'S',
      },
      { headers: { 'accept-language': 'es' } },
    );
    expect(spanish.body.errors.FechaInicio.message).toContain('Se superpone con la adenda AD-X1');
    // An inactive one overlaps nothing.
    const inactive = await addendum({ FechaFin: addDays(today, 5), Activo: 'N' });
    expect(inactive.status, JSON.stringify(inactive.body)).toBe(201);
    await as('admin', 'DELETE', `/api/rest/addendum/${first.body.IdAdenda}`);
    await as('admin', 'DELETE', `/api/rest/addendum/${inactive.body.IdAdenda}`);
  });

  it('adds people to the endowment and a service over its period', async () => {
    const held = await peopleOnContract(db(), w.registry, contract, today);
    await db()
      .updateTable(table('contract'))
      .set({ TipoDotacion: 'C', Dotacion: held })
      .where('IdContrato', '=', contract)
      .execute();
    await db()
      .updateTable(table('parameter'))
      .set({ Valor1: 'R' })
      .where('IdConfiguracion', '=', 'DOTACIONEXCEDIDA')
      .execute();
    const full = await file(addDays(today, 30));
    expect(full.status).toBe(400);
    expect(full.body.messageKey).toBe('accreditation.refusals.endowmentExceeded');
    const made = await addendum({ DotacionAdicional: 1, TipoServicio: 'L', Aprobada: 'S' });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect((await file(addDays(today, 30))).status).toBe(200);
    const context = await as('requester', 'GET', `${BASE}/contratocontratistainfo?IdContrato=${contract}`);
    expect(context.body.result.Servicios.map((s: Json) => s.TipoServicio)).toContain('L');
    // One more is over again: the addendum added one place.
    const over = await file(addDays(today, 30));
    expect(over.body.messageKey).toBe('accreditation.refusals.endowmentExceeded');
  });
});
