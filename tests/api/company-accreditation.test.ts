import { describe, expect, it } from 'vitest';
import { ExpiryJob } from '../../src/server/features/accreditation/expiry.js';
import { addDays, siteDate } from '../../src/shared/dates.js';
import { catalogue, pdf, sendRenewal, upload, valuesFor } from '../support/accreditation.js';
import { call } from '../support/app.js';
import { DIALECTS } from '../support/databases.js';
import { world } from '../support/world.js';

// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON
type Json = any;
const SOUTH = 'UNIDAD MINERA SAN GABRIEL';
const NORTH = 'PROYECTO CORDILLERA NORTE';
const BASE = '/api/acreditacionsolicitud';

/**
 * A contractor company accredited like a worker (spec section 2, requests and approvals of
 * companies): its request (IdEntidad E, no contract) carries the client's company requirements,
 * is evaluated line by line, observed, corrected and approved, which accredits the company in the
 * division for its dates; its requirements expire like a worker's. The client's setting
 * EMPRESAACREDITADA makes a worker's or vehicle's request wait for it.
 */
describe.each(DIALECTS)('company accreditation on %s', (dialect) => {
  const w = world(dialect, {
    users: {
      admin: 'ADMIN',
      requester: { user: 'SOLICITANTE', division: NORTH },
      authoriser: { user: 'AUTORIZADOR', division: NORTH },
      authoriserSouth: 'AUTORIZADOR',
      supervisor: 'SUPERVISOR',
    },
    division: SOUTH,
    ready: async () => {
      cat = await catalogue(w.app, tokens.admin);
      companyProfile = (await cat.list('accreditation-profile')).find(
        (p: Json) => p.Descripcion === 'EMPRESA CONTRATISTA',
      ).IdPerfilAcreditacion;
      // The north's contracts, as its requester sees them.
      const contracts = (
        await as('requester', 'GET', `/api/rest/contract?range=${encodeURIComponent('[0,99]')}`)
      ).body;
      const contract = contracts.find((c: Json) => c.NumeroContrato === 'CT-2026-006');
      northContract = contract.IdContrato;
      sermipac = contract.IdCompaniaContratista;
      north = contract.IdDivision;
    },
  });
  let cat: Awaited<ReturnType<typeof catalogue>>;
  const today = siteDate('PE');
  let companyProfile: number;
  let northContract: number;
  let sermipac: number;
  let north: number;
  let requestId: number;

  const { as, tokens, db, table } = w;
  const count = (name: string) => w.count(name);
  const setting = (value: 'S' | 'N') =>
    db()
      .updateTable(table('parameter'))
      .set({ Valor1: value })
      .where('IdConfiguracion', '=', 'EMPRESAACREDITADA')
      .execute();
  const company = (extra: object = {}) => ({
    IdEntidad: 'E',
    IdPerfilAcreditacion: companyProfile,
    FechaInicio: today,
    FechaFin: addDays(today, 365),
    ...extra,
  });
  const worker = (document: string) => ({
    IdEntidad: 'T',
    IdContrato: northContract,
    IdPerfilAcreditacion: cat.worker,
    FechaInicio: today,
    FechaFin: addDays(today, 60),
    IdTipoDocumento: cat.dni,
    Documento: document,
    Apellido: 'Huamán Quispe',
    Nombre: 'Julio',
    Sexo: 'M',
    FechaNacimiento: '1990-05-04',
    IdPaisNacimiento: 'PE',
    IdPaisResidencia: 'PE',
    TelefonoMovil: '987000222',
  });
  const companyAccreditation = () =>
    db()
      .selectFrom(table('accreditation'))
      .selectAll()
      .where('IdEntidad', '=', 'E')
      .where('IdCompania', '=', sermipac)
      .where('IdDivision', '=', north)
      .execute() as Promise<Json[]>;

  it('seeds companies in every status, and the suspended one with its lapsed policy', async () => {
    const requests = (await db()
      .selectFrom(table('request'))
      .select(['EstadoAprobacion', 'IdContrato'])
      .where('IdEntidad', '=', 'E')
      .execute()) as Json[];
    expect(new Set(requests.map((r) => r.EstadoAprobacion))).toEqual(new Set(['A', 'R', 'P', 'O', 'I']));
    expect(requests.every((r) => r.IdContrato === null)).toBe(true);
    const accredited = (await db()
      .selectFrom(table('accreditation'))
      .select(['Estado', 'IdContrato'])
      .where('IdEntidad', '=', 'E')
      .execute()) as Json[];
    expect(accredited.map((a) => a.Estado).sort()).toEqual(['A', 'S']);
    // SERMIPAC was rejected in the north: nothing accredited there.
    expect(await companyAccreditation()).toEqual([]);
  });

  it('refuses a company request for another company, and files one for its own without a contract', async () => {
    const before = await count('request');
    const other = await as(
      'requester',
      'POST',
      `${BASE}/crearsolicitante`,
      company({ IdCompania: sermipac + 1 }),
    );
    expect(other.status).toBe(403);
    expect(other.body.message).toBe('You can only request the accreditation of your own company.');
    expect(await count('request')).toBe(before);

    const made = await as(
      'requester',
      'POST',
      `${BASE}/crearsolicitante`,
      company({ IdContrato: northContract }),
    );
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    requestId = made.body.result.IdSolicitud;
    const stored = (await db()
      .selectFrom(table('request'))
      .selectAll()
      .where('IdSolicitud', '=', requestId)
      .executeTakeFirstOrThrow()) as Json;
    expect(stored).toMatchObject({
      IdEntidad: 'E',
      IdCompania: sermipac,
      IdDivision: north,
      EstadoAprobacion: 'I',
    });
    expect(stored.IdContrato).toBeNull();

    const second = await as('requester', 'POST', `${BASE}/crearsolicitante`, company());
    expect(second.status).toBe(409);
    expect(second.body.message).toContain(`(${requestId})`);
    expect(second.body.message).toContain('for the company in this division');
    expect(await count('request')).toBe(before + 1);

    // Dates a company's request breaks like any other: a start before today.
    const early = await as(
      'requester',
      'POST',
      `${BASE}/crearsolicitante`,
      company({ FechaInicio: addDays(today, -3) }),
    );
    expect(early.status).toBe(400);
  });

  it('with the setting on, refuses a worker of a company not accredited, writing nothing', async () => {
    await setting('S');
    const before = await count('request');
    const people = await count('person');
    const refused = await as('requester', 'POST', `${BASE}/crearsolicitante`, worker('71234590'));
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe(
      'The company SERVICIOS MINEROS DEL PACÍFICO S.A.C. is not accredited in this division: accredit it before requesting the accreditation of its workers or vehicles.',
    );
    expect(await count('request')).toBe(before);
    expect(await count('person')).toBe(people);
    // The setting off: the same worker is filed.
    await setting('N');
    const filed = await as('requester', 'POST', `${BASE}/crearsolicitante`, worker('71234590'));
    expect(filed.status, JSON.stringify(filed.body)).toBe(200);
    const removed = await call(w.app, {
      method: 'DELETE',
      url: `${BASE}/eliminar?IdSolicitud=${filed.body.result.IdSolicitud}`,
      token: tokens.requester,
    });
    expect(removed.status, JSON.stringify(removed.body)).toBe(200);
  });

  it('is filled, sent, observed by the authoriser, corrected and approved: the company accredited', async () => {
    const read = await as(
      'requester',
      'GET',
      `/api/acreditacionsolicituddetalle/obtener?IdSolicitud=${requestId}`,
    );
    expect(read.status, JSON.stringify(read.body)).toBe(200);
    const [items, , , lists] = read.body.result;
    expect(new Set(items.map((i: Json) => i.Requisito))).toEqual(
      new Set([
        'FICHA RUC (CONDICIÓN TRIBUTARIA)',
        'PÓLIZA DE RESPONSABILIDAD CIVIL',
        'PLAN ANUAL DE SEGURIDAD Y SALUD OCUPACIONAL',
      ]),
    );
    const policyEnd = addDays(today, 300);
    const saved = await as('requester', 'POST', `${BASE}/actualizarsolicitante`, {
      IdSolicitud: requestId,
      Detalle: JSON.stringify(valuesFor(items, lists, policyEnd.replaceAll('-', ''))),
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const files = items.filter((i: Json) => i.AdjuntarArchivo === 'S' && i.TipoRequisito === 'S');
    expect(files.length).toBe(3);
    for (const item of files) {
      const res = await upload(
        w.app,
        tokens.requester,
        `${BASE}/UploadSolicitanteArchivo`,
        { IdSolicitud: requestId, IdDatoEvaluar: item.IdDatoEvaluar },
        { name: 'documento.pdf', bytes: pdf(item.Requisito), type: 'application/pdf' },
      );
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }
    const sent = await as('requester', 'POST', `${BASE}/cerrarsolicitud`, { IdSolicitud: requestId });
    expect(sent.body.result?.EstadoAprobacion, JSON.stringify(sent.body)).toBe('P');

    // An authoriser who approves no company requirement cannot decide one (SUPERVISOR approves
    // workers' health in the south, where TRANSALTI's company request waits).
    const pending = (await db()
      .selectFrom(table('request'))
      .select('IdSolicitud')
      .where('IdEntidad', '=', 'E')
      .where('EstadoAprobacion', '=', 'P')
      .executeTakeFirstOrThrow()) as Json;
    const stranger = await as('supervisor', 'POST', `${BASE}/actualizarsolicitanteautorizador`, {
      IdSolicitud: pending.IdSolicitud,
      Accion: 'APROBAR',
    });
    // Requests of a kind it does not approve are not its to see: not found, and nothing changes.
    expect(stranger.status).toBe(404);
    expect(stranger.body.message).toBeTruthy();
    const still = (await db()
      .selectFrom(table('request'))
      .select('EstadoAprobacion')
      .where('IdSolicitud', '=', pending.IdSolicitud)
      .executeTakeFirstOrThrow()) as Json;
    expect(still.EstadoAprobacion).toBe('P');

    const evaluation = await as(
      'authoriser',
      'GET',
      `/api/acreditacionsolicituddetalle/obtenerbyautorizador?IdSolicitud=${requestId}`,
    );
    expect(evaluation.status, JSON.stringify(evaluation.body)).toBe(200);
    const [mine] = evaluation.body.result;
    const evaluable = mine.filter((i: Json) => i.Aprobar === 'S');
    expect(evaluable.length).toBe(3);
    const policy = evaluable.find((i: Json) => i.Requisito === 'PÓLIZA DE RESPONSABILIDAD CIVIL');
    const observed = await as('authoriser', 'POST', `${BASE}/actualizarsolicitanteautorizador`, {
      IdSolicitud: requestId,
      Accion: 'OBSERVAR',
      Detalle: evaluable.map((i: Json) =>
        i === policy
          ? { IdDetalle: i.IdSecuencial, EstadoAprobacion: 'O', Observacion: 'LA PÓLIZA NO CUBRE EL PERIODO' }
          : { IdDetalle: i.IdSecuencial, EstadoAprobacion: 'A' },
      ),
    });
    expect(observed.status, JSON.stringify(observed.body)).toBe(200);
    expect(
      (await as('requester', 'GET', `${BASE}/obtenersolicitud?IdSolicitud=${requestId}`)).body.result
        .EstadoAprobacion,
    ).toBe('O');

    // The requester corrects the observed policy with a new file and sends it again.
    const fixed = await upload(
      w.app,
      tokens.requester,
      `${BASE}/UploadSolicitanteArchivo`,
      { IdSolicitud: requestId, IdDatoEvaluar: policy.IdDatoEvaluar },
      { name: 'poliza-corregida.pdf', bytes: pdf('PÓLIZA CORREGIDA'), type: 'application/pdf' },
    );
    expect(fixed.status).toBe(200);
    const again = await as('requester', 'POST', `${BASE}/cerrarsolicitud`, { IdSolicitud: requestId });
    expect(again.body.result?.EstadoAprobacion, JSON.stringify(again.body)).toBe('P');

    const approved = await as('authoriser', 'POST', `${BASE}/actualizarsolicitanteautorizador`, {
      IdSolicitud: requestId,
      Accion: 'APROBAR',
      Detalle: [{ IdDetalle: policy.IdSecuencial, EstadoAprobacion: 'A' }],
    });
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    const [accreditation] = await companyAccreditation();
    expect(accreditation).toMatchObject({
      IdEntidad: 'E',
      Estado: 'A',
      IdSolicitud: requestId,
      FechaInicio: today,
      FechaFin: addDays(today, 365),
    });
    expect(accreditation.IdContrato).toBeNull();
    expect(accreditation.IdPersona).toBeNull();
    const kept = (await db()
      .selectFrom(table('accredited-requirement'))
      .select(['IdRequisito', 'FechaVencimiento', 'IdEntidad'])
      .where('IdCompania', '=', sermipac)
      .execute()) as Json[];
    expect(kept.every((k) => k.IdEntidad === 'E')).toBe(true);
    // The policy's expiry is its typed date; the others' their validity from today.
    expect(kept.map((k) => k.FechaVencimiento)).toContain(policyEnd);
    expect(kept.map((k) => k.FechaVencimiento)).toContain(addDays(today, 90));
  });

  it('with the setting on, files a worker of the accredited company; its dashboards count the company', async () => {
    await setting('S');
    const filed = await as('requester', 'POST', `${BASE}/crearsolicitante`, worker('71234591'));
    expect(filed.status, JSON.stringify(filed.body)).toBe(200);
    const requester = (await as('requester', 'GET', `${BASE}/dashboard?CantMeses=2`)).body.result;
    const companies = requester[4] as Json[];
    expect(companies.every((row) => row.ENTIDAD === 'E')).toBe(true);
    expect(companies.find((row) => row.ESTADO === 'A')?.TOTAL).toBe(1);
    expect(requester[0][0].TOTAL_EMPRESAS).toBeGreaterThanOrEqual(1);
    const authoriser = (await as('authoriser', 'GET', `${BASE}/dashboardAutorizador?CantMeses=2`)).body
      .result;
    expect((authoriser[4] as Json[]).find((row) => row.ESTADO === 'A')?.TOTAL).toBeGreaterThanOrEqual(1);
    await setting('N');
  });

  it('suspends the company when its mandatory policy lapses, and then refuses its workers again', async () => {
    await db()
      .updateTable(table('accredited-requirement'))
      .set({ FechaVencimiento: addDays(today, -1) })
      .where('IdCompania', '=', sermipac)
      .execute();
    const suspendedWorkers = async () =>
      (
        (await db()
          .selectFrom(table('accreditation'))
          .select('IdAcreditacion')
          .where('IdCompania', '=', sermipac)
          .where('IdEntidad', 'in', ['T', 'V'])
          .where('Estado', '=', 'S')
          .execute()) as Json[]
      ).length;
    const before = await suspendedWorkers();
    await new ExpiryJob(
      w.t.db.database,
      w.registry,
      w.app.notifier,
      w.app.events,
      () => Date.now(),
      'company-test',
    ).runOnce();
    const [accreditation] = await companyAccreditation();
    expect(accreditation.Estado).toBe('S');
    // The company's people are untouched by its own suspension.
    expect(await suspendedWorkers()).toBe(before);
    await setting('S');
    const refused = await as('requester', 'POST', `${BASE}/crearsolicitante`, worker('71234592'));
    expect(refused.status).toBe(400);
    expect(refused.body.message).toContain('is not accredited in this division');
    await setting('N');
  });

  it('renews the lapsed policy like a worker’s requirement: the company active again', async () => {
    const RENEWAL = '/api/acreditacionrequisitosolicitud';
    const held = await as(
      'requester',
      'GET',
      `${RENEWAL}/requisitosacreditados?IdEntidad=E&IdCompania=${sermipac}`,
    );
    expect(held.status, JSON.stringify(held.body)).toBe(200);
    const policy = held.body.result.find((r: Json) => r.Requisito === 'PÓLIZA DE RESPONSABILIDAD CIVIL');
    expect(policy.FechaVencimiento).toBe(addDays(today, -1));
    // Only the policy is left lapsed: its renewal alone lifts the suspension.
    await db()
      .updateTable(table('accredited-requirement'))
      .set({ FechaVencimiento: addDays(today, 100) })
      .where('IdCompania', '=', sermipac)
      .where('IdRequisito', '<>', policy.IdRequisito)
      .execute();
    // Another company's requirements are not the requester's to renew.
    const other = await as('requester', 'POST', `${RENEWAL}/crear`, {
      IdEntidad: 'E',
      IdCompania: sermipac + 1,
      IdRequisito: policy.IdRequisito,
    });
    expect(other.status).toBe(400);
    expect(JSON.stringify(other.body)).toContain('IdCompania');
    expect(JSON.stringify(other.body)).toContain('renewal.refusals.notAccredited');
    const made = await as('requester', 'POST', `${RENEWAL}/crear`, {
      IdEntidad: 'E',
      IdCompania: sermipac,
      IdRequisito: policy.IdRequisito,
    });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const id = made.body.result.IdSolicitud;
    const twice = await as('requester', 'POST', `${RENEWAL}/crear`, {
      IdEntidad: 'E',
      IdCompania: sermipac,
      IdRequisito: policy.IdRequisito,
    });
    expect(twice.status).toBe(409);
    const renewedTo = addDays(today, 400);
    await sendRenewal(w.app, tokens.requester, id, renewedTo);
    const read = await as('authoriser', 'GET', `${RENEWAL}/obtener?IdSolicitud=${id}`);
    expect(read.status, JSON.stringify(read.body)).toBe(200);
    const [items] = read.body.result.detalle;
    const approved = await as('authoriser', 'POST', `${RENEWAL}/actualizarautorizador`, {
      IdSolicitud: id,
      Accion: 'APROBAR',
      Detalle: items
        .filter((i: Json) => i.Aprobar === 'S')
        .map((i: Json) => ({ IdDetalle: i.IdSecuencial, EstadoAprobacion: 'A' })),
    });
    expect(approved.body.result?.EstadoAprobacion, JSON.stringify(approved.body)).toBe('A');
    const kept = (await db()
      .selectFrom(table('accredited-requirement'))
      .select('FechaVencimiento')
      .where('IdCompania', '=', sermipac)
      .where('IdRequisito', '=', policy.IdRequisito)
      .execute()) as Json[];
    expect(kept.map((k) => k.FechaVencimiento)).toEqual(kept.map(() => renewedTo));
    // Active again, its dates kept.
    const [accreditation] = await companyAccreditation();
    expect(accreditation).toMatchObject({ Estado: 'A', FechaFin: addDays(today, 365) });
  });
});
