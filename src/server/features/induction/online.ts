import { ATTEMPT_EVERY_MS, passes, validUntil } from '../../../shared/induction.js';
import type { Db } from '../../db/connection.js';
import { ApiError } from '../../errors.js';
import type { Registry } from '../../registry.js';
import type { Sealer } from '../../services/sealer.js';
import { divisionToday } from '../../site.js';
import { type InductionTables, type Row, text } from './tables.js';

const PURPOSE = 'induction-test';

/** Where the worker takes an online course's test (a console page anyone with the link opens). */
export const TEST_PATH = '/prueba-induccion/';

/** The link's token: the booking's id, sealed to it (altered or copied to another booking, it does not open). */
export const testToken = (sealer: Sealer, bookingId: number) =>
  `${bookingId}.${sealer.seal(PURPOSE, String(bookingId), String(bookingId))}`;

function bookingIdOf(sealer: Sealer, token: string): number {
  const [id, ...rest] = token.split('.');
  if (!/^[1-9]\d{0,9}$/.test(id) || sealer.open(PURPOSE, id, rest.join('.')) !== id)
    throw new ApiError('NOT_FOUND', { messageKey: 'induction.refusals.testLinkInvalid' });
  return Number(id);
}

/** The booking behind a test link, with its course's test rules; 404 when the link is not genuine. */
async function testBooking(db: Db, t: InductionTables, sealer: Sealer, token: string) {
  const id = bookingIdOf(sealer, token);
  const row = (await db
    .selectFrom(`${t.booking} as b`)
    .innerJoin(`${t.course} as c`, 'c.IdCurso', 'b.IdCurso')
    .innerJoin(`${t.person} as p`, 'p.IdPersona', 'b.IdPersona')
    .innerJoin(`${t.session} as s`, 's.IdSesion', 'b.IdSesion')
    .select([
      'b.IdInscripcion',
      'b.IdCliente',
      'b.IdDivision',
      'b.IdPersona',
      'b.IdCompania',
      'b.IdCurso',
      'b.IdSesion',
      'b.Estado',
      'b.Nota',
      'b.UltimoIntento',
      'c.Nombre as Curso',
      'c.NombreIngles as CursoIngles',
      'c.Modalidad',
      'c.NotaMinima',
      'c.VigenciaMeses',
      'c.PreguntasPrueba',
      's.IdInstructor',
      's.Fecha',
      'p.Apellido',
      'p.Nombre',
    ])
    .where('b.IdInscripcion', '=', id)
    .executeTakeFirst()) as Row | undefined;
  if (row?.Modalidad !== 'V')
    throw new ApiError('NOT_FOUND', { messageKey: 'induction.refusals.testLinkInvalid' });
  return row;
}

/** The test's questions: the course's first PreguntasPrueba active ones, in order. */
async function questions(db: Db, t: InductionTables, booking: Row) {
  return (await db
    .selectFrom(t.question)
    .select(['IdPregunta', 'Pregunta', 'OpcionA', 'OpcionB', 'OpcionC', 'OpcionD', 'Correcta'])
    .where('IdCurso', '=', Number(booking.IdCurso))
    .where('Activo', '=', 'S')
    .orderBy('Orden')
    .limit(Number(booking.PreguntasPrueba ?? 10))
    .execute()) as Row[];
}

const nextAttempt = (booking: Row) =>
  booking.UltimoIntento
    ? new Date(new Date(text(booking.UltimoIntento)).getTime() + ATTEMPT_EVERY_MS).toISOString()
    : null;

/** What the worker sees before answering: the course, the questions without their answers, when the next attempt opens. */
export async function testSheet(db: Db, t: InductionTables, sealer: Sealer, token: string) {
  const booking = await testBooking(db, t, sealer, token);
  const asked = await questions(db, t, booking);
  return {
    Persona: `${text(booking.Apellido)} ${text(booking.Nombre)}`,
    Curso: text(booking.Curso),
    CursoIngles: text(booking.CursoIngles),
    NotaMinima: Number(booking.NotaMinima),
    Estado: booking.Estado,
    Nota: booking.Nota == null ? null : Number(booking.Nota),
    proximoIntento: nextAttempt(booking),
    preguntas: asked.map(({ Correcta: _, ...q }) => ({ ...q, IdPregunta: Number(q.IdPregunta) })),
  };
}

/**
 * Scores an attempt on the server: the share of right answers among the test's questions, 0–100.
 * One attempt an hour, held by a conditional update of the booking's last attempt (two attempts at
 * once: one is scored). A pass settles the booking and records the induction, in one transaction.
 */
export async function takeTest(
  db: Db,
  registry: Registry,
  t: InductionTables,
  sealer: Sealer,
  token: string,
  answers: Array<{ IdPregunta: number; Respuesta: string }>,
  now: number,
) {
  return db.transaction().execute(async (trx) => {
    const booking = await testBooking(trx, t, sealer, token);
    if (booking.Estado !== 'R') throw new ApiError('CONFLICT', { messageKey: 'induction.refusals.testDone' });
    const at = new Date(now).toISOString();
    const taken = await trx
      .updateTable(t.booking)
      .set({ UltimoIntento: at })
      .where('IdInscripcion', '=', Number(booking.IdInscripcion))
      .where('Estado', '=', 'R')
      .where((eb) =>
        eb.or([
          eb('UltimoIntento', 'is', null),
          eb('UltimoIntento', '<=', new Date(now - ATTEMPT_EVERY_MS).toISOString()),
        ]),
      )
      .executeTakeFirst();
    if (!Number(taken.numUpdatedRows))
      throw new ApiError('TOO_MANY_REQUESTS', {
        messageKey: 'induction.refusals.oneAttemptAnHour',
        params: { at: nextAttempt(booking) ?? at },
      });
    const asked = await questions(trx, t, booking);
    const given = new Map(answers.map((a) => [a.IdPregunta, a.Respuesta]));
    const right = asked.filter((q) => given.get(Number(q.IdPregunta)) === q.Correcta).length;
    const score = asked.length ? Math.round((100 * right) / asked.length) : 0;
    const passed = passes(true, score, Number(booking.NotaMinima));
    await trx
      .updateTable(t.booking)
      .set({ Nota: score, Asistio: 'S', ...(passed && { Estado: 'A' }) })
      .where('IdInscripcion', '=', Number(booking.IdInscripcion))
      .execute();
    if (passed) await recordPass(trx, registry, t, booking, score, now);
    return {
      Nota: score,
      aprobado: passed,
      correctas: right,
      preguntas: asked.length,
      proximoIntento: passed ? null : new Date(now + ATTEMPT_EVERY_MS).toISOString(),
    };
  });
}

async function recordPass(
  db: Db,
  registry: Registry,
  t: InductionTables,
  booking: Row,
  score: number,
  now: number,
) {
  const on = await divisionToday(db, registry, Number(booking.IdDivision), now);
  await db
    .insertInto(t.record)
    .values({
      IdCliente: Number(booking.IdCliente),
      IdDivision: Number(booking.IdDivision),
      IdPersona: Number(booking.IdPersona),
      IdCompania: Number(booking.IdCompania),
      IdCurso: Number(booking.IdCurso),
      IdSesion: Number(booking.IdSesion),
      IdInscripcion: Number(booking.IdInscripcion),
      Fecha: on,
      Nota: score,
      VenceEl: validUntil(on, Number(booking.VigenciaMeses)),
      Modalidad: 'V',
      IdInstructor: booking.IdInstructor ?? null,
      Estado: 'V',
    })
    .onConflict((oc) => oc.columns(['IdPersona', 'IdCurso', 'Fecha']).doNothing())
    .execute();
}
