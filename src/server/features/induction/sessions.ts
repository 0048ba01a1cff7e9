import { expiring } from '../../../shared/induction.js';
import type { Notifier } from '../../auth/notifier.js';
import type { Db } from '../../db/connection.js';
import { requireScheduled, sessionOf } from './bookings.js';
import { tellBooked } from './notices.js';
import type { InductionOffice } from './office.js';
import { type InductionTables, named, namesOf, type Row, text } from './tables.js';

/** A session with its bookings (a requester's: its company's only), named. */
export async function sessionDetail(db: Db, t: InductionTables, office: InductionOffice, id: number) {
  const session = await sessionOf(db, t, office, id);
  let query = db
    .selectFrom(`${t.booking} as b`)
    .innerJoin(`${t.person} as p`, 'p.IdPersona', 'b.IdPersona')
    .leftJoin(`${t.company} as c`, 'c.IdCompania', 'b.IdCompania')
    .leftJoin(`${t.record} as r`, 'r.IdInscripcion', 'b.IdInscripcion')
    .select([
      'b.IdInscripcion',
      'b.IdPersona',
      'b.IdCompania',
      'b.Estado',
      'b.Asistio',
      'b.Nota',
      'b.Observacion',
      'p.Documento',
      'p.Apellido',
      'p.Nombre',
      'c.Alias as Compania',
      'r.IdRegistro',
      'r.VenceEl',
      'r.Estado as EstadoRegistro',
    ])
    .where('b.IdSesion', '=', id)
    .where('b.Estado', '!=', 'X')
    .orderBy('p.Apellido')
    .orderBy('p.Nombre');
  if (office.companyId !== undefined) query = query.where('b.IdCompania', '=', office.companyId);
  const rows = (await query.execute()) as Row[];
  const instructor = (await db
    .selectFrom(t.user)
    .select(['Nombre', 'Apellido'])
    .where('IdUsuario', '=', session.IdInstructor)
    .executeTakeFirst()) as Row | undefined;
  return {
    ...session,
    Instructor: instructor ? `${text(instructor.Nombre)} ${text(instructor.Apellido)}` : session.IdInstructor,
    reservas: rows.map((r) => ({
      IdInscripcion: Number(r.IdInscripcion),
      IdPersona: Number(r.IdPersona),
      Documento: text(r.Documento),
      Persona: `${text(r.Apellido)} ${text(r.Nombre)}`,
      Compania: text(r.Compania),
      Estado: r.Estado,
      Asistio: r.Asistio,
      Nota: r.Nota === null || r.Nota === undefined ? null : Number(r.Nota),
      Observacion: r.Observacion ?? null,
      IdRegistro: r.IdRegistro == null ? null : Number(r.IdRegistro),
      VenceEl: r.VenceEl == null ? null : text(r.VenceEl).slice(0, 10),
      EstadoRegistro: r.EstadoRegistro ?? null,
    })),
  };
}

/** Cancels a scheduled session: its open bookings cancelled, its seats freed, the booked told by mail; one transaction. */
export async function cancelSession(
  db: Db,
  t: InductionTables,
  notifier: Notifier,
  office: InductionOffice,
  id: number,
  reason: string,
) {
  return db.transaction().execute(async (trx) => {
    const session = await sessionOf(trx, t, office, id);
    requireScheduled(session);
    // Claimed first: a booking racing the cancelling waits on the session's row, then finds it cancelled.
    const claimed = await trx
      .updateTable(t.session)
      .set({ Estado: 'X', Reservados: 0, Observacion: reason.slice(0, 300) })
      .where('IdSesion', '=', id)
      .where('Estado', '=', 'P')
      .executeTakeFirst();
    if (!Number(claimed.numUpdatedRows)) requireScheduled(await sessionOf(trx, t, office, id));
    const when = `${session.Fecha} ${session.HoraInicio}–${session.HoraFin}, ${session.Sala}`;
    // Those still booked hear of it, then their bookings are cancelled.
    await tellBooked(trx, t, notifier, {
      clientId: office.clientId,
      sessionId: id,
      subject: 'Sesión de inducción cancelada / Induction session cancelled',
      text: [
        `La sesión de ${session.Curso} del ${when} se canceló: ${reason}. Reserve otra sesión para su personal.`,
        `The ${session.CursoIngles} session of ${when} was cancelled: ${reason}. Book another session for your people.`,
      ].join('\n\n'),
    });
    await trx
      .updateTable(t.booking)
      .set({ Estado: 'X' })
      .where('IdSesion', '=', id)
      .where('Estado', '=', 'R')
      .execute();
    return { IdSesion: id, Estado: 'X' };
  });
}

/**
 * The office's people's inductions (a requester's: its company's): their records, newest first,
 * flagged when they expire within 30 days, and their open or settled bookings.
 */
export async function peopleInductions(db: Db, t: InductionTables, office: InductionOffice, today: string) {
  const records = (await named(db, t, t.record, office)
    .select(['x.IdRegistro', 'x.Fecha', 'x.Nota', 'x.VenceEl', 'x.Estado'])
    .orderBy('x.Fecha', 'desc')
    .limit(1000)
    .execute()) as Row[];
  const bookings = (await named(db, t, t.booking, office)
    .innerJoin(`${t.session} as s`, 's.IdSesion', 'x.IdSesion')
    .select(['x.IdInscripcion', 'x.Estado', 's.IdSesion', 's.Fecha', 's.HoraInicio', 's.Sala', 'c.Modalidad'])
    .where('x.Estado', 'in', ['R', 'D', 'N'])
    .orderBy('s.Fecha', 'desc')
    .limit(1000)
    .execute()) as Row[];
  return {
    registros: records.map((r) => {
      const until = text(r.VenceEl).slice(0, 10);
      const valid = r.Estado === 'V' && until >= today;
      return {
        IdRegistro: Number(r.IdRegistro),
        ...namesOf(r),
        Fecha: text(r.Fecha).slice(0, 10),
        Nota: Number(r.Nota),
        VenceEl: until,
        Estado: r.Estado,
        Vigente: valid,
        PorVencer: valid && expiring(until, today),
      };
    }),
    reservas: bookings.map((b) => ({
      IdInscripcion: Number(b.IdInscripcion),
      IdSesion: Number(b.IdSesion),
      ...namesOf(b),
      Modalidad: b.Modalidad,
      Estado: b.Estado,
      Fecha: text(b.Fecha).slice(0, 10),
      HoraInicio: text(b.HoraInicio),
      Sala: text(b.Sala),
    })),
  };
}
