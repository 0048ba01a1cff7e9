import { describe, expect, it } from 'vitest';
import { addDays, siteDate } from '../../src/shared/dates.js';
import { copyContract } from '../support/accreditation.js';
import { DIALECTS } from '../support/databases.js';
import { world } from '../support/world.js';

// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON
type Json = any;
const SOUTH = 'UNIDAD MINERA SAN GABRIEL';
const NORTH = 'PROYECTO CORDILLERA NORTE';
const BASE = '/api/acreditacioncontrato';

describe.each(DIALECTS)('contract extension and change on %s', (dialect) => {
  const w = world(dialect, {
    users: {
      requester: 'SOLICITANTE',
      requesterNorth: { user: 'SOLICITANTE', division: NORTH },
      authoriser: 'AUTORIZADOR',
      authoriserNorth: { user: 'AUTORIZADOR', division: NORTH },
    },
    division: SOUTH,
    ready: async () => {
      rows = (
        await as('requester', 'POST', '/api/acreditaciondesmovilizacion/filtrarNuevoSolicitante', {
          IdEntidad: 'T',
        })
      ).body.result.filter((r: Json) => r.Estado === 'A');
      contracts = (await as('requester', 'GET', '/api/rest/contract?range=[0,999]')).body as Json[];
      expect(rows.length).toBeGreaterThanOrEqual(2);
      // Accreditations that end in a month, on contracts that last longer.
      for (const row of rows.slice(0, 2)) {
        const contract = contracts.find((c) => c.IdContrato === row.IdContrato);
        expect(contract.FechaFin > addDays(today, 60)).toBe(true);
        await w.t.db.database.db
          .updateTable(w.registry.require('accreditation').table)
          .set({ FechaFin: addDays(today, 30) })
          .where('IdAcreditacion', '=', row.IdAcreditacion)
          .execute();
      }
    },
  });

  const today = siteDate('PE');
  let rows: Json[] = [];
  let contracts: Json[] = [];

  const { as } = w;
  /** An accreditation's events in order, each with its details. */
  const events = async (id: number) =>
    (
      (await w.t.db.database.db
        .selectFrom(w.registry.require('accreditation-event').table)
        .selectAll()
        .where('IdAcreditacion', '=', id)
        .orderBy('IdEvento')
        .execute()) as Json[]
    ).map((e) => ({ Tipo: e.Tipo, ...JSON.parse(e.Datos) }));
  const accreditation = async (id: number) =>
    (await w.t.db.database.db
      .selectFrom(w.registry.require('accreditation').table)
      .selectAll()
      .where('IdAcreditacion', '=', id)
      .executeTakeFirstOrThrow()) as Json;

  it('extends an accreditation within its contract; refuses an earlier end, one past the contract and a second open one', async () => {
    const row = rows[0];
    const contract = contracts.find((c) => c.IdContrato === row.IdContrato);
    const earlier = await as('requester', 'POST', `${BASE}/ampliar`, {
      Acreditaciones: [row.IdAcreditacion],
      FechaFin: addDays(today, 20),
    });
    expect(earlier.status, JSON.stringify(earlier.body)).toBe(400);
    expect(earlier.body.errors['Acreditaciones.0'].messageKey).toBe('contractRequest.refusals.notLater');
    const past = await as('requester', 'POST', `${BASE}/ampliar`, {
      Acreditaciones: [row.IdAcreditacion],
      FechaFin: addDays(contract.FechaFin, 1),
    });
    expect(past.status).toBe(400);
    expect(past.body.errors['Acreditaciones.0'].messageKey).toBe('accreditation.refusals.outsideContract');
    const end = addDays(today, 50);
    const made = await as('requester', 'POST', `${BASE}/ampliar`, {
      Acreditaciones: [row.IdAcreditacion],
      FechaFin: end,
      Observacion: 'Ampliación de la obra',
    });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const id = made.body.result.Solicitudes[0].IdSolicitud;
    expect(made.body.result.Solicitudes[0].EstadoAprobacion).toBe('P');
    const twice = await as('requester', 'POST', `${BASE}/ampliar`, {
      Acreditaciones: [row.IdAcreditacion],
      FechaFin: addDays(today, 55),
    });
    expect(twice.status).toBe(400);
    expect(twice.body.errors['Acreditaciones.0'].messageKey).toBe('accreditation.refusals.openRequestExists');
    // Another division's authoriser does not see it; the division's approves it.
    expect(
      (
        await as('authoriserNorth', 'POST', `${BASE}/actualizarautorizador`, {
          Tipo: 'E',
          IdSolicitud: id,
          Accion: 'APROBAR',
        })
      ).status,
    ).toBe(404);
    // Asked as the wrong type, it is not found either.
    expect(
      (
        await as('authoriser', 'POST', `${BASE}/actualizarautorizador`, {
          Tipo: 'C',
          IdSolicitud: id,
          Accion: 'APROBAR',
        })
      ).status,
    ).toBe(404);
    const approved = await as('authoriser', 'POST', `${BASE}/actualizarautorizador`, {
      Tipo: 'E',
      IdSolicitud: id,
      Accion: 'APROBAR',
    });
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    expect(approved.body.result.EstadoAprobacion).toBe('A');
    expect((await accreditation(row.IdAcreditacion)).FechaFin).toBe(end);
    expect((await events(row.IdAcreditacion)).at(-1)).toMatchObject({ Tipo: 'extended', FechaFin: end });
    const read = await as('requester', 'GET', `${BASE}/obtener?Tipo=E&IdSolicitud=${id}`);
    expect(read.body.result.historial.map((h: Json) => h.Evento)).toEqual(['CREATE', 'SEND', 'APPROVE']);
    const listed = (await as('requester', 'GET', `${BASE}/filtrar?Tipo=E`)).body.result.data as Json[];
    expect(listed.map((r) => r.IdSolicitud)).toContain(id);
    expect(
      (
        (await as('requester', 'GET', '/api/acreditacionsolicitud/filtrar?take=1000')).body.result
          .data as Json[]
      ).map((r) => r.IdSolicitud),
    ).not.toContain(id);
  });

  it('moves an accreditation to another contract of the company; refuses the same contract and another division’s row', async () => {
    const row = rows[1];
    // A second contract of the company in the division (a copy of the worker's, numbered apart).
    await copyContract(w.t.db.database.db, w.registry, row.IdContrato, '-B');
    contracts = (await as('requester', 'GET', '/api/rest/contract?range=[0,999]')).body as Json[];
    const other = contracts.find(
      (c) =>
        c.IdContrato !== row.IdContrato &&
        c.Activo === 'S' &&
        c.FechaFin > addDays(today, 40) &&
        c.FechaInicio <= today,
    );
    expect(other).toBeDefined();
    const same = await as('requester', 'POST', `${BASE}/cambiar`, {
      Acreditaciones: [row.IdAcreditacion],
      IdContrato: row.IdContrato,
      FechaFin: addDays(today, 40),
    });
    expect(same.status).toBe(400);
    expect(same.body.errors['Acreditaciones.0'].messageKey).toBe('contractRequest.refusals.sameContract');
    const foreign = await as('requesterNorth', 'POST', `${BASE}/cambiar`, {
      Acreditaciones: [row.IdAcreditacion],
      IdContrato: other.IdContrato,
      FechaFin: addDays(today, 40),
    });
    expect(foreign.status).toBe(400);
    const made = await as('requester', 'POST', `${BASE}/cambiar`, {
      Acreditaciones: [row.IdAcreditacion],
      IdContrato: other.IdContrato,
      FechaFin: addDays(today, 40),
    });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const id = made.body.result.Solicitudes[0].IdSolicitud;
    // Observed needs a reason; a mass approval of it then stops and keeps nothing.
    const bare = await as('authoriser', 'POST', `${BASE}/actualizarautorizador`, {
      Tipo: 'C',
      IdSolicitud: id,
      Accion: 'OBSERVAR',
    });
    expect(bare.status).toBe(409);
    const approved = await as('authoriser', 'POST', `${BASE}/actualizarautorizadormasivo`, {
      Tipo: 'C',
      Solicitudes: [id],
      Accion: 'APROBAR',
    });
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    const moved = await accreditation(row.IdAcreditacion);
    expect(moved.IdContrato).toBe(other.IdContrato);
    expect(moved.FechaFin).toBe(addDays(today, 40));
    expect((await events(row.IdAcreditacion)).at(-1)).toMatchObject({
      Tipo: 'moved',
      IdContratoAnterior: row.IdContrato,
      IdContrato: other.IdContrato,
    });
    const again = await as('authoriser', 'POST', `${BASE}/actualizarautorizadormasivo`, {
      Tipo: 'C',
      Solicitudes: [id],
      Accion: 'APROBAR',
    });
    expect(again.status).toBe(400);
    expect(again.body.errors['Solicitudes.0'].messageKey).toBe('accreditation.refusals.notPending');
  });
});
