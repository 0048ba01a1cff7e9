import { sign } from 'node:crypto';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { certificateToken } from '../../src/server/features/induction/certificate.js';
import { signingKeys } from '../../src/server/services/site/signing-keys.js';
import { claimsBytes, tokenOf } from '../../src/shared/badge-token.js';
import { addDays, siteDate } from '../../src/shared/dates.js';
import { validUntil } from '../../src/shared/induction.js';
import { anotherClientAdmin, mailboxes, menuIdOf } from '../support/app.js';
import { testClock } from '../support/auth.js';
import { DIALECTS } from '../support/databases.js';
import { accreditCrew } from '../support/lodging.js';
import { world } from '../support/world.js';

// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON
type Json = any;
const SOUTH = 'UNIDAD MINERA SAN GABRIEL';

describe.each(DIALECTS)('inductions on %s', (dialect) => {
  const today = siteDate('PE');
  const clock = testClock(Date.parse(`${today}T12:00:00-05:00`));
  let crew: { people: number[] };
  let others: { people: number[] };
  let south: number;
  const w = world(dialect, {
    users: { trainer: 'INDUCCION', requester: 'SOLICITANTE', admin: 'ADMIN', authoriser: 'AUTORIZADOR' },
    division: SOUTH,
    auth: { now: clock.now },
    ready: async (w) => {
      south = Number(
        (
          (await w
            .db()
            .selectFrom('system_division')
            .select('IdDivision')
            .where('Division', '=', SOUTH)
            .executeTakeFirstOrThrow()) as Json
        ).IdDivision,
      );
      crew = await accreditCrew(w.db(), {
        company: 'SERMIPAC',
        division: south,
        count: 60,
        prefix: 'IN',
        today,
      });
      others = await accreditCrew(w.db(), {
        company: 'TRANSALTI',
        division: south,
        count: 1,
        prefix: 'IO',
        today,
      });
    },
  });
  const courseId = async (code: string) =>
    Number(
      (
        (await w
          .db()
          .selectFrom(w.table('course'))
          .select('IdCurso')
          .where('Codigo', '=', code)
          .where('IdDivision', '=', south)
          .executeTakeFirstOrThrow()) as Json
      ).IdCurso,
    );
  const newSession = async (code: string, fields: Record<string, unknown> = {}) => {
    const made = await w.as('trainer', 'POST', '/api/rest/training-session', {
      IdCurso: await courseId(code),
      Fecha: today,
      HoraInicio: '08:00',
      HoraFin: '17:00',
      Sala: 'SALA DE PRUEBAS',
      Capacidad: 30,
      IdInstructor: 'INDUCCION',
      Idioma: 'ES',
      ...fields,
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    return Number(made.body.IdSesion ?? made.body.id);
  };
  const book = (session: number, people: number[], who = 'requester') =>
    w.as(who, 'POST', `/api/induccion/sesiones/${session}/reservas`, { IdPersonas: people });
  const sessionRow = async (id: number) =>
    (await w
      .db()
      .selectFrom(w.table('training-session'))
      .selectAll()
      .where('IdSesion', '=', id)
      .executeTakeFirstOrThrow()) as Json;

  it('refuses a session in the past or of no capacity, with the field’s message, and writes nothing', async () => {
    const before = await w.count('training-session');
    const past = await w.as('trainer', 'POST', '/api/rest/training-session', {
      IdCurso: await courseId('IND-GEN'),
      Fecha: addDays(today, -1),
      HoraInicio: '08:00',
      HoraFin: '17:00',
      Sala: 'SALA 1',
      Capacidad: 10,
      IdInstructor: 'INDUCCION',
      Idioma: 'ES',
    });
    expect(past.status).toBe(400);
    expect(JSON.stringify(past.body)).toContain('past');
    const empty = await w.as('trainer', 'POST', '/api/rest/training-session', {
      IdCurso: await courseId('IND-GEN'),
      Fecha: today,
      HoraInicio: '08:00',
      HoraFin: '17:00',
      Sala: 'SALA 1',
      Capacidad: 0,
      IdInstructor: 'INDUCCION',
      Idioma: 'ES',
    });
    expect(empty.status).toBe(400);
    expect(JSON.stringify(empty.body)).toContain('between 1 and 500');
    expect(await w.count('training-session')).toBe(before);
  });

  it('answers bad input with a clear 4xx, never a 5xx, and writes nothing', async () => {
    const session = await newSession('IND-ECF', { Fecha: addDays(today, 20) });
    const bookings = await w.count('training-booking');
    const probes: Array<[string, string, string, object | undefined]> = [
      ['requester', 'POST', `/api/induccion/sesiones/${session}/reservas`, { IdPersonas: [] }],
      ['requester', 'POST', `/api/induccion/sesiones/${session}/reservas`, { IdPersonas: ['uno'] }],
      ['requester', 'POST', `/api/induccion/sesiones/${session}/reservas`, { IdPersonas: [99999999] }],
      ['requester', 'POST', '/api/induccion/sesiones/99999999/reservas', { IdPersonas: [crew.people[58]] }],
      [
        'requester',
        'POST',
        `/api/induccion/sesiones/${session}/reservas`,
        { IdPersonas: [crew.people[58], crew.people[58]] },
      ],
      ['trainer', 'POST', `/api/induccion/sesiones/${session}/asistencia`, { codigo: 'AC1.xx.yy' }],
      ['trainer', 'POST', `/api/induccion/sesiones/${session}/asistencia`, { codigo: 'X'.repeat(1001) }],
      [
        'trainer',
        'PUT',
        `/api/induccion/sesiones/${session}/resultados`,
        { resultados: [{ IdInscripcion: 1, Asistio: 'Q' }] },
      ],
      [
        'trainer',
        'PUT',
        `/api/induccion/sesiones/${session}/resultados`,
        { resultados: [{ IdInscripcion: 99999999, Asistio: 'S', Nota: 50 }] },
      ],
      ['trainer', 'POST', `/api/induccion/sesiones/${session}/cerrar`, undefined],
      ['trainer', 'POST', `/api/induccion/sesiones/${session}/cancelar`, { Motivo: '' }],
      [
        'admin',
        'PUT',
        '/api/induccion/reservas/99999999/resultado',
        { Asistio: 'S', Nota: 50, Motivo: 'PRUEBA' },
      ],
      ['trainer', 'GET', '/api/induccion/reporte?desde=2026-13-01&hasta=2026-12-01', undefined],
      ['trainer', 'GET', `/api/induccion/reporte?desde=${addDays(today, -400)}&hasta=${today}`, undefined],
      ['trainer', 'GET', '/api/induccion/registros/99999999/certificado', undefined],
      ['requester', 'GET', '/api/induccion/candidatos?IdContrato=abc', undefined],
      ['requester', 'GET', '/api/induccion/reservas/99999999/enlace', undefined],
    ];
    for (const [who, method, url, payload] of probes) {
      const answer = await w.as(who, method as 'GET', url, payload);
      expect(answer.status, `${method} ${url}: ${JSON.stringify(answer.body)}`).toBeGreaterThanOrEqual(400);
      expect(answer.status, `${method} ${url}`).toBeLessThan(500);
      expect(answer.body.message, `${method} ${url}`).toEqual(expect.any(String));
    }
    for (const token of ['xyz', '1.abc', '99999999.aaaa.bbbb.cccc']) {
      const sheet = await w.t.app.inject({ method: 'GET', url: `/api/induccion/prueba/${token}` });
      expect(sheet.statusCode, token).toBe(404);
    }
    const garbage = await w.as('trainer', 'POST', '/api/induccion/verificar', { token: 'IN1.!!.??' });
    expect(garbage.body.result).toMatchObject({ genuine: false });
    expect(await w.count('training-booking')).toBe(bookings);
    expect((await sessionRow(session)).Estado).toBe('P');
  });

  it('holds the capacity under concurrency: 50 bookings for the last 5 seats, exactly 5 succeed', async () => {
    const session = await newSession('IND-ECF', { Capacidad: 5 });
    const answers = await Promise.all(crew.people.slice(0, 50).map((p) => book(session, [p])));
    const ok = answers.filter((a) => a.status === 200);
    expect(ok).toHaveLength(5);
    for (const a of answers.filter((x) => x.status !== 200)) {
      expect(a.status).toBe(409);
      expect(a.body.message).toMatch(/seat/i);
    }
    expect(Number((await sessionRow(session)).Reservados)).toBe(5);
    expect(await w.count('training-booking', { IdSesion: session })).toBe(5);
  });

  it('books only the requester’s own accredited workers, once per course, all or none', async () => {
    const session = await newSession('IND-ALT');
    const foreign = await book(session, [crew.people[50], others.people[0]]);
    expect(foreign.status).toBe(400);
    expect(await w.count('training-booking', { IdSesion: session })).toBe(0);
    expect((await book(session, [crew.people[50]])).status).toBe(200);
    const again = await book(await newSession('IND-ALT'), [crew.people[50]]);
    expect(again.status).toBe(409);
    expect(again.body.message).toMatch(/already booked/i);
    // The trainer books anyone's accredited worker.
    expect((await book(session, [others.people[0]], 'trainer')).status).toBe(200);
    // The requester sees only its company's bookings of the session.
    const seen = await w.as('requester', 'GET', `/api/induccion/sesiones/${session}`);
    expect(seen.body.result.reservas.map((r: Json) => r.IdPersona)).toEqual([crew.people[50]]);
    // Another company's booking is not the requester's to cancel, nor listed among its people's.
    const theirs = (
      await w.as('trainer', 'GET', `/api/induccion/sesiones/${session}`)
    ).body.result.reservas.find((r: Json) => r.IdPersona === others.people[0]);
    expect(
      (await w.as('requester', 'DELETE', `/api/induccion/reservas/${theirs.IdInscripcion}`)).status,
    ).toBe(404);
    const people = (await w.as('requester', 'GET', '/api/induccion/personal')).body.result;
    expect(people.reservas.some((r: Json) => r.IdPersona === others.people[0])).toBe(false);
    expect(people.reservas.some((r: Json) => r.IdPersona === crew.people[50])).toBe(true);
  });

  it('marks attendance by a badge’s QR or a document, scores, closes; passing records the induction, failing frees a new booking', async () => {
    const session = await newSession('IND-PLA');
    const [a, b, c] = crew.people.slice(51, 54);
    expect((await book(session, [a, b, c])).status).toBe(200);
    const keys = await signingKeys(w.db());
    const claims = {
      IdCliente: 1,
      IdDivision: south,
      IdCredencial: 1,
      Numero: 'IN-TEST-1',
      Titular: `P:${a}`,
      Hasta: addDays(today, 30),
    };
    const token = tokenOf(claims, sign(null, claimsBytes(claims), keys.signer));
    const scanned = await w.as('trainer', 'POST', `/api/induccion/sesiones/${session}/asistencia`, {
      codigo: token,
    });
    expect(scanned.status, JSON.stringify(scanned.body)).toBe(200);
    expect(scanned.body.result.IdPersona).toBe(a);
    const forged = await w.as('trainer', 'POST', `/api/induccion/sesiones/${session}/asistencia`, {
      codigo: `${token.slice(0, -4)}AAAA`,
    });
    expect(forged.status).toBe(400);
    expect(
      (await w.as('requester', 'POST', `/api/induccion/sesiones/${session}/asistencia`, { codigo: token }))
        .status,
    ).toBe(403);
    const detail = (await w.as('trainer', 'GET', `/api/induccion/sesiones/${session}`)).body.result;
    const id = (p: number) => detail.reservas.find((r: Json) => r.IdPersona === p).IdInscripcion;
    const tooHigh = await w.as('trainer', 'PUT', `/api/induccion/sesiones/${session}/resultados`, {
      resultados: [{ IdInscripcion: id(a), Asistio: 'S', Nota: 101 }],
    });
    expect(tooHigh.status).toBe(400);
    const saved = await w.as('trainer', 'PUT', `/api/induccion/sesiones/${session}/resultados`, {
      resultados: [
        { IdInscripcion: id(a), Asistio: 'S', Nota: 85 },
        { IdInscripcion: id(b), Asistio: 'S', Nota: 40 },
        { IdInscripcion: id(c), Asistio: 'N', Nota: null },
      ],
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const closed = await w.as('trainer', 'POST', `/api/induccion/sesiones/${session}/cerrar`);
    expect(closed.body.result).toMatchObject({ aprobados: 1, desaprobados: 1, ausentes: 1 });
    const records = (await w
      .db()
      .selectFrom(w.table('induction-record'))
      .selectAll()
      .where('IdSesion', '=', session)
      .execute()) as Json[];
    expect(records.map((r) => [r.IdPersona, r.VenceEl])).toEqual([[a, validUntil(today, 12)]]);
    // Closed: the trainer can change nothing; a fail books again.
    const late = await w.as('trainer', 'PUT', `/api/induccion/sesiones/${session}/resultados`, {
      resultados: [{ IdInscripcion: id(b), Asistio: 'S', Nota: 90 }],
    });
    expect(late.status).toBe(400);
    expect(late.body.message).toMatch(/closed/i);
    expect((await book(await newSession('IND-PLA'), [b])).status).toBe(200);
    // Only an administrator changes a closed result, with the reason, audited: a pass turned fail revokes the induction.
    const byTrainer = await w.as('trainer', 'PUT', `/api/induccion/reservas/${id(a)}/resultado`, {
      Asistio: 'S',
      Nota: 50,
      Motivo: 'ERROR DE DIGITACIÓN',
    });
    expect(byTrainer.status).toBe(400);
    const byAdmin = await w.as('admin', 'PUT', `/api/induccion/reservas/${id(a)}/resultado`, {
      Asistio: 'S',
      Nota: 50,
      Motivo: 'ERROR DE DIGITACIÓN',
    });
    expect(byAdmin.status, JSON.stringify(byAdmin.body)).toBe(200);
    const revoked = (await w
      .db()
      .selectFrom(w.table('induction-record'))
      .selectAll()
      .where('IdSesion', '=', session)
      .executeTakeFirstOrThrow()) as Json;
    expect(revoked).toMatchObject({ Estado: 'R', Motivo: 'ERROR DE DIGITACIÓN' });
    expect(await w.count('audit', { Recurso: 'training-booking', IdRegistro: String(id(a)) })).toBe(1);
    // Turned back into a pass, the same day's record is valid again (one record per person, course and day).
    const back = await w.as('admin', 'PUT', `/api/induccion/reservas/${id(a)}/resultado`, {
      Asistio: 'S',
      Nota: 90,
      Motivo: 'REVISIÓN DEL EXAMEN',
    });
    expect(back.status, JSON.stringify(back.body)).toBe(200);
    expect(await w.count('induction-record', { IdPersona: a, Estado: 'V' })).toBe(1);
  });

  it('prints a certificate whose signed QR the verification call checks; another client sees nothing', async () => {
    const record = (await w
      .db()
      .selectFrom(w.table('induction-record'))
      .selectAll()
      .where('Estado', '=', 'V')
      .where('IdDivision', '=', south)
      .executeTakeFirstOrThrow()) as Json;
    const pdf = await w.as('trainer', 'GET', `/api/induccion/registros/${record.IdRegistro}/certificado`);
    expect(pdf.status).toBe(200);
    expect(Buffer.from(pdf.body.result.fileBase64, 'base64').subarray(0, 5).toString()).toBe('%PDF-');
    const token = await certificateToken(w.db(), record);
    const checked = await w.as('trainer', 'POST', '/api/induccion/verificar', { token });
    expect(checked.body.result).toMatchObject({ genuine: true, valid: true, IdRegistro: record.IdRegistro });
    const forged = await w.as('trainer', 'POST', '/api/induccion/verificar', {
      token: `${token.slice(0, -4)}AAAA`,
    });
    expect(forged.body.result).toMatchObject({ genuine: false });
    // A session of the other division is not the trainer's of this one.
    const north = (await w
      .db()
      .selectFrom(w.table('training-session'))
      .select('IdSesion')
      .where('IdDivision', '!=', south)
      .executeTakeFirstOrThrow()) as Json;
    expect((await w.as('trainer', 'GET', `/api/induccion/sesiones/${north.IdSesion}`)).status).toBe(404);
    expect((await w.as('trainer', 'POST', `/api/induccion/sesiones/${north.IdSesion}/cerrar`)).status).toBe(
      404,
    );

    // Nor are the other division's inductions: their certificates are not found, their QR said to be of another division.
    const northRecord = (await w
      .db()
      .selectFrom(w.table('induction-record'))
      .selectAll()
      .where('IdDivision', '!=', south)
      .executeTakeFirstOrThrow()) as Json;
    expect(
      (await w.as('trainer', 'GET', `/api/induccion/registros/${northRecord.IdRegistro}/certificado`)).status,
    ).toBe(404);
    const northToken = await certificateToken(w.db(), northRecord);
    const elsewhere = await w.as('trainer', 'POST', '/api/induccion/verificar', { token: northToken });
    expect(elsewhere.body.result).toMatchObject({ genuine: true, valid: false, reason: 'OTHER_DIVISION' });
    expect(elsewhere.body.result.Persona).toBeUndefined();
    const stranger = await anotherClientAdmin(w.t, [await menuIdOf(w.t, '/induccion/sesiones')]);
    const theirs = await w.t.app.inject({
      method: 'GET',
      url: `/api/induccion/registros/${record.IdRegistro}/certificado`,
      headers: { authorization: `Bearer ${stranger}` },
    });
    expect(theirs.statusCode).toBe(404);
  });

  it('reports the period per company and course with an Excel of every row, and cancels a session telling the booked', async () => {
    const report = await w.as(
      'trainer',
      'GET',
      `/api/induccion/reporte?desde=${addDays(today, -350)}&hasta=${addDays(today, 10)}`,
    );
    expect(report.status).toBe(200);
    const r = report.body.result;
    expect(r.aprobados).toBeGreaterThan(0);
    expect(r.porCompania.find((c: Json) => c.Compania === 'SERMIPAC')).toBeDefined();
    expect(r.porVencer.length).toBeGreaterThan(0);
    const excel = await w.as(
      'trainer',
      'GET',
      `/api/induccion/reporte/excel?desde=${addDays(today, -350)}&hasta=${addDays(today, 10)}`,
    );
    const book2 = new ExcelJS.Workbook();
    await book2.xlsx.load(Buffer.from(excel.body.result.fileBase64, 'base64') as never);
    expect(book2.worksheets[0].actualRowCount - 1).toBe(r.reservados);
    expect(
      (await w.as('requester', 'GET', `/api/induccion/reporte?desde=${today}&hasta=${today}`)).status,
    ).toBe(403);
    expect(
      (await w.as('trainer', 'GET', `/api/induccion/reporte?desde=${today}&hasta=${addDays(today, -1)}`))
        .status,
    ).toBe(400);

    const session = await newSession('IND-ECF', { Fecha: addDays(today, 10) });
    expect((await book(session, [crew.people[56]])).status).toBe(200);
    const before = (mailboxes.get(w.app) ?? []).length;
    const moved = await w.as('trainer', 'PUT', `/api/rest/training-session/${session}`, {
      ...(await sessionRow(session)),
      Fecha: addDays(today, 11),
      Reservados: undefined,
      Estado: undefined,
    });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    // Booked, it keeps its course, and its capacity is not below the seats taken.
    const current = { ...(await sessionRow(session)), Reservados: undefined, Estado: undefined };
    const otherCourse = await w.as('trainer', 'PUT', `/api/rest/training-session/${session}`, {
      ...current,
      IdCurso: await courseId('IND-EXP'),
    });
    expect(otherCourse.status).toBe(400);
    expect(JSON.stringify(otherCourse.body)).toContain('its course does not change');
    expect((await book(session, [crew.people[59]])).status).toBe(200);
    const smaller = await w.as('trainer', 'PUT', `/api/rest/training-session/${session}`, {
      ...current,
      Capacidad: 1,
    });
    expect(smaller.status).toBe(400);
    expect(JSON.stringify(smaller.body)).toContain('cannot be below');
    expect(Number((await sessionRow(session)).Capacidad)).toBe(30);
    const cancelled = await w.as('trainer', 'POST', `/api/induccion/sesiones/${session}/cancelar`, {
      Motivo: 'SALA EN MANTENIMIENTO',
    });
    expect(cancelled.status).toBe(200);
    const mails = (mailboxes.get(w.app) ?? []).slice(before).map((m) => m.subject);
    expect(mails.some((s) => s.includes('moved'))).toBe(true);
    expect(mails.some((s) => s.includes('cancelled'))).toBe(true);
    expect(Number((await sessionRow(session)).Reservados)).toBe(0);
    expect((await book(session, [crew.people[57]])).status).toBe(400);
  });
  it('scores an online test on the server, once an hour, and records the pass', async () => {
    const session = await newSession('IND-VIS', { HoraInicio: '00:00', HoraFin: '23:59' });
    const worker = crew.people[55];
    const booked = await book(session, [worker]);
    expect(booked.status).toBe(200);
    const mail = (mailboxes.get(w.app) ?? []).find(
      (m) => m.subject.includes('Online test') && m.text.includes('/prueba-induccion/'),
    );
    expect(mail).toBeDefined();
    const link = (
      await w.as(
        'requester',
        'GET',
        `/api/induccion/reservas/${booked.body.result.reservados[0].IdInscripcion}/enlace`,
      )
    ).body.result.enlace as string;
    const token = link.split('/prueba-induccion/')[1];
    const sheet = await w.t.app.inject({ method: 'GET', url: `/api/induccion/prueba/${token}` });
    expect(sheet.statusCode).toBe(200);
    const questions = sheet.json().result.preguntas as Json[];
    expect(questions).toHaveLength(5);
    expect(JSON.stringify(questions)).not.toContain('Correcta');
    const answer = (Respuesta: (q: Json) => string) =>
      w.t.app.inject({
        method: 'POST',
        url: `/api/induccion/prueba/${token}`,
        payload: {
          respuestas: questions.map((q) => ({ IdPregunta: q.IdPregunta, Respuesta: Respuesta(q) })),
        },
      });
    const wrong = await answer(() => 'D');
    expect(wrong.json().result).toMatchObject({ Nota: 0, aprobado: false });
    const soon = await answer(() => 'B');
    expect(soon.statusCode).toBe(429);
    clock.advance(61 * 60_000);
    const right = new Map(
      (
        (await w
          .db()
          .selectFrom(w.table('course-question'))
          .select(['IdPregunta', 'Correcta'])
          .execute()) as Json[]
      ).map((q) => [Number(q.IdPregunta), q.Correcta]),
    );
    const passed = await answer((q) => right.get(q.IdPregunta));
    expect(passed.json().result).toMatchObject({ Nota: 100, aprobado: true });
    expect(await w.count('induction-record', { IdPersona: worker, Estado: 'V' })).toBe(1);
    expect(
      (await w.t.app.inject({ method: 'GET', url: `/api/induccion/prueba/${token.slice(0, -3)}xyz` }))
        .statusCode,
    ).toBe(404);
  });
});
