/**
 * `npm run bench:inductions`: the Inductions module at a plant shutdown's size, on SQLite and PostgreSQL.
 *
 *   npm run bench:inductions -- --dialects sqlite,postgres
 *
 * On a fresh demo database per dialect, with 2 500 accredited workers of one contractor:
 * 1. booking 500 workers on sessions of the general induction, crews of 40 (13 calls of the
 *    product's booking service, each all or none, the seats held by the database);
 * 2. closing 50 sessions of 40 people with results: each session's attendance and scores saved,
 *    then closed (passes recorded, fails and absences settled).
 * Each part's whole time is printed; the aim is 2 s each.
 */
import { parseArgs } from 'node:util';
import type { Database } from '../src/server/db/connection.js';
import { seedDemo } from '../src/server/demo/seed.js';
import { book } from '../src/server/features/induction/bookings.js';
import type { InductionOffice } from '../src/server/features/induction/office.js';
import { closeSession, saveResults } from '../src/server/features/induction/results.js';
import { inductionTables } from '../src/server/features/induction/tables.js';
import { prepareDatabase } from '../src/server/prepare.js';
import { addDays, siteDate } from '../src/shared/dates.js';
import { eachDialect, insertAll, registry } from './bench/setup.js';

const { values: args } = parseArgs({
  options: {
    dialects: { type: 'string', default: 'sqlite,postgres' },
    'postgres-url': {
      type: 'string',
      default: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
    },
  },
});

type Row = Record<string, unknown>;
const t = inductionTables(registry);
const SEAT_ROWS = 40;

/** `count` accredited workers of the company in the division, copies of one of its workers. */
async function workers(database: Database, division: number, company: number, today: string, count: number) {
  const model = (await database.db
    .selectFrom(t.accreditation)
    .selectAll()
    .where('IdCompania', '=', company)
    .where('IdDivision', '=', division)
    .where('IdEntidad', '=', 'T')
    .executeTakeFirstOrThrow()) as Row;
  const { IdPersona: _p, ...fields } = (await database.db
    .selectFrom(t.person)
    .selectAll()
    .where('IdPersona', '=', model.IdPersona as number)
    .executeTakeFirstOrThrow()) as Row;
  const people = await insertAll(
    database,
    t.person,
    Array.from({ length: count }, (_, i) => ({
      ...fields,
      Documento: `B${String(i).padStart(7, '0')}`,
      Apellido: 'PARADA',
      Nombre: `TRABAJADOR ${i}`,
    })),
    'IdPersona',
  );
  const { IdAcreditacion: _a, ...accreditation } = model;
  await insertAll(
    database,
    t.accreditation,
    people.map((IdPersona) => ({
      ...accreditation,
      IdPersona,
      Estado: 'A',
      FechaInicio: addDays(today, -10),
      FechaFin: addDays(today, 200),
    })),
    'IdAcreditacion',
  );
  return people;
}

/** `count` sessions of the course on a day, of `capacity` seats each. */
async function sessions(
  database: Database,
  division: number,
  course: number,
  day: string,
  count: number,
  capacity: number,
) {
  const at = new Date().toISOString();
  return insertAll(
    database,
    t.session,
    Array.from({ length: count }, (_, i) => ({
      IdCliente: 1,
      IdDivision: division,
      IdCurso: course,
      Fecha: day,
      HoraInicio: '08:00',
      HoraFin: '17:00',
      Sala: `SALA ${i + 1}`,
      Capacidad: capacity,
      Reservados: 0,
      IdInstructor: 'INDUCCION',
      Idioma: 'ES',
      Estado: 'P',
      IdUsuarioCreacion: 'BENCH',
      FechaCreacion: at,
    })),
    'IdSesion',
  );
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

await eachDialect(args.dialects, args['postgres-url'], async ({ database }, dialect) => {
  await prepareDatabase(database, registry);
  await seedDemo(database, registry);
  const division = 1;
  const today = siteDate('PE');
  const company = Number(
    (
      (await database.db
        .selectFrom(t.company)
        .select('IdCompania')
        .where('Alias', '=', 'SERMIPAC')
        .executeTakeFirstOrThrow()) as Row
    ).IdCompania,
  );
  const course = Number(
    (
      (await database.db
        .selectFrom(t.course)
        .select('IdCurso')
        .where('Codigo', '=', 'IND-GEN')
        .where('IdDivision', '=', division)
        .executeTakeFirstOrThrow()) as Row
    ).IdCurso,
  );
  const people = await workers(database, division, company, today, 2500);
  const principal = { userId: 'SOLICITANTE', clientId: 1, divisionId: division, companyId: company };
  const requester: InductionOffice = { ...principal, administrator: false, principal };
  const trainer: InductionOffice = {
    ...requester,
    userId: 'INDUCCION',
    companyId: undefined,
    principal: { ...principal, companyId: undefined },
  };

  // 1. 500 workers booked on upcoming sessions, crews of 40.
  const upcoming = await sessions(database, division, course, addDays(today, 7), 13, SEAT_ROWS);
  const booking = people.slice(0, 500);
  let started = performance.now();
  for (let i = 0; i < booking.length; i += SEAT_ROWS)
    await book(
      database.db,
      t,
      requester,
      upcoming[i / SEAT_ROWS],
      booking.slice(i, i + SEAT_ROWS),
      Date.now(),
      'PE',
    );
  const booked = performance.now() - started;
  const bookings = Number(
    (
      (await database.db
        .selectFrom(t.booking)
        .select((eb) => eb.fn.countAll().as('n'))
        .where('IdSesion', 'in', upcoming)
        .executeTakeFirstOrThrow()) as Row
    ).n,
  );

  // 2. 50 sessions of today with 40 people each (booked beforehand), results saved and closed.
  const held = await sessions(database, division, course, today, 50, SEAT_ROWS);
  const crews = people.slice(500, 500 + held.length * SEAT_ROWS);
  for (const [k, session] of held.entries())
    await book(
      database.db,
      t,
      requester,
      session,
      crews.slice(k * SEAT_ROWS, (k + 1) * SEAT_ROWS),
      Date.now(),
      'PE',
    );
  const open = (await database.db
    .selectFrom(t.booking)
    .select(['IdInscripcion', 'IdSesion'])
    .where('IdSesion', 'in', held)
    .execute()) as Row[];
  started = performance.now();
  for (const session of held) {
    const rows = open.filter((b) => Number(b.IdSesion) === session);
    await saveResults(
      database.db,
      t,
      trainer,
      session,
      rows.map((b, i) => ({
        IdInscripcion: Number(b.IdInscripcion),
        Asistio: i % 20 === 0 ? 'N' : 'S',
        Nota: i % 20 === 0 ? null : 55 + (i % 45),
      })),
    );
    await closeSession(database.db, t, trainer, session, Date.now(), 'PE');
  }
  const closed = performance.now() - started;
  const records = Number(
    (
      (await database.db
        .selectFrom(t.record)
        .select((eb) => eb.fn.countAll().as('n'))
        .where('IdSesion', 'in', held)
        .executeTakeFirstOrThrow()) as Row
    ).n,
  );
  console.log(
    `${dialect}: booked ${bookings} workers (13 crews of up to 40) in ${seconds(booked)}; saved the results of and closed 50 sessions of 40 (${records} passed) in ${seconds(closed)} — aim 2 s each`,
  );
});
