/**
 * `npm run bench:dining`: dining readers' meal decisions beside the gate's, and the consumption
 * report over a large history, on SQLite and PostgreSQL.
 *
 *   npm run bench:dining -- --seconds 5 --readers 10 --consumptions 1000000 --dialects sqlite,postgres
 *
 * On a fresh demo database per dialect, the server listening on 127.0.0.1 in this process with its
 * clock at lunch time in Lima (the lunch of the central dining room is open):
 * 1. `POST /api/acceso/decidir` (the gate) and `POST /api/comedor/decidir` (a dining reader) from
 *    `readers` concurrent callers for `seconds` each: durable decisions per second and p50/p95/p99,
 *    each answer after its commit (SQLite synchronous=FULL, PostgreSQL synchronous_commit on). The
 *    readers present 4 000 accredited workers' documents in turn, so every decision is a served meal
 *    until each has eaten, then a refused second one; both are written.
 * 2. `consumptions` served meals loaded over the last year (4 000 workers of 8 companies, the two
 *    rooms' services), then `GET /api/comedor/reporte` (totals, meals per day and service, a page of
 *    25) for a month of the division, the whole year, and one company's year: p50/p95 over 30 calls.
 */
import { parseArgs } from 'node:util';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { Database, DialectName } from '../src/server/db/connection.js';
import { seedDemo } from '../src/server/demo/seed.js';
import { recountDays } from '../src/server/features/dining/tables.js';
import { prepareDatabase } from '../src/server/prepare.js';
import { buildServer } from '../src/server/server.js';
import { DeviceKeys } from '../src/server/services/site/device-keys.js';
import { addDays, siteDate } from '../src/shared/dates.js';
import { report, request, timed } from './bench/measure.js';
import { eachDialect, registry } from './bench/setup.js';

const { values: args } = parseArgs({
  options: {
    seconds: { type: 'string', default: '5' },
    readers: { type: 'string', default: '10' },
    consumptions: { type: 'string', default: '1000000' },
    workers: { type: 'string', default: '4000' },
    dialects: { type: 'string', default: 'sqlite,postgres' },
    'postgres-url': {
      type: 'string',
      default: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
    },
  },
});
const SECONDS = Number(args.seconds);
const READERS = Number(args.readers);
const CONSUMPTIONS = Number(args.consumptions);
const WORKERS = Number(args.workers);

const load = (callers: number, call: (caller: number, i: number) => Promise<void>) =>
  timed(SECONDS, callers, call);

/** Copies of an accredited SERMIPAC worker of the first division, each with a new document. */
async function accreditWorkers(database: Database, count: number, today: string): Promise<number[]> {
  const db = database.db;
  const model = (await db
    .selectFrom('accreditation_accreditation as a')
    .innerJoin('administration_company as c', 'c.IdCompania', 'a.IdCompania')
    .selectAll('a')
    .where('c.Alias', '=', 'SERMIPAC')
    .where('a.IdDivision', '=', 1)
    .where('a.IdEntidad', '=', 'T')
    .executeTakeFirstOrThrow()) as Record<string, unknown>;
  const person = (await db
    .selectFrom('administration_person')
    .selectAll()
    .where('IdPersona', '=', model.IdPersona as number)
    .executeTakeFirstOrThrow()) as Record<string, unknown>;
  const { IdPersona: _p, ...fields } = person;
  const { IdAcreditacion: _a, ...acc } = model;
  const ids: number[] = [];
  for (let i = 0; i < count; i += 500) {
    const rows = Array.from({ length: Math.min(500, count - i) }, (_, j) => ({
      ...fields,
      Documento: `CM${String(i + j).padStart(8, '0')}`,
    }));
    const made = (await db
      .insertInto('administration_person')
      .values(rows)
      .returning('IdPersona')
      .execute()) as Array<{
      IdPersona: number;
    }>;
    const batch = made.map((r) => Number(r.IdPersona));
    ids.push(...batch);
    await db
      .insertInto('accreditation_accreditation')
      .values(
        batch.map((id) => ({
          ...acc,
          IdPersona: id,
          Estado: 'A',
          FechaInicio: addDays(today, -400),
          FechaFin: addDays(today, 200),
        })),
      )
      .execute();
  }
  return ids;
}

async function run(database: Database, dialect: DialectName) {
  const db = database.db;
  await prepareDatabase(database, registry);
  await seedDemo(database, registry);
  if (dialect === 'postgres') await sql.raw('set synchronous_commit = on').execute(db);
  const today = siteDate('PE');
  // Lunch in Lima (UTC−5): the central room's lunch and its contractors' group are open.
  const lunchtime = Date.parse(`${today}T12:30:00-05:00`);
  const app: FastifyInstance = await buildServer({ database, registry, auth: { now: () => lunchtime } });
  const address = await app.listen({ host: '127.0.0.1', port: 0 });
  try {
    const room = (await db
      .selectFrom('dining_dining_room')
      .select(['IdComedor', 'IdEquipo'])
      .where('Descripcion', '=', 'COMEDOR CENTRAL SAN GABRIEL')
      .executeTakeFirstOrThrow()) as { IdComedor: number; IdEquipo: number };
    // Room for everyone in one sitting: the capacity check still runs.
    await db
      .updateTable('dining_dining_room')
      .set({ Capacidad: 10_000 })
      .where('IdComedor', '=', room.IdComedor)
      .execute();
    const keys = new DeviceKeys(db);
    const gateKey = (await keys.issue(1, 'BENCH')).key;
    const readerKey = (await keys.issue(Number(room.IdEquipo), 'BENCH')).key;
    const workers = await accreditWorkers(database, WORKERS, today);
    const documents = workers.map((_, i) => `CM${String(i).padStart(8, '0')}`);
    const cards = (
      (await db
        .selectFrom('identification_credential')
        .select('Numero')
        .where('Activo', '=', 'S')
        .execute()) as Array<{
        Numero: string;
      }>
    ).map((c) => c.Numero);
    const post = async (path: string, key: string, body: unknown) => {
      const response = await fetch(`${address}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Device ${key}` },
        body: JSON.stringify(body),
      });
      const answer = (await response.json()) as { result?: { allow?: boolean; reason?: string } };
      if (response.status !== 200) throw new Error(`${path}: ${response.status} ${JSON.stringify(answer)}`);
      return answer.result;
    };
    for (let i = 0; i < 50; i++) {
      await post('/api/acceso/decidir', gateKey, { IdPuerta: 1, Credencial: cards[i % cards.length] });
      await post('/api/comedor/decidir', readerKey, { Documento: 'CALENTAR' });
    }
    const gate = await load(READERS, async (caller, i) => {
      await post('/api/acceso/decidir', gateKey, {
        IdPuerta: 1 + (i % 2),
        Credencial: cards[(caller + i) % cards.length],
      });
    });
    report(`gate decidir, ${READERS} devices`, gate.times, gate.elapsed);
    const reasons = new Map<string, number>();
    let next = 0;
    const meals = await load(READERS, async () => {
      const answer = await post('/api/comedor/decidir', readerKey, {
        Documento: documents[next++ % documents.length],
      });
      const reason = String(answer?.reason);
      reasons.set(reason, (reasons.get(reason) ?? 0) + 1);
    });
    report(`dining decidir, ${READERS} readers`, meals.times, meals.elapsed);
    console.log(`  meal answers: ${[...reasons].map(([r, n]) => `${r} ${n}`).join(', ')}`);

    // The report over a large history.
    const started = Date.now();
    const services = (await db
      .selectFrom('dining_dining_service as s')
      .innerJoin('dining_dining_room as r', 'r.IdComedor', 's.IdComedor')
      .select(['s.IdServicio', 's.IdComedor', 's.Costo', 's.HoraInicio'])
      .where('r.IdDivision', '=', 1)
      .where('r.IdEquipo', 'is not', null)
      .where('s.Activo', '=', 'S')
      .execute()) as Array<{ IdServicio: number; IdComedor: number; Costo: number; HoraInicio: string }>;
    const companies = (
      (await db
        .selectFrom('administration_company')
        .select('IdCompania')
        .orderBy('IdCompania')
        .limit(8)
        .execute()) as Array<{
        IdCompania: number;
      }>
    ).map((c) => Number(c.IdCompania));
    const existing = Number(
      (
        (await db
          .selectFrom('dining_consumption')
          .select(db.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()) as { n: number }
      ).n,
    );
    const CHUNK = 500;
    const perDay = Math.ceil(CONSUMPTIONS / 365);
    for (let n = existing; n < CONSUMPTIONS; n += CHUNK) {
      const rows = Array.from({ length: Math.min(CHUNK, CONSUMPTIONS - n) }, (_, j) => {
        const k = n + j;
        const day = addDays(today, -1 - Math.floor(k / perDay));
        const service = services[k % services.length];
        const person = workers[Math.floor(k / services.length) % workers.length];
        const total = Math.round(Number(service.Costo) * 100);
        const company = k % 5 === 0 ? Math.round(total * 0.8) : total;
        return {
          IdCliente: 1,
          IdDivision: 1,
          IdComedor: service.IdComedor,
          IdServicio: service.IdServicio,
          IdPersona: person,
          IdCompania: companies[k % companies.length],
          IdEquipo: room.IdEquipo,
          Fecha: day,
          Hora: `${service.HoraInicio}:${String(k % 60).padStart(2, '0')}`,
          FechaHora: `${day}T17:00:00.000Z`,
          Resultado: 'P',
          CodigoMotivo: 'ALLOWED',
          Origen: 'E',
          TipoMarcacion: 'T',
          EnLinea: 'S',
          HoraDudosa: 'N',
          Ranura: 1,
          ImporteTotal: total,
          ImporteCompania: company,
          ImporteTrabajador: total - company,
          PorcentajeCompania: k % 5 === 0 ? 80 : 100,
          BaseCosto: 'P',
          Anulado: 'N',
          IdUsuarioCreacion: 'BENCH',
          FechaCreacion: `${day}T17:00:00.000Z`,
        };
      });
      // A person eats a service once a day: the history keeps the unique places apart by the day.
      await db
        .insertInto('dining_consumption')
        .values(rows)
        .onConflict((oc) => oc.doNothing())
        .execute();
    }
    // Loaded around the product: the report's running totals worked out again from the rows.
    await recountDays(db, 'dining_consumption', 1);
    await sql.raw(dialect === 'postgres' ? 'vacuum analyze' : 'analyze').execute(db);
    const total = Number(
      (
        (await db
          .selectFrom('dining_consumption')
          .select(db.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()) as { n: number }
      ).n,
    );
    console.log(
      `  loaded ${total.toLocaleString('en')} consumptions in ${((Date.now() - started) / 1000).toFixed(0)} s`,
    );

    const login = await request(`${address}/api/usuario/authenticate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'COMEDOR', password: 'Acredita#2026' }),
    }).then(
      (r) =>
        r.json() as Promise<{
          result: { accessToken: string; division: Array<{ IdPerfil: number; IdDivision: number }> };
        }>,
    );
    const chosen = login.result.division.find((d) => d.IdDivision === 1) ?? login.result.division[0];
    const session = await request(`${address}/api/usuario/refreshTokenbyperfil`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${login.result.accessToken}` },
      body: JSON.stringify({ idPerfil: chosen.IdPerfil, idDivision: chosen.IdDivision }),
    }).then((r) => r.json() as Promise<{ result: { accessToken: string } }>);
    const token = session.result.accessToken;
    const get = async (path: string) => {
      const response = await request(`${address}${path}`, { headers: { authorization: `Bearer ${token}` } });
      if (response.status !== 200) throw new Error(`${path}: ${response.status} ${await response.text()}`);
      return (await response.json()) as { result: { totalCount: number } };
    };
    for (const [label, query] of [
      ['reporte, a month of the division', `desde=${addDays(today, -30)}&hasta=${today}`],
      ['reporte, the whole year of the division', `desde=${addDays(today, -365)}&hasta=${today}`],
      [
        'reporte, one company, the whole year',
        `desde=${addDays(today, -365)}&hasta=${today}&IdCompania=${companies[1]}`,
      ],
    ]) {
      const path = `/api/comedor/reporte?${query}&take=25`;
      const rows = (await get(path)).result.totalCount;
      const times: number[] = [];
      const t0 = performance.now();
      for (let i = 0; i < 30; i++) {
        const s = performance.now();
        await get(path);
        times.push(performance.now() - s);
      }
      report(`${label} (${rows.toLocaleString('en')} meals)`, times, performance.now() - t0, 'calls/s');
    }
  } finally {
    await app.close();
  }
}

await eachDialect(args.dialects, args['postgres-url'], async (target, dialect) => {
  try {
    await run(target.database, dialect);
  } finally {
    await target.database.close().catch(() => {});
  }
});
