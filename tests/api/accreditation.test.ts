import { describe, expect, it } from 'vitest';
import { ExpiryJob } from '../../src/server/features/accreditation/expiry.js';
import { addDays, siteDate } from '../../src/shared/dates.js';
import { catalogue, pdf, png, upload, valuesFor } from '../support/accreditation.js';
import { call, signIn } from '../support/app.js';
import { DIALECTS } from '../support/databases.js';
import { CONTRACTOR_CAST, world } from '../support/world.js';

// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON
type Json = any;
const SOUTH = 'UNIDAD MINERA SAN GABRIEL';
const NORTH = 'PROYECTO CORDILLERA NORTE';
const BASE = '/api/acreditacionsolicitud';

describe.each(DIALECTS)('mobilisation requests on %s', (dialect) => {
  const w = world(dialect, {
    users: CONTRACTOR_CAST,
    division: SOUTH,
    ready: async () => {
      cat = await catalogue(w.app, tokens.admin);
      const contracts = await cat.list('contract');
      contract = contracts.find((c: Json) => c.NumeroContrato === 'CT-2026-001').IdContrato;
      northContract = (
        await call(w.app, { url: '/api/rest/contract', token: tokens.requesterNorth })
      ).body.find((c: Json) => c.NumeroContrato === 'CT-2026-006').IdContrato;
    },
  });
  let cat: Awaited<ReturnType<typeof catalogue>>;
  const { tokens } = w;
  let contract: number;
  let northContract: number;
  const today = siteDate('PE');
  const expiry = addDays(today, 200).replaceAll('-', '');

  const { as } = w;
  const detail = async (id: number, who = 'requester') =>
    (
      await as(
        who,
        'GET',
        `/api/acreditacionsolicituddetalle/${who.startsWith('requester') ? 'obtener' : 'obtenerbyautorizador'}?IdSolicitud=${id}`,
      )
    ).body.result as Json[][];
  const worker = (document: string, extra: object = {}) => ({
    IdEntidad: 'T',
    IdContrato: contract,
    IdPerfilAcreditacion: cat.worker,
    FechaInicio: today,
    FechaFin: addDays(today, 120),
    IdTipoDocumento: cat.dni,
    Documento: document,
    Apellido: 'Huanca Quispe',
    Nombre: 'Luis Alberto',
    Sexo: 'M',
    FechaNacimiento: '1990-05-14',
    IdPaisNacimiento: 'PE',
    IdPaisResidencia: 'PE',
    TelefonoMovil: '987123456',
    ...extra,
  });
  /** Fills every requester-type value and attaches every file the request asks for. */
  const complete = async (id: number, visitor?: number) => {
    const [items, , , lists] = await detail(id);
    const mine = items.filter((i: Json) => visitor === undefined || i.IdVisitaPersona === visitor);
    const saved = await as('requester', 'POST', `${BASE}/actualizarsolicitante`, {
      IdSolicitud: id,
      Detalle: JSON.stringify(valuesFor(mine, lists, expiry)),
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    for (const item of mine.filter((i: Json) => i.AdjuntarArchivo === 'S' && i.TipoRequisito === 'S')) {
      const res = await upload(
        w.app,
        tokens.requester,
        `${BASE}/UploadSolicitanteArchivo`,
        {
          IdSolicitud: id,
          IdDatoEvaluar: item.IdDatoEvaluar,
          ...(item.IdVisitaPersona ? { IdVisitaPersona: item.IdVisitaPersona } : {}),
        },
        { name: 'constancia.pdf', bytes: pdf(item.Requisito), type: 'application/pdf' },
      );
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }
  };
  /** Approves every line the authoriser may, requester-type first, authoriser-type with a value. */
  const approveAll = async (id: number, action?: string) => {
    const [requesterItems, authoriserItems] = await detail(id, 'authoriser');
    const first = await as('authoriser', 'POST', `${BASE}/actualizarsolicitanteautorizador`, {
      IdSolicitud: id,
      Detalle: requesterItems
        .filter((i: Json) => i.Aprobar === 'S')
        .map((i: Json) => ({ IdDetalle: i.IdSecuencial, EstadoAprobacion: 'A' })),
    });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    return as('authoriser', 'POST', `${BASE}/actualizarsolicitanteautorizador`, {
      IdSolicitud: id,
      Accion: action,
      Detalle: authoriserItems
        .filter((i: Json) => i.Aprobar === 'S')
        .map((i: Json) => ({ IdDetalle: i.IdSecuencial, EstadoAprobacion: 'A', Valor: 'APROBADO' })),
    });
  };

  it('walks a worker’s mobilisation: made, completed, sent, observed, corrected, approved; the worker is accredited', async () => {
    const created = await as('requester', 'POST', `${BASE}/crearsolicitante`, worker('70112233'));
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const id = created.body.result.IdSolicitud as number;
    expect(created.body.result).toMatchObject({ EstadoAprobacion: 'I', SolicitudCompleta: 'N' });

    // Not complete: nothing sent, the missing data named.
    const early = await as('requester', 'POST', `${BASE}/cerrarsolicitud`, { IdSolicitud: id });
    expect(early.status).toBe(400);
    expect(early.body.messageKey).toBe('accreditation.refusals.incomplete');
    expect(Object.values(early.body.errors).map((e: Json) => e.messageKey)).toContain(
      'ACCREDITATION.REQUEST.NOTFILE',
    );

    await complete(id);
    const photo = await upload(
      w.app,
      tokens.requester,
      `${BASE}/crearsolicitantefoto`,
      { IdSolicitud: id },
      { name: 'foto.png', bytes: png(150, 160) },
    );
    expect(photo.status, JSON.stringify(photo.body)).toBe(200);
    const sent = await as('requester', 'POST', `${BASE}/cerrarsolicitud`, { IdSolicitud: id });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    expect(sent.body.result.EstadoAprobacion).toBe('P');
    expect(
      w.t.mail.some((m) => m.userId === 'AUTORIZADOR' && m.subject.includes(String(id).padStart(8, '0'))),
    ).toBe(true);

    // Sent: no longer the requester's to change or delete.
    const edit = await as('requester', 'POST', `${BASE}/actualizarsolicitante`, {
      IdSolicitud: id,
      Observacion: 'X',
    });
    expect(edit.status).toBe(409);
    expect(edit.body.messageKey).toBe('accreditation.refusals.sentNotEditable');
    const gone = await as('requester', 'DELETE', `${BASE}/eliminar?IdSolicitud=${id}`);
    expect(gone.status).toBe(409);
    expect(gone.body.messageKey).toBe('accreditation.refusals.sentNotDeletable');

    // The authoriser observes one requirement.
    const [requesterItems, authoriserItems] = await detail(id, 'authoriser');
    const sctr = requesterItems.find((i: Json) => i.Aprobar === 'S');
    expect(sctr.opciones).toEqual(['P', 'A', 'R', 'O']);
    const induction = authoriserItems.find((i: Json) => i.Aprobar === 'S');
    expect(induction.opciones).toEqual(['P', 'R']);
    // Approving the authoriser's requirement first is the approval-order conflict.
    const early2 = await as('authoriser', 'POST', `${BASE}/actualizarsolicitanteautorizador`, {
      IdSolicitud: id,
      Detalle: [{ IdDetalle: induction.IdSecuencial, EstadoAprobacion: 'A' }],
    });
    expect(early2.status).toBe(400);
    expect(early2.body.messageKey).toBe('ACCREDITATION.MESSAGE.APPROVALSTATUS');
    const noNote = await as('authoriser', 'POST', `${BASE}/actualizarsolicitanteautorizador`, {
      IdSolicitud: id,
      Detalle: [{ IdDetalle: sctr.IdSecuencial, EstadoAprobacion: 'O' }],
    });
    expect(noNote.status).toBe(400);
    const observed = await as('authoriser', 'POST', `${BASE}/actualizarsolicitanteautorizador`, {
      IdSolicitud: id,
      Accion: 'OBSERVAR',
      Detalle: [
        {
          IdDetalle: sctr.IdSecuencial,
          EstadoAprobacion: 'O',
          Observacion: 'La constancia no corresponde al periodo',
        },
      ],
    });
    expect(observed.status, JSON.stringify(observed.body)).toBe(200);
    expect(observed.body.result.EstadoAprobacion).toBe('O');
    expect(w.t.mail.some((m) => m.userId === 'SOLICITANTE' && /observada/.test(m.text))).toBe(true);

    // Still observed: not sent again until corrected; a new file corrects it.
    expect((await as('requester', 'POST', `${BASE}/cerrarsolicitud`, { IdSolicitud: id })).status).toBe(409);
    const corrected = await upload(
      w.app,
      tokens.requester,
      `${BASE}/UploadSolicitanteArchivo`,
      { IdSolicitud: id, IdDatoEvaluar: sctr.IdDatoEvaluar },
      { name: 'nueva.pdf', bytes: pdf('NUEVA CONSTANCIA') },
    );
    expect(corrected.status, JSON.stringify(corrected.body)).toBe(200);
    expect(
      (await as('requester', 'POST', `${BASE}/cerrarsolicitud`, { IdSolicitud: id })).body.result
        .EstadoAprobacion,
    ).toBe('P');

    const approved = await approveAll(id, 'APROBAR');
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    expect(approved.body.result.EstadoAprobacion).toBe('A');

    const record = (await as('requester', 'GET', `${BASE}/obtenersolicitud?IdSolicitud=${id}`)).body.result;
    expect(record.historial.map((h: Json) => h.Evento)).toEqual([
      'CREATE',
      'UPDATE',
      'SEND',
      'OBSERVE',
      'SEND',
      'EVALUATE',
      'APPROVE',
    ]);
    const accreditations = (
      await call(w.app, {
        url: `/api/rest/accreditation?filter=${encodeURIComponent(JSON.stringify({ IdPersona: record.IdPersona }))}`,
        token: tokens.requester,
      })
    ).body;
    expect(accreditations).toHaveLength(1);
    // Its event, written with it: granted by this request.
    const granted = (await w.t.db.database.db
      .selectFrom(w.registry.require('accreditation-event').table)
      .selectAll()
      .where('IdAcreditacion', '=', accreditations[0].IdAcreditacion)
      .execute()) as Json[];
    expect(granted.map((e) => [e.Tipo, JSON.parse(e.Datos).IdSolicitud])).toEqual([['granted', id]]);
    // The request's photo is now the worker's.
    const person = (
      await call(w.app, { url: `/api/rest/person/${record.IdPersona}`, token: tokens.requester })
    ).body;
    expect(person.Foto).toBe(`data:image/png;base64,${png(150, 160).toString('base64')}`);
    expect(accreditations[0]).toMatchObject({
      IdContrato: contract,
      Estado: 'A',
      FechaInicio: today,
      IdSolicitud: id,
    });
    const kept = (
      await as(
        'requester',
        'GET',
        `/api/acreditacionsolicituddetalle/listarbypersona?IdPersona=${record.IdPersona}`,
      )
    ).body.result;
    const sctrKept = kept.find((k: Json) => k.Requisito === 'SCTR SALUD' && k.FechaVencimiento);
    expect(sctrKept.FechaVencimiento).toBe(addDays(today, 200));
    // Answered: never deleted.
    expect((await as('requester', 'DELETE', `${BASE}/eliminar?IdSolicitud=${id}`)).status).toBe(409);
  });

  it('gives an observed line its type’s correction deadline; a lapsed one is flagged on both dashboards and escalated once', async () => {
    const db = w.t.db.database.db;
    const { table } = w;
    const created = await as('requester', 'POST', `${BASE}/crearsolicitante`, worker('70445566'));
    const id = created.body.result.IdSolicitud as number;
    await complete(id);
    await upload(
      w.app,
      tokens.requester,
      `${BASE}/crearsolicitantefoto`,
      { IdSolicitud: id },
      {
        name: 'foto.png',
        bytes: png(150, 160),
      },
    );
    expect((await as('requester', 'POST', `${BASE}/cerrarsolicitud`, { IdSolicitud: id })).status).toBe(200);
    const [items] = await detail(id, 'authoriser');
    const sctr = items.find((i: Json) => i.Aprobar === 'S' && i.Requisito === 'SCTR SALUD');
    const observed = await as('authoriser', 'POST', `${BASE}/actualizarsolicitanteautorizador`, {
      IdSolicitud: id,
      Accion: 'OBSERVAR',
      Detalle: [{ IdDetalle: sctr.IdSecuencial, EstadoAprobacion: 'O', Observacion: 'Constancia ilegible' }],
    });
    expect(observed.status, JSON.stringify(observed.body)).toBe(200);
    const { DiasCorreccion } = (await db
      .selectFrom(table('requirement-type'))
      .select('DiasCorreccion')
      .where('IdTipoRequisito', '=', sctr.IdTipoRequisito)
      .executeTakeFirstOrThrow()) as Json;
    expect(DiasCorreccion).toBeGreaterThan(0);
    const deadline = addDays(today, DiasCorreccion);
    const line = (await detail(id)).at(0)?.find((i: Json) => i.IdSecuencial === sctr.IdSecuencial);
    expect(line.FechaLimiteCorreccion).toBe(deadline);

    const overdue = async () => ({
      requester: (await as('requester', 'GET', `${BASE}/dashboard?CantMeses=2`)).body.result[0][0]
        .CORRECCION_VENCIDA_TRABAJADORES as number,
      authoriser: (await as('authoriser', 'GET', `${BASE}/dashboardAutorizador?CantMeses=2`)).body
        .result[0][0].CORRECCION_VENCIDA_TRABAJADORES as number,
    });
    const before = await overdue();
    // The deadline lapses (as if the days had passed): flagged on both dashboards.
    await db
      .updateTable(table('request-detail'))
      .set({ FechaLimiteCorreccion: addDays(today, -1) })
      .where('IdDetalle', '=', sctr.IdSecuencial)
      .execute();
    expect(await overdue()).toEqual({ requester: before.requester + 1, authoriser: before.authoriser + 1 });
    // Counted with the months the card shows, it is one of the card's Observed requests; a card of
    // other months flags it apart, as of other months, never above its own Observed count.
    const card = async (query: string) => {
      const [[summary], workers] = (await as('requester', 'GET', `${BASE}/dashboard?${query}`)).body.result;
      return {
        observed: workers.find((r: Json) => r.ESTADO === 'O').TOTAL as number,
        overdue: summary.CORRECCION_VENCIDA_TRABAJADORES as number,
        other: summary.CORRECCION_VENCIDA_OTROS_MESES_TRABAJADORES as number,
      };
    };
    const now = await card('CantMeses=2');
    expect(now.overdue).toBeLessThanOrEqual(now.observed);
    const lastYear = await card(`CantYear=${Number(today.slice(0, 4)) - 1}`);
    expect(lastYear.overdue).toBeLessThanOrEqual(lastYear.observed);
    expect(lastYear.other).toBeGreaterThanOrEqual(1);
    expect(lastYear.overdue + lastYear.other).toBe(now.overdue + now.other);

    // The daily job tells the next approvers (here the only order: AUTORIZADOR) once.
    const number = String(id).padStart(8, '0');
    const escalations = () =>
      w.t.mail.filter((m) => m.subject.includes(`Correction overdue: request ${number}`));
    const run = (day: number) =>
      new ExpiryJob(
        w.t.db.database,
        w.registry,
        w.app.notifier,
        w.app.events,
        () => Date.now() + day * 86_400_000,
        `r${day}`,
      ).runOnce();
    expect((await run(0)).escalated).toBeGreaterThan(0);
    expect(escalations().map((m) => m.userId)).toEqual(['AUTORIZADOR']);
    expect(escalations()[0].text).toContain(`SCTR SALUD: ${addDays(today, -1)}`);
    await run(1);
    expect(escalations()).toHaveLength(1);

    // Corrected: no longer flagged.
    const corrected = await upload(
      w.app,
      tokens.requester,
      `${BASE}/UploadSolicitanteArchivo`,
      { IdSolicitud: id, IdDatoEvaluar: sctr.IdDatoEvaluar },
      { name: 'nueva.pdf', bytes: pdf('CONSTANCIA LEGIBLE') },
    );
    expect(corrected.status).toBe(200);
    expect(await overdue()).toEqual(before);
  });

  it('accredits once: a worker accredited in one division is asked in another only for what it has not proved', async () => {
    const southPerson = async (id: number) =>
      (await as('requester', 'GET', `${BASE}/obtenersolicitud?IdSolicitud=${id}`)).body.result
        .IdPersona as number;
    const keptOf = async (person: number | Promise<number>) =>
      (await w.t.db.database.db
        .selectFrom(w.registry.require('accredited-requirement').table)
        .select(['IdDatoEvaluar', 'Valor', 'FechaVencimiento', 'IdSolicitud'])
        .where('IdPersona', '=', await person)
        .execute()) as Json[];
    // Accredited in the south as a worker.
    const south = (await as('requester', 'POST', `${BASE}/crearsolicitante`, worker('70556677'))).body.result
      .IdSolicitud as number;
    await complete(south);
    await upload(
      w.app,
      tokens.requester,
      `${BASE}/crearsolicitantefoto`,
      { IdSolicitud: south },
      {
        name: 'foto.png',
        bytes: png(150, 160),
      },
    );
    expect((await as('requester', 'POST', `${BASE}/cerrarsolicitud`, { IdSolicitud: south })).status).toBe(
      200,
    );
    expect((await approveAll(south, 'APROBAR')).body.result.EstadoAprobacion).toBe('A');
    const southItems = (await detail(south))[0];

    // Requested in the north as a driver: what both profiles share comes from the south.
    const driver = (await cat.list('accreditation-profile')).find(
      (p: Json) => p.Descripcion === 'CONDUCTOR CONTRATISTA',
    ).IdPerfilAcreditacion;
    const made = await as(
      'requesterNorth',
      'POST',
      `${BASE}/crearsolicitante`,
      worker('70556677', { IdContrato: northContract, IdPerfilAcreditacion: driver }),
    );
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const north = made.body.result.IdSolicitud as number;
    const items = (await detail(north, 'requesterNorth'))[0] as Json[];
    const carried = items.filter((i) => i.IdSolicitudOrigen);
    const asked = items.filter((i) => !i.IdSolicitudOrigen);
    expect(carried.length).toBeGreaterThan(0);
    expect(asked.length).toBeGreaterThan(0);
    for (const item of carried) {
      const from = southItems.find((i: Json) => i.IdDatoEvaluar === item.IdDatoEvaluar);
      expect(item).toMatchObject({ IdSolicitudOrigen: south, Value: from.Value, readOnly: true });
      if (item.Aprobar === 'S') expect(item.EstadoAprobacion).toBe('A');
    }
    expect(carried.map((i) => i.Requisito)).toContain('SCTR SALUD');
    // The driving requirements the south never asked for are asked.
    expect(asked.every((i) => !southItems.some((s: Json) => s.IdDatoEvaluar === i.IdDatoEvaluar))).toBe(true);

    // Only the asked ones filled: the request is complete and goes to evaluation.
    const saved = await as('requesterNorth', 'POST', `${BASE}/actualizarsolicitante`, {
      IdSolicitud: north,
      Detalle: JSON.stringify(valuesFor(asked, (await detail(north, 'requesterNorth'))[3], expiry)),
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    for (const item of asked.filter((i) => i.AdjuntarArchivo === 'S' && i.TipoRequisito === 'S'))
      expect(
        (
          await upload(
            w.app,
            tokens.requesterNorth,
            `${BASE}/UploadSolicitanteArchivo`,
            { IdSolicitud: north, IdDatoEvaluar: item.IdDatoEvaluar },
            { name: 'licencia.pdf', bytes: pdf(item.Requisito) },
          )
        ).status,
      ).toBe(200);
    await upload(
      w.app,
      tokens.requesterNorth,
      `${BASE}/crearsolicitantefoto`,
      { IdSolicitud: north },
      {
        name: 'foto.png',
        bytes: png(150, 160),
      },
    );
    const sent = await as('requesterNorth', 'POST', `${BASE}/cerrarsolicitud`, { IdSolicitud: north });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    expect((await detail(north, 'requesterNorth'))[0].filter((i: Json) => i.IdSolicitudOrigen)).toHaveLength(
      carried.length,
    );

    // Approved in the north: the carried values stay kept as the south proved them.
    const keptBefore = await keptOf(southPerson(south));
    tokens.authoriserNorth = (await signIn(w.app, 'AUTORIZADOR', { division: NORTH })).accessToken;
    const [requesterLines, authoriserLines] = (
      await as(
        'authoriserNorth',
        'GET',
        `/api/acreditacionsolicituddetalle/obtenerbyautorizador?IdSolicitud=${north}`,
      )
    ).body.result as Json[][];
    for (const [lines, action] of [
      [requesterLines, undefined],
      [authoriserLines, 'APROBAR'],
    ] as const) {
      const evaluated = await as('authoriserNorth', 'POST', `${BASE}/actualizarsolicitanteautorizador`, {
        IdSolicitud: north,
        Accion: action,
        Detalle: lines
          .filter((i: Json) => i.Aprobar === 'S' && i.EstadoAprobacion !== 'A')
          .map((i: Json) => ({ IdDetalle: i.IdSecuencial, EstadoAprobacion: 'A', Valor: 'APROBADO' })),
      });
      expect(evaluated.status, JSON.stringify(evaluated.body)).toBe(200);
    }
    expect(
      (await as('requesterNorth', 'GET', `${BASE}/obtenersolicitud?IdSolicitud=${north}`)).body.result
        .EstadoAprobacion,
    ).toBe('A');
    const keptAfter = await keptOf(southPerson(south));
    expect(keptAfter.some((k) => k.IdSolicitud === north)).toBe(true);
    for (const item of carried) {
      const before = keptBefore.find((k) => k.IdDatoEvaluar === item.IdDatoEvaluar);
      expect(keptAfter.find((k) => k.IdDatoEvaluar === item.IdDatoEvaluar)).toEqual(before);
    }
  });

  it('refuses a start before today, dates outside the contract, a second open request and a profile of another kind', async () => {
    const past = await as(
      'requester',
      'POST',
      `${BASE}/crearsolicitante`,
      worker('70112234', { FechaInicio: addDays(today, -1) }),
    );
    expect(past.status).toBe(400);
    expect(past.body.errors.FechaInicio.messageKey).toBe('accreditation.refusals.startBeforeToday');
    const late = await as(
      'requester',
      'POST',
      `${BASE}/crearsolicitante`,
      worker('70112234', { FechaFin: '2030-01-01' }),
    );
    expect(late.status).toBe(400);
    expect(late.body.errors.FechaFin.messageKey).toBe('accreditation.refusals.outsideContract');
    // Its message writes the contract's dates as the screens do.
    expect(late.body.errors.FechaFin.message).toMatch(/\d{2}\/\d{2}\/\d{4} to \d{2}\/\d{2}\/\d{4}/);
    const backwards = await as(
      'requester',
      'POST',
      `${BASE}/crearsolicitante`,
      worker('70112234', { FechaInicio: addDays(today, 10), FechaFin: addDays(today, 5) }),
    );
    expect(backwards.status).toBe(400);
    expect(backwards.body.errors.FechaFin.messageKey).toBe('accreditation.refusals.endBeforeStart');
    const unborn = await as(
      'requester',
      'POST',
      `${BASE}/crearsolicitante`,
      worker('70112234', { FechaNacimiento: addDays(today, 1) }),
    );
    expect(unborn.status).toBe(400);
    expect(unborn.body.errors.FechaNacimiento.messageKey).toBe('accreditation.refusals.birthNotPast');
    const young = await as(
      'requester',
      'POST',
      `${BASE}/crearsolicitante`,
      worker('70112234', { FechaNacimiento: addDays(today, -365 * 17) }),
    );
    expect(young.status).toBe(400);
    expect(young.body.errors.FechaNacimiento.messageKey).toBe('accreditation.refusals.underWorkingAge');
    const kind = await as(
      'requester',
      'POST',
      `${BASE}/crearsolicitante`,
      worker('70112234', { IdPerfilAcreditacion: cat.vehicle }),
    );
    expect(kind.status).toBe(400);
    expect(kind.body.errors.IdPerfilAcreditacion.messageKey).toBe('accreditation.refusals.profileUnfit');
    const first = await as('requester', 'POST', `${BASE}/crearsolicitante`, worker('70112235'));
    expect(first.status).toBe(200);
    const second = await as('requester', 'POST', `${BASE}/crearsolicitante`, worker('70112235'));
    expect(second.status).toBe(409);
    expect(second.body.messageKey).toBe('accreditation.refusals.openRequestExists');
    // Incomplete and not sent: the requester deletes it, lines and all.
    const removed = await as(
      'requester',
      'DELETE',
      `${BASE}/eliminar?IdSolicitud=${first.body.result.IdSolicitud}`,
    );
    expect(removed.status).toBe(200);
    expect(
      (await as('requester', 'GET', `${BASE}/obtenersolicitud?IdSolicitud=${first.body.result.IdSolicitud}`))
        .status,
    ).toBe(404);
  });

  it('checks files by their content, size and dimensions', async () => {
    const id = (await as('requester', 'POST', `${BASE}/crearsolicitante`, worker('70112236'))).body.result
      .IdSolicitud;
    const [items] = await detail(id);
    const file = items.find((i: Json) => i.AdjuntarArchivo === 'S');
    const exe = Buffer.concat([Buffer.from('MZ\x90\x00\x03'), Buffer.alloc(200)]);
    const renamed = await upload(
      w.app,
      tokens.requester,
      `${BASE}/UploadSolicitanteArchivo`,
      { IdSolicitud: id, IdDatoEvaluar: file.IdDatoEvaluar },
      { name: 'sctr.pdf', bytes: exe, type: 'application/pdf' },
    );
    expect(renamed.status).toBe(400);
    expect(renamed.body.messageKey).toBe('accreditation.files.notPdf');
    const none = await upload(w.app, tokens.requester, `${BASE}/UploadSolicitanteArchivo`, {
      IdSolicitud: id,
      IdDatoEvaluar: file.IdDatoEvaluar,
    });
    expect(none.body.messageKey).toBe('ACCREDITATION.REQUEST.NOTFILE');
    const big = Buffer.concat([pdf(), Buffer.alloc(11 * 1024 * 1024)]);
    const tooBig = await upload(
      w.app,
      tokens.requester,
      `${BASE}/UploadSolicitanteArchivo`,
      { IdSolicitud: id, IdDatoEvaluar: file.IdDatoEvaluar },
      { name: 'grande.pdf', bytes: big },
    );
    expect(tooBig.status).toBe(400);
    expect(tooBig.body.messageKey).toBe('accreditation.files.tooLarge');
    const photo = (bytes: Buffer) =>
      upload(
        w.app,
        tokens.requester,
        `${BASE}/crearsolicitantefoto`,
        { IdSolicitud: id },
        { name: 'foto.png', bytes },
      );
    expect((await photo(png(150, 160))).status).toBe(200);
    const wrong = await photo(png(1200, 1600));
    expect(wrong.status).toBe(400);
    expect(wrong.body.messageKey).toBe('accreditation.files.dimensions');
    expect(wrong.body.params).toMatchObject({ width: 1200, height: 1600, minWidth: 113, maxWidth: 187 });
    const huge = await photo(Buffer.concat([png(150, 160), Buffer.alloc(6 * 1024 * 1024)]));
    expect(huge.status).toBe(400);
    expect(huge.body.messageKey).toBe('accreditation.files.tooLarge');
    expect((await photo(pdf())).body.messageKey).toBe('accreditation.files.notImage');
  });

  it('keeps requests within their tenant: another division, another company, the wrong role', async () => {
    const north = await as(
      'requesterNorth',
      'POST',
      `${BASE}/crearsolicitante`,
      worker('70112237', { IdContrato: northContract }),
    );
    expect(north.status, JSON.stringify(north.body)).toBe(200);
    const id = north.body.result.IdSolicitud;
    expect((await as('requester', 'GET', `${BASE}/obtenersolicitud?IdSolicitud=${id}`)).status).toBe(404);
    expect((await as('requester', 'POST', `${BASE}/actualizarsolicitante`, { IdSolicitud: id })).status).toBe(
      404,
    );
    expect((await as('requesterNorth', 'GET', `${BASE}/obtenersolicitud?IdSolicitud=${id}`)).status).toBe(
      200,
    );
    // A contract of another company is as good as none.
    const other = (await cat.list('contract')).find(
      (c: Json) => c.NumeroContrato === 'CT-2026-002',
    ).IdContrato;
    const foreign = await as(
      'requester',
      'POST',
      `${BASE}/crearsolicitante`,
      worker('70112238', { IdContrato: other }),
    );
    expect(foreign.status, JSON.stringify(foreign.body)).toBe(400);
    expect(foreign.body.errors.IdContrato.messageKey).toBe('validation.referenceMissing');
    // Incomplete requests are not the authoriser's; the wrong role is a 403 either way.
    expect(
      (await as('authoriser', 'GET', `${BASE}/obtenersolicitudbyautorizador?IdSolicitud=${id}`)).status,
    ).toBe(404);
    expect((await as('authoriser', 'POST', `${BASE}/crearsolicitante`, worker('70112239'))).status).toBe(403);
    expect((await as('admin', 'GET', `${BASE}/dashboard`)).status).toBe(403);
    expect(
      (await as('requester', 'POST', `${BASE}/actualizarsolicitanteautorizador`, { IdSolicitud: id })).status,
    ).toBe(403);
    // The generic API shows requests to nobody's menu, and writes them to nobody.
    expect((await as('requester', 'GET', '/api/rest/request')).status).toBe(403);
    expect((await as('admin', 'POST', '/api/rest/accreditation', {})).status).toBe(404);
  });

  it('counts requests on both dashboards, by kind and status', async () => {
    const requester = (await as('requester', 'GET', `${BASE}/dashboard?CantMeses=2`)).body.result;
    // The summary, then workers, vehicles, visits and companies.
    expect(requester).toHaveLength(5);
    const workers = requester[1] as Json[];
    expect(workers.map((r) => r.ESTADO)).toEqual(['P', 'I', 'O', 'A', 'R']);
    expect(workers.find((r) => r.ESTADO === 'A').TOTAL).toBeGreaterThanOrEqual(1);
    const authoriser = (await as('authoriser', 'GET', `${BASE}/dashboardAutorizador?CantMeses=2`)).body
      .result;
    expect((authoriser[1] as Json[]).map((r) => r.ESTADO)).toEqual(['P', 'O', 'A', 'R']);
    const permissions = (await as('requester', 'GET', '/api/acreditacionpermisovista/listar')).body.result;
    expect(permissions).toContainEqual({ Tipo: 'M', IdEntidad: 'T', Ver: 'S' });
    const rows = (await as('authoriser', 'GET', '/api/acreditacionautorizadorusuario/ListarByUser')).body
      .result;
    expect(rows.map((r: Json) => r.IdEntidad).sort()).toEqual(['E', 'P', 'T', 'V']);
    const list = (
      await as(
        'authoriser',
        'GET',
        `${BASE}/filtrar?take=5&filter=${encodeURIComponent(JSON.stringify(['EstadoAprobacion', '=', 'A']))}`,
      )
    ).body.result;
    expect(list.data.length).toBeGreaterThan(0);
    for (const row of list.data) expect(row.EstadoAprobacion).toBe('A');
    const summary = (await as('requester', 'GET', `${BASE}/filtrarcompaniaresumen`)).body.result.data;
    expect(summary).toHaveLength(1);
    expect(summary[0].Total).toBeGreaterThanOrEqual(summary[0].PENDIENTES + summary[0].OBSERVADOS);
  });

  it('accredits a vehicle and a visit through the same engine', async () => {
    const vehicle = await as('requester', 'POST', `${BASE}/crearsolicitante`, {
      IdEntidad: 'V',
      IdContrato: contract,
      IdPerfilAcreditacion: cat.vehicle,
      FechaInicio: today,
      FechaFin: addDays(today, 60),
      Placa: 'ABX-731',
      IdTipoVehiculo: (await cat.list('vehicle-type'))[0].IdTipoVehiculo,
      IdMarca: (await cat.list('brand'))[0].IdMarca,
      Modelo: 'HILUX',
      Serie: '8AJFB3CD5R1234567',
      ModoMarcacion: 'C',
    });
    expect(vehicle.status, JSON.stringify(vehicle.body)).toBe(200);
    const vid = vehicle.body.result.IdSolicitud;
    await complete(vid);
    expect(
      (await as('requester', 'POST', `${BASE}/cerrarsolicitud`, { IdSolicitud: vid })).body.result
        .EstadoAprobacion,
    ).toBe('P');
    expect((await approveAll(vid, 'APROBAR')).body.result.EstadoAprobacion).toBe('A');

    const visit = await as('requester', 'POST', `${BASE}/crearsolicitante`, {
      IdEntidad: 'P',
      IdContrato: contract,
      IdPerfilAcreditacion: cat.visit,
      FechaInicio: today,
      FechaFin: addDays(today, 2),
      MotivoVisita: 'Auditoría de seguridad',
      Visitantes: [
        { IdTipoDocumento: cat.dni, Documento: '41234567', Apellido: 'Ramos Díaz', Nombre: 'Carla' },
        { IdTipoDocumento: cat.dni, Documento: '41234568', Apellido: 'Salas Pinto', Nombre: 'Jorge' },
      ],
    });
    expect(visit.status, JSON.stringify(visit.body)).toBe(200);
    const pid = visit.body.result.IdSolicitud;
    const tooLong = await as('requester', 'POST', `${BASE}/actualizarsolicitante`, {
      IdSolicitud: pid,
      FechaFin: addDays(today, 30),
    });
    expect(tooLong.body.errors.FechaFin.messageKey).toBe('accreditation.refusals.visitTooLong');
    const record = (await as('requester', 'GET', `${BASE}/obtenersolicitud?IdSolicitud=${pid}`)).body.result;
    for (const visitor of record.Visitantes) await complete(pid, visitor.IdVisitaPersona);
    expect(
      (await as('requester', 'POST', `${BASE}/cerrarsolicitud`, { IdSolicitud: pid })).body.result
        .EstadoAprobacion,
    ).toBe('P');
    const visitApproved = await approveAll(pid, 'APROBAR');
    expect(visitApproved.body.result?.EstadoAprobacion, JSON.stringify(visitApproved.body)).toBe('A');
    const registered = (await as('requester', 'GET', `${BASE}/obtenersolicitud?IdSolicitud=${pid}`)).body
      .result.Visitantes;
    for (const visitor of registered) expect(visitor.IdPersona).toBeTypeOf('number');
  });

  it('answers the screens’ other calls: checks, contract, company detail, exports, files, photo, a visitor’s lines', async () => {
    // validar: a worker the company registered, its open request and its accreditation.
    const known = (
      await as(
        'requester',
        'GET',
        `${BASE}/validar?IdEntidad=T&IdTipoDocumento=${cat.dni}&Documento=70112233`,
      )
    ).body.result;
    expect(known.persona).toMatchObject({ Documento: '70112233', Apellido: 'HUANCA QUISPE' });
    expect(known.acreditacion).toMatchObject({ IdContrato: contract, Estado: 'A' });
    const unknown = (
      await as(
        'requester',
        'GET',
        `${BASE}/validar?IdEntidad=T&IdTipoDocumento=${cat.dni}&Documento=79999999`,
      )
    ).body.result;
    expect(unknown).toEqual({ persona: null, solicitudAbierta: null, acreditacion: null });
    expect((await as('requester', 'GET', `${BASE}/validar?IdEntidad=T`)).status).toBe(400);
    const plate = (await as('requester', 'GET', `${BASE}/validar?IdEntidad=V&Placa=abx-731`)).body.result;
    expect(plate.vehiculo).toMatchObject({ Placa: 'ABX-731' });

    // The contract's context, and another company's contract refused.
    const info = (await as('requester', 'GET', `${BASE}/contratocontratistainfo?IdContrato=${contract}`)).body
      .result;
    expect(info).toMatchObject({ IdContrato: contract, Division: SOUTH });
    expect(info.CompaniaContratista).toBeTruthy();
    expect(
      (await as('requester', 'GET', `${BASE}/contratocontratistainfo?IdContrato=${northContract}`)).status,
    ).toBe(404);

    // One company's requests (the grid under the company grid), and its Excel.
    const summary = (await as('authoriser', 'GET', `${BASE}/filtrarcompaniaresumen?IdEntidad=T`)).body.result;
    const company = summary.data.find((c: Json) => c.Total > 0).IdCompaniaContratista;
    const detailRows = (
      await as('authoriser', 'GET', `${BASE}/filtrarcompaniadetalle?IdCompaniaContratista=${company}&take=50`)
    ).body.result;
    expect(detailRows.totalCount).toBeGreaterThan(0);
    for (const row of detailRows.data) expect(row.EstadoAprobacion).not.toBe('I');
    expect((await as('authoriser', 'GET', `${BASE}/filtrarcompaniadetalle`)).status).toBe(400);
    const sorted = (
      await as(
        'authoriser',
        'GET',
        `${BASE}/filtrarcompaniaresumen?sort=${encodeURIComponent('[{"selector":"Total","desc":true}]')}`,
      )
    ).body.result.data;
    expect(sorted.map((c: Json) => c.Total)).toEqual(
      [...sorted.map((c: Json) => c.Total)].sort((a, b) => b - a),
    );
    const excel = (
      await as('authoriser', 'POST', `${BASE}/exportarExcelSolicitudPersonas`, {
        IdEntidad: 'T',
        Titulo: 'Personas',
      })
    ).body.result;
    expect(excel.fileName).toMatch(/\.xlsx$/);
    expect(Buffer.from(excel.fileBase64, 'base64').subarray(0, 2).toString()).toBe('PK');

    // A worker's file and photo, and a vehicle's file, downloaded by who may see them.
    const id = (
      await as(
        'requester',
        'GET',
        `${BASE}/filtrar?take=1&filter=${encodeURIComponent(JSON.stringify(['Documento', 'contains', '70112233']))}`,
      )
    ).body.result.data[0].IdSolicitud;
    const [items] = await detail(id);
    const withFile = items.find((i: Json) => i.TieneArchivo === 'S');
    for (const who of ['requester', 'authoriser']) {
      const file = (
        await as(
          who,
          'GET',
          `/api/acreditacionsolicituddetalle/downloadFileBase64?IdSolicitud=${id}&IdFile=${withFile.IdSecuencial}`,
        )
      ).body.result;
      expect(Buffer.from(file.file, 'base64').subarray(0, 5).toString()).toBe('%PDF-');
    }
    expect(
      (
        await as(
          'requesterNorth',
          'GET',
          `/api/acreditacionsolicituddetalle/downloadFileBase64?IdSolicitud=${id}&IdFile=${withFile.IdSecuencial}`,
        )
      ).status,
    ).toBe(404);
    const photo = (await as('authoriser', 'GET', `${BASE}/descargarfoto?IdSolicitud=${id}`)).body.result;
    expect(Buffer.from(photo.file, 'base64').equals(png(150, 160))).toBe(true);
    const vehicleRequest = (
      await as('requester', 'GET', `${BASE}/filtrar?take=1&IdEntidad=V&EstadoAprobacion=A`)
    ).body.result.data[0].IdSolicitud;
    const [vehicleItems] = (
      await as(
        'authoriser',
        'GET',
        `/api/acreditacionsolicitudvehiculodetalle/obtenerbyautorizador?IdSolicitud=${vehicleRequest}`,
      )
    ).body.result;
    const vehicleFile = vehicleItems.find((i: Json) => i.TieneArchivo === 'S');
    expect(
      (
        await as(
          'requester',
          'GET',
          `/api/acreditacionsolicitudvehiculodetalle/downloadFileBase64?IdSolicitud=${vehicleRequest}&IdFile=${vehicleFile.IdSecuencial}`,
        )
      ).status,
    ).toBe(200);

    // A visitor's lines: values, a file, and after an observation, the corrected file.
    const visit = await as('requester', 'POST', `${BASE}/crearsolicitante`, {
      IdEntidad: 'P',
      IdContrato: contract,
      IdPerfilAcreditacion: cat.visit,
      FechaInicio: today,
      FechaFin: addDays(today, 1),
      MotivoVisita: 'Inspección de equipos',
      Visitantes: [
        { IdTipoDocumento: cat.dni, Documento: '41234999', Apellido: 'Vega Luna', Nombre: 'Rita' },
      ],
    });
    const pid = visit.body.result.IdSolicitud;
    const [visitorId] = (
      await as('requester', 'GET', `${BASE}/obtenersolicitud?IdSolicitud=${pid}`)
    ).body.result.Visitantes.map((v: Json) => v.IdVisitaPersona);
    const [visitItems, , , lists] = await detail(pid);
    const values = await as(
      'requester',
      'PUT',
      '/api/acreditacionvisitapersonadetalle/actualizarrequisitos',
      {
        IdSolicitud: pid,
        IdVisitaPersona: visitorId,
        Detalle: JSON.stringify(valuesFor(visitItems, lists, expiry)),
      },
    );
    expect(values.status, JSON.stringify(values.body)).toBe(200);
    for (const item of visitItems.filter((i: Json) => i.AdjuntarArchivo === 'S' && i.TipoRequisito === 'S')) {
      const res = await upload(
        w.app,
        tokens.requester,
        '/api/acreditacionvisitapersonadetalle/actualizararchivo',
        { IdSolicitud: pid, IdVisitaPersona: visitorId, IdDatoEvaluar: item.IdDatoEvaluar },
        { name: 'dni.pdf', bytes: pdf('DNI') },
        'PUT',
      );
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }
    expect(
      (await as('requester', 'POST', `${BASE}/cerrarsolicitud`, { IdSolicitud: pid })).body.result
        .EstadoAprobacion,
    ).toBe('P');
    const [toEvaluate] = await detail(pid, 'authoriser');
    const line = toEvaluate.find((i: Json) => i.Aprobar === 'S' && i.AdjuntarArchivo === 'S');
    await as('authoriser', 'POST', `${BASE}/actualizarsolicitanteautorizador`, {
      IdSolicitud: pid,
      Accion: 'OBSERVAR',
      Detalle: [{ IdDetalle: line.IdSecuencial, EstadoAprobacion: 'O', Observacion: 'Documento vencido' }],
    });
    const fixed = await upload(
      w.app,
      tokens.requester,
      '/api/acreditacionvisitapersonadetalle/actualizarobservado',
      { IdSolicitud: pid, IdVisitaPersona: visitorId, IdDatoEvaluar: line.IdDatoEvaluar },
      { name: 'dni-vigente.pdf', bytes: pdf('DNI VIGENTE') },
      'PUT',
    );
    expect(fixed.status, JSON.stringify(fixed.body)).toBe(200);
    const [again] = await detail(pid);
    expect(again.find((i: Json) => i.IdSecuencial === line.IdSecuencial)).toMatchObject({
      EstadoAprobacion: 'P',
      NombreArchivo: 'dni-vigente.pdf',
    });
    const visitorFile = (
      await as(
        'authoriser',
        'GET',
        `/api/acreditacionvisitapersonadetalle/downloadFileBase64?IdSolicitud=${pid}&IdFile=${line.IdSecuencial}`,
      )
    ).body.result;
    expect(visitorFile.name).toBe('dni-vigente.pdf');
  });

  it('rejects with a reason and the indiscipline flag; returns with a reason', async () => {
    const id = (await as('requester', 'POST', `${BASE}/crearsolicitante`, worker('70112240'))).body.result
      .IdSolicitud;
    await complete(id);
    await as('requester', 'POST', `${BASE}/cerrarsolicitud`, { IdSolicitud: id });
    const bare = await as('authoriser', 'POST', `${BASE}/actualizarsolicitanteautorizador`, {
      IdSolicitud: id,
      Accion: 'RECHAZAR',
    });
    expect(bare.status).toBe(409);
    expect(bare.body.messageKey).toBe('accreditation.refusals.cannotReject');
    const notYet = await as('authoriser', 'POST', `${BASE}/actualizarsolicitanteautorizador`, {
      IdSolicitud: id,
      Accion: 'APROBAR',
    });
    expect(notYet.status).toBe(400);
    expect(notYet.body.messageKey).toBe('ACCREDITATION.MESSAGE.APPROVALSTATUS');
    const rejected = await as('authoriser', 'POST', `${BASE}/actualizarsolicitanteautorizador`, {
      IdSolicitud: id,
      Accion: 'RECHAZAR',
      MotivoRechazo: 'Incidente de conducta en obra',
      IndisciplinaRechazo: 'S',
    });
    expect(rejected.body.result.EstadoAprobacion).toBe('R');
    const record = (await as('requester', 'GET', `${BASE}/obtenersolicitud?IdSolicitud=${id}`)).body.result;
    expect(record).toMatchObject({
      IndisciplinaRechazo: 'S',
      MotivoRechazo: 'INCIDENTE DE CONDUCTA EN OBRA',
    });
    expect(
      (
        await as('authoriser', 'POST', `${BASE}/actualizarsolicitanteautorizador`, {
          IdSolicitud: id,
          Accion: 'APROBAR',
        })
      ).status,
    ).toBe(409);
  });
  it('keeps the dashboard counters equal to a count of the requests, whatever ran at once', async () => {
    // Requests made, sent and deleted side by side: each moves its counter in its own transaction.
    const made = await Promise.all(
      ['70112251', '70112252', '70112253', '70112254'].map((doc) =>
        as('requester', 'POST', `${BASE}/crearsolicitante`, worker(doc)),
      ),
    );
    for (const res of made) expect(res.status, JSON.stringify(res.body)).toBe(200);
    const ids = made.map((res) => res.body.result.IdSolicitud as number);
    await Promise.all(ids.slice(0, 2).map((id) => complete(id)));
    await Promise.all([
      ...ids.slice(0, 2).map((id) => as('requester', 'POST', `${BASE}/cerrarsolicitud`, { IdSolicitud: id })),
      as('requester', 'DELETE', `${BASE}/eliminar?IdSolicitud=${ids[3]}`),
    ]);
    const db = w.t.db.database.db;
    const counters = (await db
      .selectFrom(w.registry.require('request-count').table)
      .select([
        'IdDivision',
        'IdCompania',
        'Mes',
        'TipoSolicitud',
        'IdEntidad',
        'EstadoAprobacion',
        'Cantidad',
      ])
      .where('Cantidad', '>', 0)
      .execute()) as Json[];
    const requests = (await db
      .selectFrom(w.registry.require('request').table)
      .select([
        'IdDivision',
        'IdCompania',
        'FechaSolicitud',
        'TipoSolicitud',
        'IdEntidad',
        'EstadoAprobacion',
      ])
      .execute()) as Json[];
    const counted = new Map<string, number>();
    for (const r of requests) {
      const key = [
        r.IdDivision,
        r.IdCompania,
        new Date(r.FechaSolicitud).toISOString().slice(0, 7),
        r.TipoSolicitud,
        r.IdEntidad,
        r.EstadoAprobacion,
      ].join('|');
      counted.set(key, (counted.get(key) ?? 0) + 1);
    }
    const kept = new Map(
      counters.map((c) => [
        [c.IdDivision, c.IdCompania, c.Mes, c.TipoSolicitud, c.IdEntidad, c.EstadoAprobacion].join('|'),
        Number(c.Cantidad),
      ]),
    );
    expect(Object.fromEntries(kept)).toEqual(Object.fromEntries(counted));
    expect(requests.length).toBeGreaterThan(50);
  });
});
