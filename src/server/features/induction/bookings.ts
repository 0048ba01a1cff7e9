import { addDays, siteDate } from '../../../shared/dates.js';
import { CREW_MAX, EXPIRING_WITHIN_DAYS, type SessionFields } from '../../../shared/induction.js';
import type { Db } from '../../db/connection.js';
import { uniqueViolation } from '../../db/errors.js';
import { ApiError } from '../../errors.js';
import { type Candidate, eligible } from './candidates.js';
import type { InductionOffice } from './office.js';
import { type InductionTables, inChunks, type Row, text } from './tables.js';

/** A session with its course's rules, as the calls read it. */
export interface SessionRow extends SessionFields {
  IdDivision: number;
  Curso: string;
  CursoIngles: string;
  NotaMinima: number;
  VigenciaMeses: number;
  Modalidad: 'P' | 'V';
}

const refusal = (messageKey: string, params: Record<string, string | number> = {}) =>
  new ApiError('BUSINESS_RULE', { messageKey: `induction.refusals.${messageKey}`, params });

/** The office's session (of its client's division), or 404. */
export async function sessionOf(db: Db, t: InductionTables, office: InductionOffice, id: number) {
  const row = (await db
    .selectFrom(`${t.session} as s`)
    .innerJoin(`${t.course} as c`, 'c.IdCurso', 's.IdCurso')
    .select([
      's.IdSesion',
      's.IdCurso',
      's.IdDivision',
      's.Fecha',
      's.HoraInicio',
      's.HoraFin',
      's.Sala',
      's.Capacidad',
      's.Reservados',
      's.IdInstructor',
      's.Estado',
      'c.Nombre as Curso',
      'c.NombreIngles as CursoIngles',
      'c.NotaMinima',
      'c.VigenciaMeses',
      'c.Modalidad',
    ])
    .where('s.IdSesion', '=', id)
    .where('s.IdCliente', '=', office.clientId)
    .where('s.IdDivision', '=', office.divisionId)
    .executeTakeFirst()) as Row | undefined;
  if (!row) throw new ApiError('NOT_FOUND', { params: { resource: 'training-session', id } });
  return {
    ...row,
    IdSesion: Number(row.IdSesion),
    IdCurso: Number(row.IdCurso),
    IdDivision: Number(row.IdDivision),
    Fecha: text(row.Fecha).slice(0, 10),
    Capacidad: Number(row.Capacidad),
    Reservados: Number(row.Reservados ?? 0),
    NotaMinima: Number(row.NotaMinima),
    VigenciaMeses: Number(row.VigenciaMeses),
  } as SessionRow;
}

/** Refuses a session that is not scheduled any more (closed or cancelled). */
export function requireScheduled(session: SessionRow): void {
  if (session.Estado === 'C') throw refusal('sessionClosed');
  if (session.Estado === 'X') throw refusal('sessionCancelled');
}

/**
 * Books people on a session, all or none: each must be one the office may book (its company's,
 * accredited or with a request open in the division), not holding an induction of the course valid
 * beyond the 30 days after the session, nor booked on the course already (a partial unique index
 * holds that). The seats are taken by one conditional update of the session's count, so two
 * requesters racing for the last seat cannot both have it.
 */
export async function book(
  db: Db,
  t: InductionTables,
  office: InductionOffice,
  sessionId: number,
  ids: number[],
  now: number,
  country: string | null,
) {
  if (ids.length > CREW_MAX) throw refusal('crewTooLarge', { max: CREW_MAX });
  return db.transaction().execute(async (trx) => {
    const session = await sessionOf(trx, t, office, sessionId);
    requireScheduled(session);
    if (session.Fecha < siteDate(country, now)) throw refusal('sessionPast');
    const people = await eligible(trx, t, office, ids);
    const missing = ids.find((id) => !people.has(id));
    if (missing !== undefined) throw refusal('notEligible', { id: missing });
    await refuseHeld(trx, t, session, [...people.values()]);
    const taken = await trx
      .updateTable(t.session)
      .set((eb) => ({ Reservados: eb(eb.fn.coalesce('Reservados', eb.lit(0)), '+', ids.length) }))
      .where('IdSesion', '=', sessionId)
      .where('Estado', '=', 'P')
      .where((eb) =>
        eb(eb(eb.fn.coalesce('Reservados', eb.lit(0)), '+', ids.length), '<=', eb.ref('Capacidad')),
      )
      .executeTakeFirst();
    if (!Number(taken.numUpdatedRows)) {
      // Closed or cancelled meanwhile, or full.
      requireScheduled(await sessionOf(trx, t, office, sessionId));
      throw new ApiError('CONFLICT', {
        messageKey: 'induction.refusals.full',
        params: { seats: Math.max(0, session.Capacidad - session.Reservados), asked: ids.length },
      });
    }
    return insertBookings(trx, t, office, session, [...people.values()], now);
  });
}

/** Refuses people who hold an induction of the course valid beyond 30 days after the session. */
async function refuseHeld(db: Db, t: InductionTables, session: SessionRow, people: Candidate[]) {
  const beyond = addDays(session.Fecha, EXPIRING_WITHIN_DAYS);
  const held = (await inChunks(
    people.map((p) => p.IdPersona),
    (chunk) =>
      db
        .selectFrom(t.record)
        .select(['IdPersona', 'VenceEl'])
        .where('IdCurso', '=', session.IdCurso)
        .where('Estado', '=', 'V')
        .where('VenceEl', '>', beyond)
        .where('IdPersona', 'in', chunk)
        .execute(),
  )) as Row[];
  if (!held.length) return;
  const person = people.find((p) => p.IdPersona === Number(held[0].IdPersona));
  throw refusal('alreadyInducted', {
    name: person?.Persona ?? '',
    until: text(held[0].VenceEl).slice(0, 10),
  });
}

async function insertBookings(
  db: Db,
  t: InductionTables,
  office: InductionOffice,
  session: SessionRow,
  people: Candidate[],
  now: number,
) {
  const at = new Date(now).toISOString();
  const rows = people.map((p) => ({
    IdCliente: office.clientId,
    IdDivision: office.divisionId,
    IdSesion: session.IdSesion,
    IdCurso: session.IdCurso,
    IdPersona: p.IdPersona,
    IdCompania: p.IdCompania,
    Estado: 'R',
    Asistio: 'N',
    FechaReserva: at,
    IdUsuarioReserva: office.userId,
  }));
  try {
    const ids: number[] = [];
    for (let i = 0; i < rows.length; i += 100) {
      const written = await db
        .insertInto(t.booking)
        .values(rows.slice(i, i + 100))
        .returning('IdInscripcion')
        .execute();
      ids.push(...written.map((w: Row) => Number(w.IdInscripcion)));
    }
    return { session, booked: people.map((p, i) => ({ ...p, IdInscripcion: ids[i] })) };
  } catch (error) {
    if (!uniqueViolation(error)) throw error;
    throw new ApiError('DUPLICATE', { messageKey: 'induction.refusals.alreadyBooked' });
  }
}

/** Cancels a booking still open on a scheduled session, and frees its seat. */
export async function cancelBooking(db: Db, t: InductionTables, office: InductionOffice, id: number) {
  return db.transaction().execute(async (trx) => {
    const booking = await bookingOf(trx, t, office, id);
    const session = await sessionOf(trx, t, office, Number(booking.IdSesion));
    requireScheduled(session);
    const changed = await trx
      .updateTable(t.booking)
      .set({ Estado: 'X' })
      .where('IdInscripcion', '=', id)
      .where('Estado', '=', 'R')
      .executeTakeFirst();
    if (!Number(changed.numUpdatedRows)) throw refusal('bookingNotOpen');
    await trx
      .updateTable(t.session)
      .set((eb) => ({ Reservados: eb('Reservados', '-', 1) }))
      .where('IdSesion', '=', session.IdSesion)
      .execute();
    return { IdInscripcion: id, Estado: 'X' };
  });
}

/** The office's booking (a requester's: of its company), or 404. */
export async function bookingOf(db: Db, t: InductionTables, office: InductionOffice, id: number) {
  let query = db
    .selectFrom(t.booking)
    .selectAll()
    .where('IdInscripcion', '=', id)
    .where('IdCliente', '=', office.clientId)
    .where('IdDivision', '=', office.divisionId);
  if (office.companyId !== undefined) query = query.where('IdCompania', '=', office.companyId);
  const row = (await query.executeTakeFirst()) as Row | undefined;
  if (!row) throw new ApiError('NOT_FOUND', { params: { resource: 'training-booking', id } });
  return row;
}
