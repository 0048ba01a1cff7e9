/**
 * `npm run bench:transport`: the Transport module on a change day, on SQLite and PostgreSQL.
 *
 *   npm run bench:transport -- --dialects sqlite,postgres
 *
 * On a fresh demo database per dialect, with 3 000 accredited workers on a 14×7 roster (half of them
 * going up on the change day, half going down; two thirds living in Arequipa, the rest elsewhere)
 * and 100 trips of 45-seat buses that day (70 up and down, 30 within the site):
 * 1. proposing the change day's manifests (rosters, accreditations, homes, routes, free seats), five
 *    times: the slowest is printed, the aim is 2 s; then confirming them (every seat booked, one
 *    transaction), for information;
 * 2. the live board of the day (100 trips, 20 of them on the road with their passengers), 50 times:
 *    the median and the 95th percentile are printed, the aim is 100 ms at the 95th.
 */
import { parseArgs } from 'node:util';
import type { Database } from '../src/server/db/connection.js';
import { seedDemo } from '../src/server/demo/seed.js';
import { liveBoard } from '../src/server/features/transport/live.js';
import type { TransportOffice } from '../src/server/features/transport/office.js';
import { confirm, propose } from '../src/server/features/transport/proposal.js';
import { transportTables } from '../src/server/features/transport/tables.js';
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
const t = transportTables(registry);
const PEOPLE = 3000;
const SEATS = 45;

const one = async (database: Database, table: string, where: Row) => {
  let q = database.db.selectFrom(table).selectAll();
  for (const [k, v] of Object.entries(where)) q = q.where(k, '=', v);
  return (await q.executeTakeFirstOrThrow()) as Row;
};

/** 3 000 accredited workers of SERMIPAC on the 14×7 roster: half up on `day`, half down; homes in Arequipa or not. */
async function crew(database: Database, day: string, today: string) {
  const company = Number((await one(database, t.company, { Alias: 'SERMIPAC' })).IdCompania);
  const model = (await database.db
    .selectFrom(t.accreditation)
    .selectAll()
    .where('IdCompania', '=', company)
    .where('IdDivision', '=', 1)
    .where('IdEntidad', '=', 'T')
    .executeTakeFirstOrThrow()) as Row;
  const { IdPersona: _p, ...fields } = await one(database, t.person, {
    IdPersona: model.IdPersona as number,
  });
  const people = await insertAll(
    database,
    t.person,
    Array.from({ length: PEOPLE }, (_, i) => ({
      ...fields,
      Documento: `T${String(i).padStart(7, '0')}`,
      Apellido: 'CAMBIO DE GUARDIA',
      Nombre: `TRABAJADOR ${i}`,
      IdUbigeoResidencia: i % 3 === 2 ? 'PE180101' : 'PE040101',
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
  const roster = await one(database, t.scheduleType, { Descripcion: 'GUARDIA DÍA 14X7' });
  await insertAll(
    database,
    t.assignment,
    people.map((IdPersona, i) => ({
      IdCliente: 1,
      IdPersona,
      IdTipoHorario: roster.IdTipoHorario,
      FechaInicio: addDays(today, -60),
      FechaAncla: i % 2 ? addDays(day, -14) : day,
      Activo: 'S',
    })),
    'IdAsignacionHorario',
  );
  return people;
}

/** 100 buses of 45 seats (copies of the demo's C4X-912) and their trips on `day`: 70 up and down, 30 within the site. */
async function fleet(database: Database, day: string) {
  const { IdVehiculo: _v, ...vehicle } = await one(database, t.vehicle, { Placa: 'C4X-912' });
  const vehicles = await insertAll(
    database,
    t.vehicle,
    Array.from({ length: 100 }, (_, i) => ({
      ...vehicle,
      Placa: `BUS-${String(i).padStart(3, '0')}`,
      Serie: null,
    })),
    'IdVehiculo',
  );
  const licence = (await one(database, t.licence, { Categoria: 'A-IIIA' })).IdLicenciaConducir;
  const buses = await insertAll(
    database,
    t.bus,
    vehicles.map((IdVehiculo) => ({
      IdCliente: 1,
      IdDivision: 1,
      IdVehiculo,
      Asientos: SEATS,
      IdLicenciaConducir: licence,
      Activo: 'S',
    })),
    'IdBus',
  );
  const route = async (Codigo: string) =>
    Number((await one(database, t.route, { Codigo, IdDivision: 1 })).IdRuta);
  const [aqp, moq, camp] = [await route('AQP-UM'), await route('MOQ-UM'), await route('CAMP-PLT')];
  const driver = Number((await one(database, t.accreditation, { IdDivision: 1, IdEntidad: 'T' })).IdPersona);
  // Up: 23 from Arequipa, 12 from elsewhere; down the same; 30 within the site.
  const plan: Array<[number, 'S' | 'B' | 'I']> = [
    ...Array.from({ length: 23 }, () => [aqp, 'S'] as [number, 'S']),
    ...Array.from({ length: 12 }, () => [moq, 'S'] as [number, 'S']),
    ...Array.from({ length: 23 }, () => [aqp, 'B'] as [number, 'B']),
    ...Array.from({ length: 12 }, () => [moq, 'B'] as [number, 'B']),
    ...Array.from({ length: 30 }, () => [camp, 'I'] as [number, 'I']),
  ];
  return insertAll(
    database,
    t.trip,
    plan.map(([IdRuta, Sentido], i) => ({
      IdCliente: 1,
      IdDivision: 1,
      IdRuta,
      Fecha: day,
      Hora: `${String(4 + (i % 18)).padStart(2, '0')}:${i % 2 ? '30' : '00'}`,
      Sentido,
      IdBus: buses[i],
      IdConductor: driver,
      Asientos: SEATS,
      Reservados: 0,
      Abordados: 0,
      Estado: 'P',
    })),
    'IdViaje',
  );
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.ceil((p / 100) * values.length) - 1];

await eachDialect(args.dialects, args['postgres-url'], async ({ database }, dialect) => {
  await prepareDatabase(database, registry);
  await seedDemo(database, registry);
  const today = siteDate('PE');
  const day = addDays(today, 3);
  await crew(database, day, today);
  const trips = await fleet(database, day);
  const office: TransportOffice = { clientId: 1, divisionId: 1, userId: 'TRANSPORTE' };

  // 1. The change day's manifests proposed (five times: the slowest), then confirmed.
  const times: number[] = [];
  let proposal: Awaited<ReturnType<typeof propose>> | undefined;
  for (let i = 0; i < 5; i++) {
    const started = performance.now();
    proposal = await propose(database.db, t, office, day);
    times.push(performance.now() - started);
  }
  if (!proposal) return;
  const placed = proposal.viajes.reduce((n, v) => n + v.propuestos.length, 0);
  const started = performance.now();
  const confirmed = await confirm(
    { db: database.db, t, registry },
    office,
    proposal.viajes.map((v) => ({ IdViaje: v.IdViaje, IdPersonas: v.propuestos.map((p) => p.IdPersona) })),
    { now: Date.now(), today },
  );
  const confirmedMs = performance.now() - started;

  // 2. Twenty trips on the road with their passengers boarded, then the live board, 50 times.
  const moving = trips.slice(0, 20);
  await database.db.updateTable(t.trip).set({ Estado: 'S' }).where('IdViaje', 'in', moving).execute();
  await database.db.updateTable(t.booking).set({ Estado: 'A' }).where('IdViaje', 'in', moving).execute();
  const board: number[] = [];
  let onRoad = 0;
  for (let i = 0; i < 50; i++) {
    const at = performance.now();
    const live = await liveBoard(database.db, t, office, day);
    board.push(performance.now() - at);
    onRoad = live.enRuta.length;
  }
  console.log(
    `${dialect}: proposed ${placed} of ${PEOPLE} people over ${proposal.viajes.length} trips (${proposal.sinAsiento.length} without a seat) in ${seconds(Math.max(...times))} at the slowest of 5 — aim 2 s; confirmed ${confirmed.total} seats in ${seconds(confirmedMs)}; live board of ${trips.length} trips with ${onRoad} people on the road: median ${percentile(board, 50).toFixed(1)} ms, p95 ${percentile(board, 95).toFixed(1)} ms — aim 100 ms`,
  );
});
