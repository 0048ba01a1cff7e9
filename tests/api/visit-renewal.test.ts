import { describe, expect, it } from 'vitest';
import { addDays, siteDate } from '../../src/shared/dates.js';
import { accreditedVisitor, catalogue, sendRenewal } from '../support/accreditation.js';
import { DIALECTS } from '../support/databases.js';
import { CONTRACTOR_CAST, world } from '../support/world.js';

// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON
type Json = any;
const BASE = '/api/acreditacionrequisitosolicitud';

describe.each(DIALECTS)('requirement update (renewal) of a visit’s visitor on %s', (dialect) => {
  const today = siteDate('PE');
  const newExpiry = addDays(today, 300);
  let cat: Awaited<ReturnType<typeof catalogue>>;
  let contract: number;
  const w = world(dialect, {
    users: CONTRACTOR_CAST,
    ready: async () => {
      cat = await catalogue(w.app, tokens.admin);
      contract = (await cat.list('contract')).find(
        (c: Json) => c.NumeroContrato === 'CT-2026-001',
      ).IdContrato;
    },
  });
  const { tokens, as } = w;
  const table = (name: string) => w.registry.require(name).table;
  const db = () => w.t.db.database.db;
  const visitor = (document: string) =>
    accreditedVisitor(
      w.app,
      { requester: tokens.requester, authoriser: tokens.authoriser },
      {
        contract,
        profile: cat.visit,
        dni: cat.dni,
        document,
        today,
        expiry: addDays(today, 30),
      },
    );
  const statusRow = (answer: Json[], entity: string, status: string) =>
    (answer.slice(1) as Json[][]).flat().find((r) => r.ENTIDAD === entity && r.ESTADO === status);

  it('renews a visitor’s requirement end to end: made with its one visitor, sent, approved, the kept value renewed, the visit’s dates kept', async () => {
    const visit = await visitor('45120001');
    const person = visit.IdPersona;
    // The visitor is offered on the screen, with the requirements it holds.
    const offered = (await as('requester', 'GET', `${BASE}/acreditados?IdEntidad=P`)).body.result as Json[];
    expect(offered.map((r) => r.IdPersona)).toContain(person);
    const held = await as(
      'requester',
      'GET',
      `${BASE}/requisitosacreditados?IdEntidad=P&IdPersona=${person}`,
    );
    expect(held.status, JSON.stringify(held.body)).toBe(200);
    const requirement = (held.body.result as Json[]).find((r) => r.FechaVencimiento) ?? held.body.result[0];
    expect(requirement).toBeTruthy();
    const before = (await as('requester', 'GET', `${BASE}/dashboard?CantMeses=1`)).body.result as Json[];
    const pendingBefore = statusRow(before, 'P', 'P')?.TOTAL ?? 0;

    const made = await as('requester', 'POST', `${BASE}/crear`, {
      IdEntidad: 'P',
      IdPersona: person,
      IdRequisito: requirement.IdRequisito,
    });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const id = made.body.result.IdSolicitud as number;
    const read = (
      await as('requester', 'GET', `/api/acreditacionsolicitud/obtenersolicitud?IdSolicitud=${id}`)
    ).body.result;
    expect(read).toMatchObject({
      TipoSolicitud: 'A',
      IdEntidad: 'P',
      IdPersona: person,
      IdContrato: contract,
    });
    expect(read.Visitantes).toHaveLength(1);
    expect(read.Visitantes[0]).toMatchObject({ Documento: '45120001', IdPersona: person });

    const items = await sendRenewal(w.app, tokens.requester, id, newExpiry);
    expect(new Set(items.map((i: Json) => i.IdRequisito))).toEqual(new Set([requirement.IdRequisito]));
    expect(new Set(items.map((i: Json) => i.IdVisitaPersona))).toEqual(
      new Set([read.Visitantes[0].IdVisitaPersona]),
    );
    const after = (await as('requester', 'GET', `${BASE}/dashboard?CantMeses=1`)).body.result as Json[];
    expect(statusRow(after, 'P', 'P').TOTAL).toBe(pendingBefore + 1);

    // A second open renewal of the same requirement is refused.
    const twice = await as('requester', 'POST', `${BASE}/crear`, {
      IdEntidad: 'P',
      IdPersona: person,
      IdRequisito: requirement.IdRequisito,
    });
    expect(twice.status).toBe(409);
    expect(twice.body.messageKey).toBe('accreditation.refusals.openRequestExists');

    // The authoriser sees it among the visits' renewals and on its dashboard, and approves it.
    const listed = (await as('authoriser', 'GET', `${BASE}/filtrar?IdEntidad=P&take=200`)).body.result
      .data as Json[];
    expect(listed.map((r) => r.IdSolicitud)).toContain(id);
    const boss = (await as('authoriser', 'GET', `${BASE}/dashboardAutorizador?CantMeses=1`)).body
      .result as Json[];
    expect(statusRow(boss, 'P', 'P').TOTAL).toBeGreaterThanOrEqual(1);
    const evaluated = await as('authoriser', 'GET', `${BASE}/obtener?IdSolicitud=${id}`);
    expect(evaluated.status, JSON.stringify(evaluated.body)).toBe(200);
    const [requesterItems, authoriserItems] = evaluated.body.result.detalle;
    const approved = await as('authoriser', 'POST', `${BASE}/actualizarautorizador`, {
      IdSolicitud: id,
      Accion: 'APROBAR',
      Detalle: [
        ...requesterItems
          .filter((i: Json) => i.Aprobar === 'S')
          .map((i: Json) => ({ IdDetalle: i.IdSecuencial, EstadoAprobacion: 'A' })),
        ...authoriserItems
          .filter((i: Json) => i.Aprobar === 'S')
          .map((i: Json) => ({ IdDetalle: i.IdSecuencial, EstadoAprobacion: 'A', Valor: 'APROBADO' })),
      ],
    });
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    expect(approved.body.result.EstadoAprobacion).toBe('A');

    // The kept values are the renewal's, the visitor's own; the visit's accreditation keeps its dates.
    const kept = (await db()
      .selectFrom(table('accredited-requirement'))
      .selectAll()
      .where('IdPersona', '=', person)
      .where('IdRequisito', '=', requirement.IdRequisito)
      .execute()) as Json[];
    expect(kept.length).toBeGreaterThan(0);
    for (const row of kept) expect(row).toMatchObject({ IdSolicitud: id, IdEntidad: 'P' });
    if (requirement.FechaVencimiento) for (const row of kept) expect(row.FechaVencimiento).toBe(newExpiry);
    const accreditation = (await db()
      .selectFrom(table('accreditation'))
      .selectAll()
      .where('IdPersona', '=', person)
      .where('IdEntidad', '=', 'P')
      .executeTakeFirstOrThrow()) as Json;
    expect(accreditation).toMatchObject({
      Estado: 'A',
      IdSolicitud: visit.IdSolicitud,
      FechaInicio: today,
      FechaFin: addDays(today, 2),
    });
    // No second person was registered for the visitor.
    const people = await db()
      .selectFrom(table('person'))
      .select('IdPersona')
      .where('Documento', '=', '45120001')
      .execute();
    expect(people).toHaveLength(1);
    const renewed = await as(
      'requester',
      'GET',
      `${BASE}/requisitosacreditados?IdEntidad=P&IdPersona=${person}`,
    );
    if (requirement.FechaVencimiento)
      expect(
        (renewed.body.result as Json[]).find((r) => r.IdRequisito === requirement.IdRequisito)
          .FechaVencimiento,
      ).toBe(newExpiry);
  });

  it('refuses a visitor’s renewal of someone who is not an accredited visitor of the company, or of a requirement not held', async () => {
    const visit = await visitor('45120002');
    // A worker is no visitor: the visit's kind asks for a visit's accreditation.
    const worker = (
      await as('requester', 'POST', '/api/acreditaciondesmovilizacion/filtrarNuevoSolicitante', {
        IdEntidad: 'T',
      })
    ).body.result[0];
    const notVisitor = await as('requester', 'POST', `${BASE}/crear`, {
      IdEntidad: 'P',
      IdPersona: worker.IdPersona,
      IdRequisito: 1,
    });
    expect(notVisitor.status).toBe(400);
    expect(notVisitor.body.errors.IdPersona.messageKey).toBe('renewal.refusals.notAccredited');
    const notHeld = await as('requester', 'POST', `${BASE}/crear`, {
      IdEntidad: 'P',
      IdPersona: visit.IdPersona,
      IdRequisito: 999_999,
    });
    expect(notHeld.status).toBe(400);
    expect(notHeld.body.errors.IdRequisito.messageKey).toBe('renewal.refusals.notHeld');
    // Another division's requester does not see the visitor.
    const north = await as(
      'requesterNorth',
      'GET',
      `${BASE}/requisitosacreditados?IdEntidad=P&IdPersona=${visit.IdPersona}`,
    );
    expect(north.status).toBe(400);
    expect(north.body.errors.IdPersona.messageKey).toBe('renewal.refusals.notAccredited');
    // Nothing was made.
    const open = await db()
      .selectFrom(table('request'))
      .select('IdSolicitud')
      .where('TipoSolicitud', '=', 'A')
      .where('IdPersona', 'in', [visit.IdPersona, worker.IdPersona])
      .execute();
    expect(open).toHaveLength(0);
  });
});
