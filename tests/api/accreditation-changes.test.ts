import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/server/errors.js';
import type { AccreditationChange } from '../../src/server/events.js';
import { addDays, siteDate } from '../../src/shared/dates.js';
import { DIALECTS } from '../support/databases.js';
import { world } from '../support/world.js';

// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON
type Json = any;
const BASE = '/api/acreditacioncontrato';

/**
 * Every change of an accreditation is told to the features that listen to changes (a future
 * area's `listens().changed`, here a test's), inside the transaction that makes it, after its
 * event is written: what the listener reads is the changed accreditation, and a listener that
 * refuses undoes the change, its event and the request's decision with its own message.
 */
describe.each(DIALECTS)('accreditation changes told to listeners on %s', (dialect) => {
  const today = siteDate('PE');
  let rows: Json[] = [];
  const w = world(dialect, {
    users: { requester: 'SOLICITANTE', authoriser: 'AUTORIZADOR' },
    division: 'UNIDAD MINERA SAN GABRIEL',
    ready: async () => {
      rows = (
        await w.as('requester', 'POST', '/api/acreditaciondesmovilizacion/filtrarNuevoSolicitante', {
          IdEntidad: 'T',
        })
      ).body.result.filter((r: Json) => r.Estado === 'A');
      // Two accreditations that end in a month, to extend.
      for (const row of rows.slice(0, 2))
        await w
          .db()
          .updateTable(w.table('accreditation'))
          .set({ FechaFin: addDays(today, 30) })
          .where('IdAcreditacion', '=', row.IdAcreditacion)
          .execute();
    },
  });
  const { as } = w;
  const endOf = async (id: number) =>
    (
      (await w
        .db()
        .selectFrom(w.table('accreditation'))
        .select('FechaFin')
        .where('IdAcreditacion', '=', id)
        .executeTakeFirstOrThrow()) as { FechaFin: string }
    ).FechaFin;
  const extend = async (accreditation: number, end: string) => {
    const made = await as('requester', 'POST', `${BASE}/ampliar`, {
      Acreditaciones: [accreditation],
      FechaFin: end,
    });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    return made.body.result.Solicitudes[0].IdSolicitud as number;
  };
  const approve = (id: number) =>
    as('authoriser', 'POST', `${BASE}/actualizarautorizador`, {
      Tipo: 'E',
      IdSolicitud: id,
      Accion: 'APROBAR',
    });

  it('tells each change in its transaction, after its event: the listener reads the new end', async () => {
    const [row] = rows;
    const end = addDays(today, 50);
    const id = await extend(row.IdAcreditacion, end);
    const told: Array<{ change: AccreditationChange; end: string; events: number }> = [];
    const stop = w.app.events.add('test', {
      changed: async (trx, change) => {
        const seen = (await trx
          .selectFrom(w.table('accreditation'))
          .select('FechaFin')
          .where('IdAcreditacion', '=', change.IdAcreditacion)
          .executeTakeFirstOrThrow()) as { FechaFin: string };
        const events = (await trx
          .selectFrom(w.table('accreditation-event'))
          .select('IdEvento')
          .where('IdAcreditacion', '=', change.IdAcreditacion)
          .where('Tipo', '=', change.Tipo)
          .execute()) as unknown[];
        told.push({ change, end: seen.FechaFin, events: events.length });
      },
    });
    try {
      const approved = await approve(id);
      expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    } finally {
      stop();
    }
    expect(told).toHaveLength(1);
    expect(told[0].change).toMatchObject({
      IdAcreditacion: row.IdAcreditacion,
      Tipo: 'extended',
      Datos: { IdSolicitud: id, FechaFin: end },
    });
    expect(told[0].end).toBe(end);
    expect(told[0].events).toBe(1);
  });

  it('undoes the change, its event and the decision when a listener refuses, with the listener’s message', async () => {
    const [, row] = rows;
    const before = await endOf(row.IdAcreditacion);
    const id = await extend(row.IdAcreditacion, addDays(today, 45));
    const events = () => w.count('accreditation-event', { IdAcreditacion: row.IdAcreditacion });
    const eventsBefore = await events();
    const stop = w.app.events.add('test', {
      changed: async () => {
        throw new ApiError('BUSINESS_RULE', { messageKey: 'accreditation.refusals.notPending' });
      },
    });
    try {
      const refused = await approve(id);
      expect(refused.status).toBe(400);
      expect(refused.body.messageKey).toBe('accreditation.refusals.notPending');
    } finally {
      stop();
    }
    expect(await endOf(row.IdAcreditacion)).toBe(before);
    expect(await events()).toBe(eventsBefore);
    expect(await w.count('request', { IdSolicitud: id, EstadoAprobacion: 'P' })).toBe(1);
    // Without the refusing listener the same decision goes through.
    expect((await approve(id)).status).toBe(200);
    expect(await endOf(row.IdAcreditacion)).toBe(addDays(today, 45));
  });
});
