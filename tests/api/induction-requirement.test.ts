import { describe, expect, it } from 'vitest';
import { EXPIRY_JOB, ExpiryJob } from '../../src/server/features/accreditation/expiry.js';
import { endSourcedRequirements } from '../../src/server/services/sourced-requirements.js';
import { addDays, siteDate } from '../../src/shared/dates.js';
import { catalogue, pdf, upload, valuesFor } from '../support/accreditation.js';
import { DIALECTS } from '../support/databases.js';
import { CONTRACTOR_CAST, world } from '../support/world.js';

// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON
type Json = any;
const SOUTH = 'UNIDAD MINERA SAN GABRIEL';
const BASE = '/api/acreditacionsolicitud';
const INDUCTION = 'INDUCCIÓN DE SEGURIDAD ANEXO 4';

/**
 * Part 5 of the Inductions module: the accreditation requirement bound to a course is filled and
 * approved by the system from the worker's valid induction record (only a valid one of a bound
 * course, the worker's own), the granted accreditation keeps the record's last valid day as the
 * requirement's expiry, the daily job suspends after it with the usual notice, and a record
 * revoked later ends what it proved through endSourcedRequirements.
 */
describe.each(DIALECTS)('a requirement proven by an induction on %s', (dialect) => {
  const today = siteDate('PE');
  const ids = { contract: 0, requirement: 0, client: 0, division: 0, bound: 0, other: 0 };
  let cat: Awaited<ReturnType<typeof catalogue>>;
  const w = world(dialect, {
    users: CONTRACTOR_CAST,
    division: SOUTH,
    ready: async () => {
      cat = await catalogue(w.app, w.tokens.admin);
      ids.contract = (await cat.list('contract')).find(
        (c: Json) => c.NumeroContrato === 'CT-2026-001',
      ).IdContrato;
      ids.requirement = (await cat.list('requirement')).find(
        (r: Json) => r.Requisito === INDUCTION,
      ).IdRequisito;
      const division = (await w
        .db()
        .selectFrom(w.table('division'))
        .select(['IdDivision', 'IdCliente'])
        .where('Division', '=', SOUTH)
        .executeTakeFirstOrThrow()) as Json;
      Object.assign(ids, { client: division.IdCliente, division: division.IdDivision });
      ids.bound = await course('TST-IND', ids.requirement);
      ids.other = await course('TST-OTR', null);
    },
  });
  const db = () => w.db();

  /** A course of the south division's catalogue, bound to `requirement` (or to none). */
  async function course(code: string, requirement: number | null): Promise<number> {
    const row = await db()
      .insertInto(w.table('course'))
      .values({
        IdCliente: ids.client,
        IdDivision: ids.division,
        Codigo: code,
        Nombre: `CURSO ${code}`,
        NombreIngles: `COURSE ${code}`,
        Tipo: 'E',
        Modalidad: 'P',
        Idiomas: 'ES',
        Horas: 8,
        NotaMinima: 70,
        VigenciaMeses: 12,
        PreguntasPrueba: 10,
        IdRequisito: requirement,
        Activo: 'S',
        IdUsuarioCreacion: 'ADMIN',
        FechaCreacion: new Date().toISOString(),
      })
      .returning('IdCurso')
      .executeTakeFirstOrThrow();
    return Number(row.IdCurso);
  }

  /** A person's induction record of a course: passed `days` ago, valid until `until`, valid or revoked. */
  async function record(person: number, courseId: number, days: number, until: string, state = 'V') {
    const holder = (await db()
      .selectFrom(w.table('person'))
      .select('IdCompania')
      .where('IdPersona', '=', person)
      .executeTakeFirstOrThrow()) as Json;
    const row = await db()
      .insertInto(w.table('induction-record'))
      .values({
        IdCliente: ids.client,
        IdDivision: ids.division,
        IdPersona: person,
        IdCompania: holder.IdCompania,
        IdCurso: courseId,
        Fecha: addDays(today, -days),
        Nota: 87,
        VenceEl: until,
        Modalidad: 'P',
        IdInstructor: 'INDUCCION',
        Estado: state,
        IdUsuarioCreacion: 'INDUCCION',
        FechaCreacion: new Date().toISOString(),
      })
      .returning('IdRegistro')
      .executeTakeFirstOrThrow();
    return Number(row.IdRegistro);
  }

  const setState = (id: number, Estado: string) =>
    db().updateTable(w.table('induction-record')).set({ Estado }).where('IdRegistro', '=', id).execute();

  /** A worker's mobilisation filed by SOLICITANTE on CT-2026-001: its id and the worker's. */
  async function file(document: string) {
    const made = await w.as('requester', 'POST', `${BASE}/crearsolicitante`, {
      IdEntidad: 'T',
      IdContrato: ids.contract,
      IdPerfilAcreditacion: cat.worker,
      FechaInicio: today,
      FechaFin: addDays(today, 120),
      IdTipoDocumento: cat.dni,
      Documento: document,
      Apellido: 'Condori Mamani',
      Nombre: 'Rosa Elena',
      Sexo: 'F',
      FechaNacimiento: '1991-02-11',
      IdPaisNacimiento: 'PE',
      IdPaisResidencia: 'PE',
      TelefonoMovil: '987321654',
    });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    return { id: made.body.result.IdSolicitud as number, person: made.body.result.IdPersona as number };
  }

  /** The request's items as `who` reads them: every line, the requester's and the authoriser's. */
  async function items(id: number, who = 'requester') {
    const call = who === 'requester' ? 'obtener' : 'obtenerbyautorizador';
    const read = await w.as(who, 'GET', `/api/acreditacionsolicituddetalle/${call}?IdSolicitud=${id}`);
    expect(read.status, JSON.stringify(read.body)).toBe(200);
    const [mine, theirs, , lists] = read.body.result as Json[][];
    return { all: [...mine, ...theirs] as Json[], mine, lists };
  }
  const inductionItems = async (id: number, who = 'requester') =>
    (await items(id, who)).all.filter((i) => i.IdRequisito === ids.requirement);

  /** Saved with every requester value and file, as the requester's screen does. */
  async function complete(id: number) {
    const { mine, lists } = await items(id);
    const saved = await w.as('requester', 'POST', `${BASE}/actualizarsolicitante`, {
      IdSolicitud: id,
      Detalle: JSON.stringify(valuesFor(mine, lists, addDays(today, 200).replaceAll('-', ''))),
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    for (const item of mine.filter((i: Json) => i.AdjuntarArchivo === 'S' && i.TipoRequisito === 'S')) {
      const fields = { IdSolicitud: id, IdDatoEvaluar: item.IdDatoEvaluar };
      const file = { name: 'constancia.pdf', bytes: pdf(item.Requisito), type: 'application/pdf' };
      const res = await upload(w.app, w.tokens.requester, `${BASE}/UploadSolicitanteArchivo`, fields, file);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }
  }

  const send = async (id: number) => {
    const sent = await w.as('requester', 'POST', `${BASE}/cerrarsolicitud`, { IdSolicitud: id });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
  };

  /** The authoriser approves every other line it evaluates and the request: never the induction's. */
  async function approve(id: number) {
    const { all } = await items(id, 'authoriser');
    const open = (type: string) =>
      all
        .filter((i) => i.TipoRequisito === type && i.Aprobar === 'S' && i.IdRequisito !== ids.requirement)
        .map((i) => ({
          IdDetalle: i.IdSecuencial,
          EstadoAprobacion: 'A',
          Valor: type === 'A' ? 'APTO' : undefined,
        }));
    for (const [type, Accion] of [['S'], ['A', 'APROBAR']]) {
      const res = await w.as('authoriser', 'POST', `${BASE}/actualizarsolicitanteautorizador`, {
        IdSolicitud: id,
        Accion,
        Detalle: open(type),
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }
  }

  /** A worker accredited with a valid induction record of the bound course, passed 10 days ago. */
  async function accredited(document: string, until: string) {
    const made = await file(document);
    const proof = await record(made.person, ids.bound, 10, until);
    await complete(made.id);
    await send(made.id);
    await approve(made.id);
    return { ...made, proof };
  }

  /** What the worker keeps of the induction requirement. */
  const kept = async (person: number) =>
    (await db()
      .selectFrom(w.table('accredited-requirement'))
      .selectAll()
      .where('IdPersona', '=', person)
      .where('IdRequisito', '=', ids.requirement)
      .execute()) as Json[];

  const accreditation = async (person: number) =>
    (await db()
      .selectFrom(w.table('accreditation'))
      .select(['IdAcreditacion', 'Estado'])
      .where('IdPersona', '=', person)
      .executeTakeFirstOrThrow()) as Json;

  /** The daily job on `day` at noon at the site, whatever day it last ran. */
  async function runJob(day: string) {
    await db().deleteFrom(w.table('job-lease')).where('Trabajo', '=', EXPIRY_JOB).execute();
    const clock = () => Date.parse(`${day}T17:00:00Z`);
    return new ExpiryJob(
      w.t.db.database,
      w.registry,
      w.app.notifier,
      w.app.events,
      clock,
      'induccion',
    ).runOnce();
  }

  /** The worker's other kept values far off, so that only the induction can expire. */
  const onlyInductionExpires = (person: number) =>
    db()
      .updateTable(w.table('accredited-requirement'))
      .set({ FechaVencimiento: addDays(today, 3000) })
      .where('IdPersona', '=', person)
      .where('IdRequisito', '<>', ids.requirement)
      .execute();

  const expiredMails = (document: string) =>
    w.t.mail.filter(
      (m) => m.subject.includes(`Requisito vencido: ${INDUCTION}`) && m.text.includes(`(${document})`),
    );

  it('proves the line when the request is sent, for a worker who passed after the lines were saved', async () => {
    const { id, person } = await file('71800009');
    await complete(id);
    expect((await inductionItems(id)).every((i) => i.Fuente === null)).toBe(true);
    const proof = await record(person, ids.bound, 1, addDays(today, 300));
    await send(id);
    const seen = await inductionItems(id, 'authoriser');
    expect(seen.length).toBeGreaterThan(0);
    for (const item of seen)
      expect(item).toMatchObject({
        Fuente: 'induction',
        EnlaceFuente: `/api/induccion/registros/${proof}/certificado`,
      });
    expect(seen.find((i) => i.Text === 'RESULTADO')).toMatchObject({ EstadoAprobacion: 'A' });
  });

  it('fills and approves the line from a valid record of a bound course only, and the grant keeps its expiry', async () => {
    const { id, person } = await file('71800001');
    const other = (await db()
      .selectFrom(w.table('person'))
      .select('IdPersona')
      .where('IdPersona', '<>', person)
      .executeTakeFirstOrThrow()) as Json;
    const until = addDays(today, 100);
    // None of these proves it: revoked, expired, another course's, another person's.
    await record(person, ids.bound, 30, until, 'R');
    await record(person, ids.bound, 400, addDays(today, -1));
    await record(person, ids.other, 20, until);
    await record(other.IdPersona, ids.bound, 20, until);
    await complete(id);
    for (const item of await inductionItems(id)) {
      expect(item.Fuente, item.Text).toBeNull();
      if (item.Aprobar === 'S') expect(item.EstadoAprobacion).toBe('P');
    }

    // A valid record of the bound course: saved again, its lines are filled and approved.
    const proof = await record(person, ids.bound, 10, until);
    await complete(id);
    const proven = await inductionItems(id);
    expect(proven.length).toBeGreaterThan(0);
    for (const item of proven) {
      expect(item).toMatchObject({ Fuente: 'induction', readOnly: true });
      expect(item.EnlaceFuente).toBe(`/api/induccion/registros/${proof}/certificado`);
      expect(JSON.parse(item.DetalleFuente)).toMatchObject({
        course: 'TST-IND CURSO TST-IND',
        score: 87,
        record: proof,
      });
    }
    const byText = (text: string) => proven.find((i) => i.Text === text);
    expect(byText('FECHA DE INDUCCIÓN').Value).toBe(addDays(today, -10));
    expect(byText('INSTRUCTOR').Value).toBeTruthy();
    expect(byText('RESULTADO')).toMatchObject({ EstadoAprobacion: 'A', IdUsuarioAprobacion: 'SISTEMA' });
    const lines = (await db()
      .selectFrom(w.table('request-detail'))
      .select(['FechaVencimiento', 'ReferenciaFuente'])
      .where('IdSolicitud', '=', id)
      .where('IdRequisito', '=', ids.requirement)
      .execute()) as Json[];
    expect(lines.every((l) => l.FechaVencimiento === until && l.ReferenciaFuente === String(proof))).toBe(
      true,
    );

    // Revoked before sending: saved again, the lines are released; valid again, proven again.
    await setState(proof, 'R');
    await complete(id);
    expect((await inductionItems(id)).find((i) => i.Aprobar === 'S')).toMatchObject({
      Fuente: null,
      EstadoAprobacion: 'P',
    });
    await setState(proof, 'V');
    await complete(id);

    // Sent: the authoriser sees where it came from, and grants the request without touching it.
    await send(id);
    const seen = await inductionItems(id, 'authoriser');
    expect(seen.every((i) => i.Fuente === 'induction' && i.DetalleFuente)).toBe(true);
    await approve(id);
    expect((await accreditation(person)).Estado).toBe('A');
    const values = await kept(person);
    expect(values.length).toBe(proven.length);
    for (const value of values)
      expect(value).toMatchObject({
        FechaVencimiento: until,
        Fuente: 'induction',
        ReferenciaFuente: String(proof),
      });
  });

  it('suspends the accreditation after the record’s last valid day, with the expiry notice', async () => {
    const until = addDays(today, 60);
    const { person } = await accredited('71800002', until);
    await onlyInductionExpires(person);
    const { IdAcreditacion } = await accreditation(person);
    await runJob(until);
    expect((await accreditation(person)).Estado).toBe('A');
    expect(expiredMails('71800002')).toEqual([]);

    const run = await runJob(addDays(until, 1));
    expect(run.suspended).toBeGreaterThan(0);
    expect((await accreditation(person)).Estado).toBe('S');
    const notices = (await db()
      .selectFrom(w.table('expiry-notice'))
      .select(['Umbral', 'FechaVencimiento'])
      .where(
        'IdRequisitoAcreditado',
        'in',
        (await kept(person)).map((k) => k.IdRequisitoAcreditado),
      )
      .execute()) as Json[];
    expect(notices).toContainEqual({ Umbral: 0, FechaVencimiento: until });
    const mails = expiredMails('71800002');
    expect(mails.length).toBeGreaterThan(0);
    expect(mails[0].text).toMatch(/suspendida/);
    const events = (await db()
      .selectFrom(w.table('accreditation-event'))
      .select('Tipo')
      .where('IdAcreditacion', '=', IdAcreditacion)
      .execute()) as Json[];
    expect(events.map((e) => e.Tipo)).toContain('suspended');
  });

  it('ends what a revoked record proved: the kept value and a pending request’s line expire, and the job suspends', async () => {
    const until = addDays(today, 300);
    const granted = await accredited('71800003', until);
    await onlyInductionExpires(granted.person);
    // A second worker's request waits for the authoriser, its induction line proven.
    const pending = await file('71800004');
    const pendingProof = await record(pending.person, ids.bound, 5, until);
    await complete(pending.id);
    await send(pending.id);

    // An administrator changes both results to a fail: the records revoked, the service told, today.
    const ended = await db()
      .transaction()
      .execute(async (trx) => {
        let count = 0;
        for (const ref of [granted.proof, pendingProof]) {
          await trx
            .updateTable(w.table('induction-record'))
            .set({ Estado: 'R' })
            .where('IdRegistro', '=', ref)
            .execute();
          count += await endSourcedRequirements(trx, w.registry, { source: 'induction', ref, on: today });
        }
        return count;
      });
    const values = await kept(granted.person);
    expect(ended).toBe(values.length);
    expect(values.every((v) => v.FechaVencimiento === addDays(today, -1))).toBe(true);

    // The pending request approved afterwards keeps the ended expiry.
    await approve(pending.id);
    await onlyInductionExpires(pending.person);
    expect((await kept(pending.person)).every((v) => v.FechaVencimiento === addDays(today, -1))).toBe(true);

    await runJob(addDays(today, 1));
    expect((await accreditation(granted.person)).Estado).toBe('S');
    expect((await accreditation(pending.person)).Estado).toBe('S');
    expect(expiredMails('71800003').length).toBeGreaterThan(0);
  });
});
