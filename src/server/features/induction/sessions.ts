import { expiring } from '../../../shared/induction.js';
import type { Notifier } from '../../auth/notifier.js';
import type { Db } from '../../db/connection.js';
import { requireScheduled, sessionOf } from './bookings.js';
import { tellBooked } from './notices.js';
import type { InductionOffice } from './office.js';
import { type InductionTables, type Row, text } from './tables.js';

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
    await trx
      .updateTable(t.booking)
      .set({ Estado: 'X' })
      .where('IdSesion', '=', id)
      .where('Estado', '=', 'R')
      .execute();
    await trx
      .updateTable(t.session)
      .set({ Estado: 'X', Reservados: 0, Observacion: reason.slice(0, 300) })
      .where('IdSesion', '=', id)
      .execute();
    const when = `${session.Fecha} ${session.HoraInicio}–${session.HoraFin}, ${session.Sala}`;
    await tellBooked(trx, t, notifier, {
      clientId: office.clientId,
      sessionId: id,
      subject: 'Sesión de inducción cancelada / Induction session cancelled',
      text: [
        `La sesión de ${session.Curso} del ${when} se canceló: ${reason}. Reserve otra sesión para su personal.`,
        `The ${session.CursoIngles} session of ${when} was cancelled: ${reason}. Book another session for your people.`,
      ].join('\n\n'),
    });
    return { IdSesion: id, Estado: 'X' };
  });
}

/**
 * The office's people's inductions (a requester's: its company's): their records, newest first,
 * flagged when they expire within 30 days, and their open bookings.
 */
export async function peopleInductions(db: Db, t: InductionTables, office: InductionOffice, today: string) {
  const mine = <Q extends { where: (...a: never[]) => Q }>(q: Q, column: string): Q =>
    office.companyId === undefined
      ? q
      : (q as never as { where: (c: string, o: string, v: number) => Q }).where(
          column,
          '=',
          office.companyId,
        );
  const records = (await mine(
    db
      .selectFrom(`${t.record} as r`)
      .innerJoin(`${t.person} as p`, 'p.IdPersona', 'r.IdPersona')
      .innerJoin(`${t.course} as c`, 'c.IdCurso', 'r.IdCurso')
      .select([
        'r.IdRegistro',
        'r.IdPersona',
        'r.Fecha',
        'r.Nota',
        'r.VenceEl',
        'r.Estado',
        'p.Documento',
        'p.Apellido',
        'p.Nombre',
        'c.Codigo',
        'c.Nombre as Curso',
        'c.NombreIngles as CursoIngles',
      ])
      .where('r.IdCliente', '=', office.clientId)
      .where('r.IdDivision', '=', office.divisionId)
      .orderBy('r.Fecha', 'desc')
      .limit(1000),
    'r.IdCompania',
  ).execute()) as Row[];
  const bookings = (await mine(
    db
      .selectFrom(`${t.booking} as b`)
      .innerJoin(`${t.session} as s`, 's.IdSesion', 'b.IdSesion')
      .innerJoin(`${t.person} as p`, 'p.IdPersona', 'b.IdPersona')
      .innerJoin(`${t.course} as c`, 'c.IdCurso', 'b.IdCurso')
      .select([
        'b.IdInscripcion',
        'b.IdPersona',
        'b.Estado',
        's.IdSesion',
        's.Fecha',
        's.HoraInicio',
        's.Sala',
        'p.Documento',
        'p.Apellido',
        'p.Nombre',
        'c.Codigo',
        'c.Nombre as Curso',
        'c.NombreIngles as CursoIngles',
        'c.Modalidad',
      ])
      .where('b.IdCliente', '=', office.clientId)
      .where('b.IdDivision', '=', office.divisionId)
      .where('b.Estado', 'in', ['R', 'D', 'N'])
      .orderBy('s.Fecha', 'desc')
      .limit(1000),
    'b.IdCompania',
  ).execute()) as Row[];
  const person = (r: Row) => ({
    IdPersona: Number(r.IdPersona),
    Documento: text(r.Documento),
    Persona: `${text(r.Apellido)} ${text(r.Nombre)}`,
  });
  const course = (r: Row) => ({
    Codigo: text(r.Codigo),
    Curso: text(r.Curso),
    CursoIngles: text(r.CursoIngles),
  });
  return {
    registros: records.map((r) => {
      const until = text(r.VenceEl).slice(0, 10);
      const valid = r.Estado === 'V' && until >= today;
      return {
        IdRegistro: Number(r.IdRegistro),
        ...person(r),
        ...course(r),
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
      ...person(b),
      ...course(b),
      Modalidad: b.Modalidad,
      Estado: b.Estado,
      Fecha: text(b.Fecha).slice(0, 10),
      HoraInicio: text(b.HoraInicio),
      Sala: text(b.Sala),
    })),
  };
}
