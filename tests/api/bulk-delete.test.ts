import { describe, expect, it } from 'vitest';
import { requestNumber } from '../../src/shared/accreditation.js';
import { addDays, siteDate } from '../../src/shared/dates.js';
import { catalogue, sendRenewal } from '../support/accreditation.js';
import { DIALECTS } from '../support/databases.js';
import { CONTRACTOR_CAST, world } from '../support/world.js';

// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON
type Json = any;
const SOUTH = 'UNIDAD MINERA SAN GABRIEL';
const BASE = '/api/acreditacionsolicitud';

/**
 * Bulk delete of a requester's requests (spec section 4): the selected incomplete ones go in one
 * transaction with their lines and history; a sent or answered one, or one the requester cannot
 * see, is kept and named with its reason; a selection of which nothing may go is refused whole.
 */
describe.each(DIALECTS)('bulk delete of requests on %s', (dialect) => {
  let cat: Awaited<ReturnType<typeof catalogue>>;
  const today = siteDate('PE');
  let contract: number;
  const w = world(dialect, {
    users: CONTRACTOR_CAST,
    division: SOUTH,
    ready: async () => {
      cat = await catalogue(w.app, w.tokens.admin);
      contract = (await cat.list('contract')).find(
        (c: Json) => c.NumeroContrato === 'CT-2026-001',
      ).IdContrato;
    },
  });
  const { as } = w;
  const worker = (document: string) => ({
    IdEntidad: 'T',
    IdContrato: contract,
    IdPerfilAcreditacion: cat.worker,
    FechaInicio: today,
    FechaFin: addDays(today, 60),
    IdTipoDocumento: cat.dni,
    Documento: document,
    Apellido: 'Mamani Ccori',
    Nombre: 'Rosa',
    Sexo: 'F',
    FechaNacimiento: '1992-03-08',
    IdPaisNacimiento: 'PE',
    IdPaisResidencia: 'PE',
    TelefonoMovil: '987000111',
  });
  const count = (name: string, id: number) => w.count(name, { IdSolicitud: id });
  const listed = async (status: string) =>
    (await as('requester', 'GET', `${BASE}/filtrar?take=1&IdEntidad=T&EstadoAprobacion=${status}`)).body
      .result.data[0];

  it('deletes the incomplete ones with their lines and history, keeps a sent and an answered one and names them', async () => {
    const made: number[] = [];
    for (const document of ['71000001', '71000002']) {
      const res = await as('requester', 'POST', `${BASE}/crearsolicitante`, worker(document));
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      made.push(res.body.result.IdSolicitud);
    }
    expect(await count('request-detail', made[0])).toBeGreaterThan(0);
    const sent = (await listed('P')).IdSolicitud as number;
    const answered = (await listed('A')).IdSolicitud as number;
    const selection = [made[0], sent, made[1], answered];

    const res = await as('requester', 'POST', `${BASE}/eliminarmasivo`, { Solicitudes: selection });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.result.Eliminadas).toEqual(made);
    expect(res.body.result.Rechazadas).toEqual(
      [
        { IdSolicitud: sent, messageKey: 'accreditation.refusals.sentNotDeletable' },
        { IdSolicitud: answered, messageKey: 'accreditation.refusals.sentNotDeletable' },
      ].map((r) => ({
        ...r,
        message: 'Only an incomplete request is deleted: a sent or answered one is not.',
      })),
    );
    // "Some records could not be deleted", naming each kept request with its reason.
    expect(res.body.result.message).toBe(
      `Some records could not be deleted: ${[sent, answered]
        .map(
          (id) =>
            `${requestNumber(id)} (Only an incomplete request is deleted: a sent or answered one is not.)`,
        )
        .join(', ')}`,
    );
    for (const id of made)
      for (const name of ['request', 'request-detail', 'request-history'])
        expect(await count(name, id)).toBe(0);
    for (const id of [sent, answered]) expect(await count('request', id)).toBe(1);
    // The counters the dashboards read moved with the deleted requests: the list's total is the rows'.
    const incomplete = (await as('requester', 'GET', `${BASE}/filtrar?take=1000&EstadoAprobacion=I`)).body
      .result;
    expect(incomplete.totalCount).toBe(incomplete.data.length);
    expect(incomplete.data.map((r: Json) => r.IdSolicitud)).not.toContain(made[0]);
  });

  it('refuses a selection of which nothing may go, naming each row, and keeps everything', async () => {
    const res = await as('requester', 'POST', `${BASE}/crearsolicitante`, worker('71000003'));
    const mine = res.body.result.IdSolicitud as number;
    const sent = (await listed('P')).IdSolicitud as number;
    // Another division's requester cannot see the south's requests: not found, nothing removed.
    const north = await as('requesterNorth', 'POST', `${BASE}/eliminarmasivo`, { Solicitudes: [mine, sent] });
    expect(north.status, JSON.stringify(north.body)).toBe(400);
    expect(north.body.messageKey).toBe('demobilisation.refusals.rowsStopped');
    expect(north.body.errors['Solicitudes.0']).toMatchObject({
      messageKey: 'api.errors.NOT_FOUND',
      params: { id: mine },
    });
    expect(north.body.errors['Solicitudes.1'].messageKey).toBe('api.errors.NOT_FOUND');
    expect(north.body.message).toContain('2');
    expect(await count('request', mine)).toBe(1);
    // An authoriser deletes nothing; an empty or repeated selection is a bad request.
    expect((await as('authoriser', 'POST', `${BASE}/eliminarmasivo`, { Solicitudes: [mine] })).status).toBe(
      403,
    );
    const empty = await as('requester', 'POST', `${BASE}/eliminarmasivo`, { Solicitudes: [] });
    expect(empty.status).toBe(400);
    expect(empty.body.errors.Solicitudes.messageKey).toBe('demobilisation.refusals.selectionEmpty');
    const twice = await as('requester', 'POST', `${BASE}/eliminarmasivo`, { Solicitudes: [mine, mine] });
    expect(twice.status).toBe(400);
    expect(twice.body.errors.Solicitudes.messageKey).toBe('demobilisation.refusals.selectedTwice');
    expect(await count('request', mine)).toBe(1);
    expect(requestNumber(mine)).toHaveLength(8);
  });

  it('deletes a renewal and a demobilisation through their own kind’s call only', async () => {
    const res = await as('requester', 'POST', `${BASE}/crearsolicitante`, worker('71000004'));
    const mine = res.body.result.IdSolicitud as number;
    for (const other of ['/api/acreditacionrequisitosolicitud', '/api/acreditaciondesmovilizacion']) {
      const wrong = await as('requester', 'POST', `${other}/eliminarmasivo`, { Solicitudes: [mine] });
      expect(wrong.status, `${other}: ${JSON.stringify(wrong.body)}`).toBe(400);
      expect(wrong.body.errors['Solicitudes.0'].messageKey).toBe('api.errors.NOT_FOUND');
    }
    expect(await count('request', mine)).toBe(1);
  });
  /** The rows a request has (itself, its lines, its history), to see that a kept one is kept whole. */
  const rows = async (id: number) =>
    Promise.all(['request', 'request-detail', 'request-history'].map((name) => count(name, id)));

  it('deletes the incomplete requirement updates, keeps a sent and an answered one whole and names them', async () => {
    const RENEWAL = '/api/acreditacionrequisitosolicitud';
    // Accredited workers with their kept requirements: one renewal per worker and requirement.
    const accredited = (
      await as('requester', 'POST', '/api/acreditaciondesmovilizacion/filtrarNuevoSolicitante', {
        IdEntidad: 'T',
      })
    ).body.result.filter((r: Json) => r.Estado === 'A') as Json[];
    // Three workers' SCTR, and another requirement of the first.
    const pairs: Array<{ person: number; requirement: number }> = [];
    let other: { person: number; requirement: number } | undefined;
    for (const row of accredited) {
      const held = (
        await as(
          'requester',
          'GET',
          `${RENEWAL}/requisitosacreditados?IdEntidad=T&IdPersona=${row.IdPersona}`,
        )
      ).body.result as Json[];
      const sctr = held.find((r) => r.Requisito === 'SCTR SALUD');
      if (!sctr) continue;
      pairs.push({ person: row.IdPersona, requirement: sctr.IdRequisito });
      const another = held.find((r) => r.Requisito !== 'SCTR SALUD');
      if (!other && another) other = { person: row.IdPersona, requirement: another.IdRequisito };
      if (pairs.length === 3) break;
    }
    expect(pairs.length).toBe(3);
    expect(other).toBeDefined();
    const renew = async (pair: { person: number; requirement: number }) => {
      const made = await as('requester', 'POST', `${RENEWAL}/crear`, {
        IdEntidad: 'T',
        IdPersona: pair.person,
        IdRequisito: pair.requirement,
      });
      expect(made.status, JSON.stringify(made.body)).toBe(200);
      return made.body.result.IdSolicitud as number;
    };
    const ids = [] as number[];
    for (const pair of [pairs[0], other as (typeof pairs)[0], pairs[1], pairs[2]])
      ids.push(await renew(pair));
    const [a, b, c, d] = ids;
    await sendRenewal(w.app, w.tokens.requester, c, addDays(today, 300));
    await sendRenewal(w.app, w.tokens.requester, d, addDays(today, 300));
    const rejected = await as('authoriser', 'POST', `${RENEWAL}/actualizarautorizador`, {
      IdSolicitud: d,
      Accion: 'RECHAZAR',
      Observacion: 'Constancia ilegible',
      MotivoRechazo: 'Constancia ilegible',
    });
    expect(rejected.body.result?.EstadoAprobacion, JSON.stringify(rejected.body)).toBe('R');
    const keptBefore = await Promise.all([c, d].map(rows));
    expect(keptBefore.every(([request, lines, history]) => request === 1 && lines > 0 && history > 0)).toBe(
      true,
    );

    const res = await as('requester', 'POST', `${RENEWAL}/eliminarmasivo`, { Solicitudes: [c, a, d, b] });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.result.Eliminadas).toEqual([a, b]);
    expect(res.body.result.Rechazadas.map((r: Json) => [r.IdSolicitud, r.messageKey])).toEqual([
      [c, 'accreditation.refusals.sentNotDeletable'],
      [d, 'accreditation.refusals.sentNotDeletable'],
    ]);
    expect(res.body.result.message).toContain('Some records could not be deleted');
    expect(res.body.result.message).toContain(requestNumber(d));
    for (const id of [a, b]) expect(await rows(id)).toEqual([0, 0, 0]);
    expect(await Promise.all([c, d].map(rows))).toEqual(keptBefore);
    // The list and its counters moved with them: the list no longer names them.
    const listed = (await as('requester', 'GET', `${RENEWAL}/filtrar?take=1000&IdEntidad=T`)).body.result;
    expect(listed.data.map((r: Json) => r.IdSolicitud)).not.toContain(a);
    expect(listed.totalCount).toBe(listed.data.length);

    // Nothing left to delete: refused whole, each row named, nothing removed.
    const again = await as('requester', 'POST', `${RENEWAL}/eliminarmasivo`, { Solicitudes: [c, d, a] });
    expect(again.status, JSON.stringify(again.body)).toBe(400);
    expect(Object.entries(again.body.errors).map(([k, v]) => [k, (v as Json).messageKey])).toEqual([
      ['Solicitudes.0', 'accreditation.refusals.sentNotDeletable'],
      ['Solicitudes.1', 'accreditation.refusals.sentNotDeletable'],
      ['Solicitudes.2', 'api.errors.NOT_FOUND'],
    ]);
    expect(await Promise.all([c, d].map(rows))).toEqual(keptBefore);
    // A mobilisation's call does not delete a renewal.
    const e = await renew(other as (typeof pairs)[0]);
    const wrong = await as('requester', 'POST', `${BASE}/eliminarmasivo`, { Solicitudes: [e] });
    expect(wrong.status).toBe(400);
    expect(await count('request', e)).toBe(1);
  }, 60_000);

  it('refuses a pending and an answered demobilisation, keeping them whole; deletes an incomplete one with them', async () => {
    const DEMOBILISATION = '/api/acreditaciondesmovilizacion';
    const candidates = (
      await as('requester', 'POST', `${DEMOBILISATION}/filtrarNuevoSolicitante`, { IdEntidad: 'T' })
    ).body.result.filter((r: Json) => r.Estado === 'A') as Json[];
    expect(candidates.length).toBeGreaterThanOrEqual(3);
    const filed = await as('requester', 'POST', `${DEMOBILISATION}/crear`, {
      IdEntidad: 'T',
      Acreditaciones: candidates.slice(0, 3).map((c) => c.IdAcreditacion),
      Observacion: 'Fin de la obra civil',
    });
    expect(filed.status, JSON.stringify(filed.body)).toBe(200);
    const [back, pending, answered] = (filed.body.result.Solicitudes as Json[]).map(
      (r) => r.IdSolicitud as number,
    );
    const rejected = await as('authoriser', 'POST', `${DEMOBILISATION}/actualizarautorizador`, {
      IdSolicitud: answered,
      Accion: 'RECHAZAR',
      MotivoRechazo: 'Falta la carta de cese',
    });
    expect(rejected.body.result?.EstadoAprobacion, JSON.stringify(rejected.body)).toBe('R');
    // A demobilisation is sent when it is filed and is never returned (its statuses are P, O, R and
    // A): the one way to have an incomplete one to delete is to leave it so in the database.
    await w
      .db()
      .updateTable(w.table('request'))
      .set({ EstadoAprobacion: 'I' })
      .where('IdSolicitud', '=', back)
      .execute();
    const keptBefore = await Promise.all([pending, answered].map(rows));
    const res = await as('requester', 'POST', `${DEMOBILISATION}/eliminarmasivo`, {
      Solicitudes: [pending, back, answered],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.result.Eliminadas).toEqual([back]);
    expect(res.body.result.Rechazadas.map((r: Json) => [r.IdSolicitud, r.messageKey])).toEqual([
      [pending, 'accreditation.refusals.sentNotDeletable'],
      [answered, 'accreditation.refusals.sentNotDeletable'],
    ]);
    expect(await rows(back)).toEqual([0, 0, 0]);
    expect(await Promise.all([pending, answered].map(rows))).toEqual(keptBefore);
    // Its accreditation is a candidate again: a deleted demobilisation ends nothing.
    const now = (
      await as('requester', 'POST', `${DEMOBILISATION}/filtrarNuevoSolicitante`, { IdEntidad: 'T' })
    ).body.result as Json[];
    expect(now.map((r) => r.IdAcreditacion)).toContain(candidates[0].IdAcreditacion);
    // In Spanish, the reasons are said in Spanish.
    const spanish = await as(
      'requester',
      'POST',
      `${DEMOBILISATION}/eliminarmasivo`,
      { Solicitudes: [back, answered] },
      { headers: { 'accept-language': 'es' } },
    );
    expect(spanish.status).toBe(400);
    expect(spanish.body.errors['Solicitudes.1'].messageKey).toBe('accreditation.refusals.sentNotDeletable');
    expect(spanish.body.message).toBe('Nada se guardó: 2 fila(s) lo impidieron.');
    expect(await count('request', pending)).toBe(1);
  }, 60_000);
});
