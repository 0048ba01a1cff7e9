import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/connection.js';
import { ApiError } from '../../errors.js';
import { bookingOf, type SessionRow } from './bookings.js';
import type { Candidate } from './candidates.js';
import type { InductionOffice } from './office.js';
import { TEST_PATH, testToken } from './online.js';
import { inductionTables, type Row, text } from './tables.js';

/** A test's address on the console the call came to (`origin`: its scheme and host). */
const link = (origin: string, token: string) => `${origin}${TEST_PATH}${token}`;

/** The test link of an online course's booking of the office. */
export async function testLinkOf(
  fastify: FastifyInstance,
  origin: string,
  office: InductionOffice,
  id: number,
) {
  const t = inductionTables(fastify.registry);
  const booking = await bookingOf(fastify.database.db, t, office, id);
  const course = (await fastify.database.db
    .selectFrom(t.course)
    .select('Modalidad')
    .where('IdCurso', '=', Number(booking.IdCurso))
    .executeTakeFirst()) as Row | undefined;
  if (course?.Modalidad !== 'V')
    throw new ApiError('BUSINESS_RULE', { messageKey: 'induction.refusals.notOnline' });
  return { IdInscripcion: id, enlace: link(origin, testToken(fastify.sealer, id)) };
}

/** Mails the requester who booked an online course the link of each worker's test. */
export async function mailTestLinks(
  fastify: FastifyInstance,
  origin: string,
  office: InductionOffice,
  done: { session: SessionRow; booked: Array<Candidate & { IdInscripcion: number }> },
) {
  const db: Db = fastify.database.db;
  const t = inductionTables(fastify.registry);
  const user = (await db
    .selectFrom(t.user)
    .select('Correo')
    .where('IdUsuario', '=', office.userId)
    .executeTakeFirst()) as Row | undefined;
  if (!user?.Correo) return;
  const lines = done.booked
    .map(
      (b) => `- ${b.Persona} (${b.Documento}): ${link(origin, testToken(fastify.sealer, b.IdInscripcion))}`,
    )
    .join('\n');
  await fastify.notifier.send({
    clientId: office.clientId,
    userId: office.userId,
    channel: 'C',
    to: text(user.Correo),
    subject: `Prueba en línea: ${done.session.Curso} / Online test: ${done.session.CursoIngles}`,
    text: [
      `Comparta con cada trabajador el enlace de su prueba (un intento por hora):\n${lines}`,
      `Give each worker the link to their test (one attempt an hour):\n${lines}`,
    ].join('\n\n'),
  });
}
