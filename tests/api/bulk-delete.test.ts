import { describe, expect, it } from 'vitest';
import { requestNumber } from '../../src/shared/accreditation.js';
import { addDays, siteDate } from '../../src/shared/dates.js';
import { catalogue } from '../support/accreditation.js';
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
    expect(res.body.result.Rechazadas).toEqual([
      { IdSolicitud: sent, messageKey: 'accreditation.refusals.sentNotDeletable' },
      { IdSolicitud: answered, messageKey: 'accreditation.refusals.sentNotDeletable' },
    ]);
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
});
