import { describe, expect, it } from 'vitest';
import { addDays, siteDate } from '../../src/shared/dates.js';
import { pdf, sendRenewal, upload, valuesFor } from '../support/accreditation.js';
import { call } from '../support/app.js';
import { DIALECTS } from '../support/databases.js';
import { world } from '../support/world.js';

// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON
type Json = any;
const SOUTH = 'UNIDAD MINERA SAN GABRIEL';
const NORTH = 'PROYECTO CORDILLERA NORTE';
const BASE = '/api/acreditacionrequisitosolicitud';
const REQUESTS = '/api/acreditacionsolicitud';

describe.each(DIALECTS)('requirement update (renewal) on %s', (dialect) => {
  const today = siteDate('PE');
  const newExpiry = addDays(today, 300);
  let workers: Json[] = [];

  const as = (who: string, method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) =>
    call(w.app, { method, url, token: tokens[who], payload });
  const table = (name: string) => w.registry.require(name).table;
  const db = () => w.t.db.database.db;
  const sctrOf = async (person: number) => {
    const held = await as(
      'requester',
      'GET',
      `${BASE}/requisitosacreditados?IdEntidad=T&IdPersona=${person}`,
    );
    expect(held.status, JSON.stringify(held.body)).toBe(200);
    return (held.body.result as Json[]).find((r) => r.Requisito === 'SCTR SALUD');
  };
  /** A renewal of a worker's SCTR SALUD, filled, attached and sent. */
  const renewSent = async (person: number) => {
    const sctr = await sctrOf(person);
    const made = await as('requester', 'POST', `${BASE}/crear`, {
      IdEntidad: 'T',
      IdPersona: person,
      IdRequisito: sctr.IdRequisito,
    });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const id = made.body.result.IdSolicitud as number;
    const items = await sendRenewal(w.app, tokens.requester, id, newExpiry);
    // Only the renewed requirement's data are asked.
    expect(new Set(items.map((i: Json) => i.IdRequisito))).toEqual(new Set([sctr.IdRequisito]));
    return { id, sctr };
  };

  const w = world(dialect, {
    users: {
      admin: { user: 'ADMIN', division: SOUTH },
      requester: { user: 'SOLICITANTE', division: SOUTH },
      requesterNorth: { user: 'SOLICITANTE', division: NORTH },
      authoriser: { user: 'AUTORIZADOR', division: SOUTH },
      authoriserNorth: { user: 'AUTORIZADOR', division: NORTH },
    },
    ready: async () => {
      const found = await as(
        'requester',
        'POST',
        '/api/acreditaciondesmovilizacion/filtrarNuevoSolicitante',
        {
          IdEntidad: 'T',
        },
      );
      workers = [];
      for (const row of (found.body.result as Json[]).filter((r) => r.Estado === 'A'))
        if (await sctrOf(row.IdPersona)) workers.push(row);
      expect(workers.length).toBeGreaterThanOrEqual(2);
    },
  });
  const { tokens } = w;

  it('renews a suspended worker’s expired SCTR end to end: the kept value and expiry are replaced, the dates kept, the suspension lifted', async () => {
    const worker = workers[0];
    const kept = table('accredited-requirement');
    const sctr = await sctrOf(worker.IdPersona);
    // Expired yesterday, and the accreditation suspended for it.
    await db()
      .updateTable(kept)
      .set({ FechaVencimiento: addDays(today, -1) })
      .where('IdPersona', '=', worker.IdPersona)
      .where('IdRequisito', '=', sctr.IdRequisito)
      .execute();
    await db()
      .updateTable(table('accreditation'))
      .set({ Estado: 'S' })
      .where('IdAcreditacion', '=', worker.IdAcreditacion)
      .execute();
    const before = (await as('requester', 'GET', `${BASE}/dashboard?CantMeses=1`)).body.result;
    const pendingBefore = before[1].find((r: Json) => r.ESTADO === 'P').TOTAL;

    const { id } = await renewSent(worker.IdPersona);
    const after = (await as('requester', 'GET', `${BASE}/dashboard?CantMeses=1`)).body.result;
    expect(after[1].find((r: Json) => r.ESTADO === 'P').TOTAL).toBe(pendingBefore + 1);
    // The visits' slot counts visits' renewals only: none here.
    expect((after[3] as Json[]).every((r) => r.ENTIDAD === 'P' && !r.TOTAL)).toBe(true);
    const cards = (await as('requester', 'GET', `${BASE}/cards`)).body.result as Json[];
    expect(cards.find((c) => c.IdEntidad === 'T').VENCIDOS).toBeGreaterThan(0);

    // A second open renewal of the same requirement is refused.
    const twice = await as('requester', 'POST', `${BASE}/crear`, {
      IdEntidad: 'T',
      IdPersona: worker.IdPersona,
      IdRequisito: sctr.IdRequisito,
    });
    expect(twice.status).toBe(409);
    expect(twice.body.messageKey).toBe('accreditation.refusals.openRequestExists');

    // The authoriser evaluates the line with the approval machine, then approves.
    const read = await as('authoriser', 'GET', `${BASE}/obtener?IdSolicitud=${id}`);
    expect(read.status, JSON.stringify(read.body)).toBe(200);
    const [requesterItems] = read.body.result.detalle;
    const early = await as('authoriser', 'POST', `${BASE}/actualizarautorizador`, {
      IdSolicitud: id,
      Accion: 'APROBAR',
    });
    expect(early.status).toBe(400);
    expect(early.body.messageKey).toBe('ACCREDITATION.MESSAGE.APPROVALSTATUS');
    const approved = await as('authoriser', 'POST', `${BASE}/actualizarautorizador`, {
      IdSolicitud: id,
      Accion: 'APROBAR',
      Detalle: requesterItems
        .filter((i: Json) => i.Aprobar === 'S')
        .map((i: Json) => ({ IdDetalle: i.IdSecuencial, EstadoAprobacion: 'A' })),
    });
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    expect(approved.body.result.EstadoAprobacion).toBe('A');

    const rows = (await db()
      .selectFrom(kept)
      .selectAll()
      .where('IdPersona', '=', worker.IdPersona)
      .where('IdRequisito', '=', sctr.IdRequisito)
      .execute()) as Json[];
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      expect(row.FechaVencimiento).toBe(newExpiry);
      expect(row.IdSolicitud).toBe(id);
    }
    const accreditation = (await db()
      .selectFrom(table('accreditation'))
      .selectAll()
      .where('IdAcreditacion', '=', worker.IdAcreditacion)
      .executeTakeFirstOrThrow()) as Json;
    expect(accreditation).toMatchObject({
      Estado: 'A',
      FechaInicio: worker.FechaInicio,
      FechaFin: worker.FechaFin,
    });
    const boss = (await as('authoriser', 'GET', `${BASE}/dashboardAutorizador?CantMeses=1`)).body.result;
    expect(boss[1].find((r: Json) => r.ESTADO === 'A').TOTAL).toBeGreaterThanOrEqual(1);
    // Mobilisation lists do not show renewals.
    const mobilisations = (await as('requester', 'GET', `${REQUESTS}/filtrar?take=1000`)).body.result
      .data as Json[];
    expect(mobilisations.map((r) => r.IdSolicitud)).not.toContain(id);
    const renewals = (await as('requester', 'GET', `${BASE}/filtrar?take=1000`)).body.result.data as Json[];
    expect(renewals.map((r) => r.IdSolicitud)).toContain(id);

    // Its file, base64, for the requester and the authoriser; another division's requester gets a 404.
    const fileLine = requesterItems.find((i: Json) => i.TieneArchivo === 'S');
    for (const who of ['requester', 'authoriser']) {
      const file = await as(
        who,
        'GET',
        `${BASE}/downloadFileBase64?IdSolicitud=${id}&IdFile=${fileLine.IdSecuencial}`,
      );
      expect(file.status, JSON.stringify(file.body)).toBe(200);
      expect(Buffer.from(file.body.result.file, 'base64').subarray(0, 5).toString()).toBe('%PDF-');
    }
    expect(
      (
        await as(
          'requesterNorth',
          'GET',
          `${BASE}/downloadFileBase64?IdSolicitud=${id}&IdFile=${fileLine.IdSecuencial}`,
        )
      ).status,
    ).toBe(404);

    // The company grid of renewals counts the company's renewals, not its mobilisations.
    const all = (await as('requester', 'GET', `${BASE}/filtrar?take=1000`)).body.result.totalCount as number;
    const summary = (await as('requester', 'GET', `${BASE}/filtrarcompaniaresumen`)).body.result
      .data as Json[];
    expect(summary).toHaveLength(1);
    expect(summary[0].Total).toBe(all);
    const mobilisationSummary = (await as('requester', 'GET', `${REQUESTS}/filtrarcompaniaresumen`)).body
      .result.data as Json[];
    expect(mobilisationSummary[0].Total).not.toBe(all);
  });

  it('keeps a renewal’s contract, profile and dates: a change to them is refused, field by field', async () => {
    const worker = workers[workers.length - 1];
    const sctr = await sctrOf(worker.IdPersona);
    const made = await as('requester', 'POST', `${BASE}/crear`, {
      IdEntidad: 'T',
      IdPersona: worker.IdPersona,
      IdRequisito: sctr.IdRequisito,
    });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const id = made.body.result.IdSolicitud as number;
    const stored = (await as('requester', 'GET', `${REQUESTS}/obtenersolicitud?IdSolicitud=${id}`)).body
      .result;
    for (const [field, value] of [
      ['FechaFin', addDays(stored.FechaFin, -1)],
      ['FechaInicio', addDays(stored.FechaInicio, 1)],
      ['IdPerfilAcreditacion', stored.IdPerfilAcreditacion + 1],
      ['IdContrato', stored.IdContrato + 1],
    ] as const) {
      const changed = await as('requester', 'POST', `${REQUESTS}/actualizarsolicitante`, {
        IdSolicitud: id,
        [field]: value,
      });
      expect(changed.status, `${field}: ${JSON.stringify(changed.body)}`).toBe(400);
      expect(changed.body.errors[field].messageKey).toBe('renewal.refusals.fixed');
    }
    // The same values, and a note, are taken.
    const same = await as('requester', 'POST', `${REQUESTS}/actualizarsolicitante`, {
      IdSolicitud: id,
      FechaInicio: stored.FechaInicio,
      FechaFin: stored.FechaFin,
      IdContrato: stored.IdContrato,
      Observacion: 'Renovación mensual',
    });
    expect(same.status, JSON.stringify(same.body)).toBe(200);
    const after = (await as('requester', 'GET', `${REQUESTS}/obtenersolicitud?IdSolicitud=${id}`)).body
      .result;
    expect([after.FechaInicio, after.FechaFin, after.IdContrato]).toEqual([
      stored.FechaInicio,
      stored.FechaFin,
      stored.IdContrato,
    ]);
    expect((await as('requester', 'DELETE', `${BASE}/eliminar?IdSolicitud=${id}`)).status).toBe(200);
  });

  it('refuses a requirement the worker does not hold, a holder who is not accredited, and a visit', async () => {
    const worker = workers[1];
    const soat = (
      (await call(w.app, { url: '/api/rest/requirement?range=[0,999]', token: tokens.admin })).body as Json[]
    ).find((r) => r.Requisito === 'SOAT');
    const notHeld = await as('requester', 'POST', `${BASE}/crear`, {
      IdEntidad: 'T',
      IdPersona: worker.IdPersona,
      IdRequisito: soat.IdRequisito,
    });
    expect(notHeld.status).toBe(400);
    expect(notHeld.body.errors.IdRequisito.messageKey).toBe('renewal.refusals.notHeld');
    const stranger = await as('requester', 'POST', `${BASE}/crear`, {
      IdEntidad: 'T',
      IdPersona: 2_000_000,
      IdRequisito: soat.IdRequisito,
    });
    expect(stranger.status).toBe(400);
    expect(stranger.body.errors.IdPersona.messageKey).toBe('renewal.refusals.notAccredited');
    const north = await as('requesterNorth', 'POST', `${BASE}/crear`, {
      IdEntidad: 'T',
      IdPersona: worker.IdPersona,
      IdRequisito: soat.IdRequisito,
    });
    expect(north.status).toBe(400);
    expect(north.body.errors.IdPersona.messageKey).toBe('renewal.refusals.notAccredited');
    expect((await as('requester', 'POST', `${BASE}/crear`, { IdEntidad: 'P', IdRequisito: 1 })).status).toBe(
      400,
    );
  });

  it('a mass approval is all or nothing and names the rows that stopped it; tenancy holds per role', async () => {
    const [one, two] = [workers[1], workers[2] ?? workers[0]];
    const a = await renewSent(one.IdPersona);
    const b = await renewSent(two.IdPersona);
    // Another division's requester and authoriser do not see them; a requester does not evaluate.
    for (const who of ['requesterNorth', 'authoriserNorth'])
      expect((await as(who, 'GET', `${BASE}/obtener?IdSolicitud=${a.id}`)).status).toBe(404);
    expect(
      (
        await as('requester', 'POST', `${BASE}/actualizarautorizadormasivo`, {
          Solicitudes: [a.id],
          Accion: 'APROBAR',
        })
      ).status,
    ).toBe(403);
    // Reject the first alone, then a mass approval of both stops at it and keeps nothing.
    const rejected = await as('authoriser', 'POST', `${BASE}/actualizarautorizador`, {
      IdSolicitud: a.id,
      Accion: 'RECHAZAR',
      Observacion: 'Constancia ilegible',
    });
    expect(rejected.body.result.EstadoAprobacion).toBe('R');
    const mass = await as('authoriser', 'POST', `${BASE}/actualizarautorizadormasivo`, {
      Solicitudes: [a.id, b.id],
      Accion: 'APROBAR',
    });
    expect(mass.status).toBe(400);
    expect(Object.keys(mass.body.errors)).toEqual(['Solicitudes.0']);
    expect(mass.body.errors['Solicitudes.0'].messageKey).toBe('accreditation.refusals.notPending');
    const bNow = (await as('authoriser', 'GET', `${BASE}/obtener?IdSolicitud=${b.id}`)).body.result;
    expect(bNow.solicitud.EstadoAprobacion).toBe('P');
    const lines = (await db()
      .selectFrom(table('request-detail'))
      .selectAll()
      .where('IdSolicitud', '=', b.id)
      .execute()) as Json[];
    expect(lines.every((l) => l.EstadoAprobacion !== 'A')).toBe(true);
    const alone = await as('authoriser', 'POST', `${BASE}/actualizarautorizadormasivo`, {
      Solicitudes: [b.id],
      Accion: 'APROBAR',
    });
    expect(alone.status, JSON.stringify(alone.body)).toBe(200);
    expect(alone.body.result.Solicitudes[0].EstadoAprobacion).toBe('A');
    const kept = (await db()
      .selectFrom(table('accredited-requirement'))
      .selectAll()
      .where('IdPersona', '=', two.IdPersona)
      .where('IdRequisito', '=', b.sctr.IdRequisito)
      .execute()) as Json[];
    expect(kept.every((k) => k.FechaVencimiento === newExpiry && k.IdSolicitud === b.id)).toBe(true);
  });

  it('takes multipart: the values and the file in one call; a file that is not a PDF makes nothing', async () => {
    const worker = workers[0];
    const sctr = await sctrOf(worker.IdPersona);
    const fields = { IdEntidad: 'T', IdPersona: worker.IdPersona, IdRequisito: sctr.IdRequisito };
    // The renewal's data, read from a JSON one made and deleted.
    const probe = (await as('requester', 'POST', `${BASE}/crear`, fields)).body.result.IdSolicitud;
    const [items, , , lists] = (await as('requester', 'GET', `${BASE}/obtener?IdSolicitud=${probe}`)).body
      .result.detalle;
    expect((await as('requester', 'DELETE', `${BASE}/eliminar?IdSolicitud=${probe}`)).status).toBe(200);
    const fileItem = items.find((i: Json) => i.AdjuntarArchivo === 'S');
    const form = {
      ...fields,
      Detalle: JSON.stringify(valuesFor(items, lists, newExpiry.replaceAll('-', ''))),
    };
    const count = async () =>
      (await as('requester', 'GET', `${BASE}/filtrar?take=1000`)).body.result.totalCount;
    const before = await count();

    const exe = await upload(w.app, tokens.requester, `${BASE}/crear`, form, {
      field: `Archivo${fileItem.IdDatoEvaluar}`,
      name: 'sctr.pdf',
      bytes: Buffer.from('MZ\x90\x00 not a pdf'),
      type: 'application/pdf',
    });
    expect(exe.status).toBe(400);
    expect(exe.body.messageKey).toBe('accreditation.files.notPdf');
    expect(await count()).toBe(before);

    const made = await upload(w.app, tokens.requester, `${BASE}/crear`, form, {
      field: `Archivo${fileItem.IdDatoEvaluar}`,
      name: 'sctr.pdf',
      bytes: pdf('SCTR RENOVADO'),
      type: 'application/pdf',
    });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    expect(made.body.result).toMatchObject({ EstadoAprobacion: 'I', SolicitudCompleta: 'S' });
    const id = made.body.result.IdSolicitud;
    const read = (await as('requester', 'GET', `${BASE}/obtener?IdSolicitud=${id}`)).body.result.detalle[0];
    const line = read.find((i: Json) => i.IdDatoEvaluar === fileItem.IdDatoEvaluar);
    expect(line.TieneArchivo).toBe('S');
    const file = await as(
      'requester',
      'GET',
      `${BASE}/downloadFileBase64?IdSolicitud=${id}&IdFile=${line.IdSecuencial}`,
    );
    expect(Buffer.from(file.body.result.file, 'base64').subarray(0, 5).toString()).toBe('%PDF-');
    expect((await as('requester', 'DELETE', `${BASE}/eliminar?IdSolicitud=${id}`)).status).toBe(200);
  });
});
