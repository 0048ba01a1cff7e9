/**
 * The demo's induction life: in each division, sessions held (closed, with their passes and a fail,
 * and an older one whose work-at-height inductions expire within the month) and sessions to come
 * (the general induction with SERMIPAC's crew booked, work at height empty, the visitors' online
 * test open today). Deterministic, like the rest of the demo.
 */
import { addDays, siteDate } from '../../../shared/dates.js';
import { validUntil } from '../../../shared/induction.js';
import type { DemoContext } from '../feature.js';
import { type InductionTables, inductionTables, type Row } from './tables.js';

const TRAINER = 'INDUCCION';

interface PlannedSession {
  course: string;
  days: number;
  from: string;
  to: string;
  room: string;
  capacity: number;
  /** Workers booked (by position among the division's accredited), with their score when held. */
  booked: Array<[number, number | null]>;
}

const PLAN: PlannedSession[] = [
  {
    course: 'IND-GEN',
    days: -20,
    from: '08:00',
    to: '17:00',
    room: 'SALA DE CAPACITACIÓN 1',
    capacity: 30,
    booked: [
      [0, 88],
      [1, 92],
      [2, 75],
      [3, 64],
      [4, 81],
      [5, null],
    ],
  },
  {
    course: 'IND-ALT',
    days: -345,
    from: '08:00',
    to: '17:00',
    room: 'SALA DE CAPACITACIÓN 2',
    capacity: 20,
    booked: [
      [0, 90],
      [1, 84],
    ],
  },
  {
    course: 'IND-GEN',
    days: 3,
    from: '08:00',
    to: '17:00',
    room: 'SALA DE CAPACITACIÓN 1',
    capacity: 30,
    booked: [
      [6, null],
      [7, null],
      [8, null],
      [9, null],
    ],
  },
  {
    course: 'IND-ALT',
    days: 7,
    from: '08:00',
    to: '17:00',
    room: 'SALA DE CAPACITACIÓN 2',
    capacity: 20,
    booked: [],
  },
  { course: 'IND-VIS', days: 0, from: '00:00', to: '23:59', room: 'EN LÍNEA', capacity: 50, booked: [] },
];

/** The division's accredited workers (state A), by person, in a stable order. */
async function accredited(ctx: DemoContext, t: InductionTables, divisionId: number) {
  return (await ctx.trx
    .selectFrom(t.accreditation)
    .select(['IdPersona', 'IdCompania'])
    .distinct()
    .where('IdCliente', '=', ctx.clientId)
    .where('IdDivision', '=', divisionId)
    .where('Estado', '=', 'A')
    .where('IdPersona', 'is not', null)
    .orderBy('IdPersona')
    .execute()) as Row[];
}

async function seedSession(
  ctx: DemoContext,
  t: InductionTables,
  divisionId: number,
  plan: PlannedSession,
  people: Row[],
  today: string,
) {
  const course = (await ctx.trx
    .selectFrom(t.course)
    .select(['IdCurso', 'NotaMinima', 'VigenciaMeses', 'Modalidad'])
    .where('IdDivision', '=', divisionId)
    .where('Codigo', '=', plan.course)
    .executeTakeFirst()) as Row | undefined;
  if (!course) return 0;
  const date = addDays(today, plan.days);
  const held = plan.days < 0;
  const booked = plan.booked.filter(([i]) => people[i]);
  const audit = { IdUsuarioCreacion: 'SISTEMA', FechaCreacion: new Date(ctx.now).toISOString() };
  const session = await ctx.trx
    .insertInto(t.session)
    .values({
      IdCliente: ctx.clientId,
      IdDivision: divisionId,
      IdCurso: course.IdCurso,
      Fecha: date,
      HoraInicio: plan.from,
      HoraFin: plan.to,
      Sala: plan.room,
      Capacidad: plan.capacity,
      Reservados: booked.length,
      IdInstructor: TRAINER,
      Idioma: 'ES',
      Estado: held ? 'C' : 'P',
      ...audit,
    })
    .returning('IdSesion')
    .executeTakeFirstOrThrow();
  for (const [i, score] of booked) {
    const person = people[i];
    const passed = held && score !== null && score >= Number(course.NotaMinima);
    const state = !held ? 'R' : score === null ? 'N' : passed ? 'A' : 'D';
    const booking = await ctx.trx
      .insertInto(t.booking)
      .values({
        IdCliente: ctx.clientId,
        IdDivision: divisionId,
        IdSesion: session.IdSesion,
        IdCurso: course.IdCurso,
        IdPersona: person.IdPersona,
        IdCompania: person.IdCompania,
        Estado: state,
        Asistio: held && score !== null ? 'S' : 'N',
        Nota: held ? score : null,
        FechaReserva: new Date(ctx.now - 30 * 86_400_000).toISOString(),
        IdUsuarioReserva: TRAINER,
        ...audit,
      })
      .returning('IdInscripcion')
      .executeTakeFirstOrThrow();
    if (passed)
      await ctx.trx
        .insertInto(t.record)
        .values({
          IdCliente: ctx.clientId,
          IdDivision: divisionId,
          IdPersona: person.IdPersona,
          IdCompania: person.IdCompania,
          IdCurso: course.IdCurso,
          IdSesion: session.IdSesion,
          IdInscripcion: booking.IdInscripcion,
          Fecha: date,
          Nota: score,
          VenceEl: validUntil(date, Number(course.VigenciaMeses)),
          Modalidad: course.Modalidad,
          IdInstructor: TRAINER,
          Estado: 'V',
          ...audit,
        })
        .execute();
  }
  return 1;
}

/** Sessions, bookings and passed inductions in both divisions. */
export async function seedDemoInductions(ctx: DemoContext): Promise<Record<string, number>> {
  const t = inductionTables(ctx.registry);
  const today = siteDate('PE', ctx.now);
  const divisions = (await ctx.trx
    .selectFrom('system_division')
    .select('IdDivision')
    .where('IdCliente', '=', ctx.clientId)
    .orderBy('IdDivision')
    .execute()) as Row[];
  let sessions = 0;
  for (const [index, { IdDivision }] of divisions.entries()) {
    const people = await accredited(ctx, t, Number(IdDivision));
    for (const plan of index === 0 ? PLAN : PLAN.slice(0, 1).concat(PLAN.filter((p) => p.days >= 0)))
      sessions += await seedSession(ctx, t, Number(IdDivision), plan, people, today);
  }
  return { 'training-session': sessions };
}
