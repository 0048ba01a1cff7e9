import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recountAttention } from '../../src/server/features/accreditation/engine/attention.js';
import { addDays, siteDate } from '../../src/shared/dates.js';
import { catalogue, pdf, upload, valuesFor } from '../support/accreditation.js';
import { call, startTestApp, type TestApp, tokensOf } from '../support/app.js';
import { testClock } from '../support/auth.js';
import { DIALECTS } from '../support/databases.js';

// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON
type Json = any;
const SOUTH = 'UNIDAD MINERA SAN GABRIEL';
const BASE = '/api/acreditacionsolicitud';
const HOUR = 3_600_000;

/**
 * The efficiency-of-approval report against a hand-computed fixture: two worker requests sent an
 * hour apart; the first observed two hours after its sending, corrected and sent again an hour
 * later, approved an hour after that; the second rejected five hours after its sending, all in a
 * month of its own. So the month has 2 requests sent and 3 decisions (one of each outcome, 33.3 % each), attention
 * 120, 60 and 300 minutes: 2.7 h on average, 5 h at the longest.
 */
describe.each(DIALECTS)('the efficiency report on %s', (dialect) => {
  let t: TestApp;
  let cat: Awaited<ReturnType<typeof catalogue>>;
  const tokens: Record<string, string> = {};
  // 01:00 UTC on the first day of the month after next: a month the demo's history has not reached,
  // within the demo contract's dates; six hours later is still the same month.
  const real = new Date();
  const clock = testClock(Date.UTC(real.getUTCFullYear(), real.getUTCMonth() + 2, 1, 1));
  const month = new Date(clock.now()).toISOString().slice(0, 7);
  const [year, monthNumber] = month.split('-').map(Number);
  let contract: number;
  let observed: Json;

  const as = (who: string, method: 'GET' | 'POST', url: string, payload?: object) =>
    call(t.app, { method, url, token: tokens[who], payload });
  const detail = async (id: number, who = 'requester') =>
    (
      await as(
        who,
        'GET',
        `/api/acreditacionsolicituddetalle/${who === 'requester' ? 'obtener' : 'obtenerbyautorizador'}?IdSolicitud=${id}`,
      )
    ).body.result as Json[][];
  const made = async (document: string) => {
    const today = siteDate('PE', clock.now());
    const res = await as('requester', 'POST', `${BASE}/crearsolicitante`, {
      IdEntidad: 'T',
      IdContrato: contract,
      IdPerfilAcreditacion: cat.worker,
      FechaInicio: today,
      FechaFin: addDays(today, 60),
      IdTipoDocumento: cat.dni,
      Documento: document,
      Apellido: 'Quispe Mamani',
      Nombre: 'Julia',
      Sexo: 'F',
      FechaNacimiento: '1989-02-11',
      IdPaisNacimiento: 'PE',
      IdPaisResidencia: 'PE',
      TelefonoMovil: '987333444',
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const id = res.body.result.IdSolicitud as number;
    const [items, , , lists] = await detail(id);
    const expiry = addDays(siteDate('PE', clock.now()), 200).replaceAll('-', '');
    await as('requester', 'POST', `${BASE}/actualizarsolicitante`, {
      IdSolicitud: id,
      Detalle: JSON.stringify(valuesFor(items, lists, expiry)),
    });
    for (const item of items.filter((i: Json) => i.AdjuntarArchivo === 'S' && i.TipoRequisito === 'S'))
      await attach(id, item);
    return id;
  };
  const attach = async (id: number, item: Json) => {
    const res = await upload(
      t.app,
      tokens.requester,
      `${BASE}/UploadSolicitanteArchivo`,
      { IdSolicitud: id, IdDatoEvaluar: item.IdDatoEvaluar },
      { name: 'constancia.pdf', bytes: pdf(item.Requisito), type: 'application/pdf' },
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  };
  const send = async (id: number) => {
    const res = await as('requester', 'POST', `${BASE}/cerrarsolicitud`, { IdSolicitud: id });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  };
  const evaluate = async (payload: object) => {
    const res = await as('authoriser', 'POST', `${BASE}/actualizarsolicitanteautorizador`, payload);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  };
  /** Time passes; the sessions (idle for hours) are signed in again. */
  const later = async (ms: number) => {
    clock.advance(ms);
    await signInAll();
  };
  const signInAll = async () =>
    Object.assign(
      tokens,
      await tokensOf(t.app, { admin: 'ADMIN', requester: 'SOLICITANTE', authoriser: 'AUTORIZADOR' }, SOUTH),
    );
  const report = async (
    who = 'admin',
    query = `Anio=${year}&MesDesde=${monthNumber}&MesHasta=${monthNumber}`,
  ) => as(who, 'GET', `/api/reporte/eficiencia?${query}`);

  beforeAll(async () => {
    t = await startTestApp(dialect, { auth: { now: clock.now } });
    await signInAll();
    cat = await catalogue(t.app, tokens.admin);
    contract = (await cat.list('contract')).find((c: Json) => c.NumeroContrato === 'CT-2026-001').IdContrato;

    const first = await made('74000001');
    const second = await made('74000002');
    await send(first);
    await later(HOUR);
    await send(second);
    // Two hours after its sending, the first is observed on one requirement.
    await later(HOUR);
    const [requesterItems] = await detail(first, 'authoriser');
    observed = requesterItems.find((i: Json) => i.Aprobar === 'S' && i.AdjuntarArchivo === 'S');
    await evaluate({
      IdSolicitud: first,
      Accion: 'OBSERVAR',
      Observacion: 'ADJUNTE LA CONSTANCIA VIGENTE',
      Detalle: [{ IdDetalle: observed.IdSecuencial, EstadoAprobacion: 'O', Observacion: 'VENCIDA' }],
    });
    // Corrected and sent again an hour later; approved an hour after that.
    await later(HOUR);
    await attach(first, observed);
    await send(first);
    await later(HOUR);
    const [mine, authorisers] = await detail(first, 'authoriser');
    await evaluate({
      IdSolicitud: first,
      Detalle: mine
        .filter((i: Json) => i.Aprobar === 'S')
        .map((i: Json) => ({ IdDetalle: i.IdSecuencial, EstadoAprobacion: 'A' })),
    });
    await evaluate({
      IdSolicitud: first,
      Accion: 'APROBAR',
      Detalle: authorisers
        .filter((i: Json) => i.Aprobar === 'S')
        .map((i: Json) => ({ IdDetalle: i.IdSecuencial, EstadoAprobacion: 'A', Valor: 'APROBADO' })),
    });
    // The second, rejected five hours after its sending.
    await later(2 * HOUR);
    await evaluate({ IdSolicitud: second, Accion: 'RECHAZAR', MotivoRechazo: 'CONTRATO EQUIVOCADO' });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('counts the month’s requests, outcomes and attention times as computed by hand', async () => {
    const res = await report();
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const [row] = res.body.result.meses;
    expect(row).toEqual({
      Mes: month,
      Solicitudes: 2,
      Decisiones: 3,
      Aprobadas: 1,
      Observadas: 1,
      Rechazadas: 1,
      Devueltas: 0,
      PorcentajeAprobadas: 33.3,
      PorcentajeObservadas: 33.3,
      PorcentajeRechazadas: 33.3,
      PromedioHoras: 2.7,
      MaximoHoras: 5,
    });
    const { Mes: _month, ...figures } = row;
    expect(res.body.result.total).toEqual(figures);
  });

  it('answers per authoriser and per requirement, slowest first', async () => {
    const { autorizadores, requisitos } = (await report()).body.result;
    expect(autorizadores).toHaveLength(1);
    expect(autorizadores[0]).toMatchObject({
      IdUsuario: 'AUTORIZADOR',
      Decisiones: 3,
      PromedioHoras: 2.7,
      MaximoHoras: 5,
    });
    // The observed requirement waited 2 h for its observation and 1 h for its approval.
    const waited = requisitos.find((r: Json) => r.Requisito === observed.Requisito);
    expect(waited).toMatchObject({
      Decisiones: 2,
      Observadas: 1,
      Aprobadas: 1,
      PromedioHoras: 1.5,
      MaximoHoras: 2,
    });
    for (const other of requisitos.filter((r: Json) => r !== waited))
      expect(other).toMatchObject({ Observadas: 0, PromedioHoras: 1, MaximoHoras: 1 });
    expect(requisitos[0].Requisito).toBe(observed.Requisito);
  });

  it('counts the same from the histories as it did live (lines by their last decision), and at the spec’s dashboardseguridad', async () => {
    const live = (await report()).body.result;
    await recountAttention(
      t.db.database,
      t.registry,
      (
        await t.db.database.db
          .selectFrom(t.registry.require('client').table)
          .select('IdCliente')
          .executeTakeFirstOrThrow()
      ).IdCliente as number,
    );
    // A recount reads the requests' histories (every sending and decision) and each line's last
    // decision (a line keeps no history of its own): the observation of a line corrected since is
    // not counted again by requirement, the rest is the same.
    const recounted = (await report()).body.result;
    expect({ ...recounted, requisitos: undefined }).toEqual({ ...live, requisitos: undefined });
    expect(recounted.requisitos.find((r: Json) => r.Requisito === observed.Requisito)).toMatchObject({
      Decisiones: 1,
      Aprobadas: 1,
      PromedioHoras: 1,
    });
    const spec = await as(
      'authoriser',
      'GET',
      `${BASE}/dashboardseguridad?Anio=${year}&MesDesde=${monthNumber}&MesHasta=${monthNumber}`,
    );
    expect(spec.status).toBe(200);
    expect(spec.body.result).toEqual(recounted);
  });

  it('exports each view, and refuses a range that is not one year’s months, or a caller without the report', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: `/api/reporte/eficiencia/excel?Anio=${year}&MesDesde=${monthNumber}&MesHasta=${monthNumber}&Vista=meses`,
      headers: { authorization: `Bearer ${tokens.admin}`, 'accept-language': 'en' },
    });
    expect(response.statusCode).toBe(200);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(response.rawPayload as never);
    const sheet = book.worksheets[0];
    expect(sheet.getRow(1).values).toContain('Average attention (h)');
    expect(sheet.getRow(3).getCell(1).value).toBe('Total');
    expect(sheet.getRow(3).getCell(3).value).toBe(3);
    const backwards = await report('admin', `Anio=${year}&MesDesde=5&MesHasta=3`);
    expect(backwards.status).toBe(400);
    expect(backwards.body.errors.MesHasta.message).toBe('The end month must be on or after the start month.');
    // Twenty years: no such month range, no such year.
    expect((await report('admin', `Anio=${year}&MesDesde=1&MesHasta=240`)).status).toBe(400);
    expect((await report('admin', 'Anio=1990')).status).toBe(400);
    expect((await report('requester')).status).toBe(403);
  });
});
