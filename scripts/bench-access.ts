/**
 * `npm run bench:access`: the gate's calls under load, on SQLite and PostgreSQL.
 *
 *   npm run bench:access -- --seconds 5 --devices 10 --markings 1000000 --dialects sqlite,postgres
 *
 * On a fresh demo database per dialect, with the server listening on 127.0.0.1 (in this process):
 * 1. `POST /api/acceso/decidir` from `devices` concurrent devices for `seconds`: decisions per second and
 *    p50/p95/p99 latency, each answer given after its marking and presence commit (SQLite
 *    synchronous=FULL; PostgreSQL synchronous_commit on); once with the devices in this process's
 *    event loop, once with them in a worker thread (the other core);
 * 2. the same transaction (the marking insert and the presence upsert) on the driver alone, from the
 *    same number of concurrent callers;
 * 3. `POST /api/acceso/marcaciones` batches of 1000: markings per second;
 * 4. `GET .../dashboarddotacion` and a page of `dashboarddotaciondetalle` once `markings` markings and
 *    2000 more accredited workers are stored: p50/p95 over 50 calls.
 */
import { parseArgs } from 'node:util';
import { Worker } from 'node:worker_threads';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { Database, DialectName } from '../src/server/db/connection.js';
import { seedDemo } from '../src/server/demo/seed.js';
import { recordIn } from '../src/server/features/access/gate.js';
import { prepareDatabase } from '../src/server/prepare.js';
import { buildServer } from '../src/server/server.js';
import { DeviceKeys } from '../src/server/services/site/device-keys.js';
import { loadDoors, loadHolder, loadSite } from '../src/server/services/site/loader.js';
import { ACCESS_TABLES } from '../src/server/services/site/tables.js';
import type { Presented } from '../src/shared/access/decision.js';
import { report, request, timed } from './bench/measure.js';
import { eachDialect, registry, signIn } from './bench/setup.js';

const { values: args } = parseArgs({
  options: {
    seconds: { type: 'string', default: '5' },
    devices: { type: 'string', default: '10' },
    markings: { type: 'string', default: '1000000' },
    dialects: { type: 'string', default: 'sqlite,postgres' },
    'postgres-url': {
      type: 'string',
      default: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
    },
  },
});
const SECONDS = Number(args.seconds);
const DEVICES = Number(args.devices);
const MARKINGS = Number(args.markings);

const load = (callers: number, call: (caller: number, i: number) => Promise<unknown>) =>
  timed(SECONDS, callers, call);

/** A line of decisions made, and the refusals for want of time apart. */
function made(label: string, run: { times: number[]; elapsed: number; refused: number }) {
  report(label, run.times, run.elapsed);
  if (run.refused) console.log(`    and ${run.refused} refused when the budget ran out (not counted above)`);
}

async function run(database: Database, dialect: DialectName) {
  const db = database.db;
  await prepareDatabase(database, registry);
  await seedDemo(database, registry);
  if (dialect === 'postgres') await sql.raw('set synchronous_commit = on').execute(db);
  const app: FastifyInstance = await buildServer({ database, registry });
  const address = await app.listen({ host: '127.0.0.1', port: 0 });
  try {
    const keys = new DeviceKeys(db);
    const key = (await keys.issue(1, 'BENCH')).key;
    const cards = (
      (await db
        .selectFrom('identification_credential')
        .select('Numero')
        .where('Activo', '=', 'S')
        .execute()) as Array<{ Numero: string }>
    ).map((c) => c.Numero);
    const post = async (path: string, body: unknown) => {
      const response = await fetch(`${address}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Device ${key}` },
        body: JSON.stringify(body),
      });
      const answer = (await response.json()) as { result?: { allow?: boolean; reason?: string } };
      if (response.status !== 200) throw new Error(`${path}: ${response.status} ${JSON.stringify(answer)}`);
      return answer;
    };
    /** A decision made (not refused because the server's budget ran out). */
    const decide = async (door: number, card: string) =>
      (await post('/api/acceso/decidir', { IdPuerta: door, Credencial: card })).result?.reason !==
      'SYSTEM_UNAVAILABLE';
    // Warm-up (statement caches, connections).
    for (let i = 0; i < 50; i++) await decide(1 + (i % 2), cards[i % cards.length]);

    const decided = await load(DEVICES, (worker, i) =>
      decide(1 + (i % 2), cards[(worker + i) % cards.length]),
    );
    made(`decidir, ${DEVICES} devices over loopback`, decided);
    // The same with the devices in a thread of their own (the machine's other core), as gates are.
    const apart = await new Promise<{ times: number[]; elapsed: number; failed: string; refused: number }>(
      (resolve, reject) => {
        const worker = new Worker(new URL('./bench/gate-devices.mjs', import.meta.url), {
          workerData: { address, key, cards, devices: DEVICES, seconds: SECONDS },
        });
        worker.once('message', resolve);
        worker.once('error', reject);
      },
    );
    if (apart.failed) throw new Error(`decidir: ${apart.failed}`);
    made(`decidir, ${DEVICES} devices in another thread`, apart);

    // The product's own statements of a decision on the driver, no HTTP and no shared commits: the
    // device's key, the holder's rows, the marking with its presence and day, in one transaction.
    const doors = await loadDoors(db, [1, 2]);
    const site = await loadSite(db, 1, 1, app.qualifications);
    const same = await load(DEVICES, async (worker, i) => {
      const device = await keys.verify(key);
      if (!device) throw new Error('the device key was not found');
      const presented: Presented = { kind: 'credential', Numero: cards[(worker + i) % cards.length] };
      const found = doors.get(1 + (i % 2));
      if (!found) throw new Error('no door');
      const loaded = await loadHolder(db, 1, 1, presented, app.qualifications);
      const at = new Date();
      await db
        .transaction()
        .execute((trx) =>
          recordIn(trx, device, { ...found, presented, at, doubtful: false, online: true }, loaded, site),
        );
    });
    report("the product's statements on the driver", same.times, same.elapsed);

    // The write-only floor: the marking and the presence row alone, in one transaction.
    const driver = await load(DEVICES, async (worker, i) => {
      const at = Date.now();
      await db.transaction().execute(async (trx) => {
        const row = await trx
          .insertInto(ACCESS_TABLES.marking)
          .values({
            IdCliente: 1,
            IdDivision: 1,
            IdPersona: 1,
            Fecha: '2026-11-23',
            Hora: '07:00:00',
            Resultado: 'P',
            IdZona: 1,
            IdPuerta: 1,
            IdEquipo: 1,
            Origen: 'E',
            Funcion: 'E',
            TipoMarcacion: 'C',
            Automatico: 'S',
            EnLinea: 'S',
            FechaHora: new Date(at).toISOString(),
            HoraDudosa: 'N',
            CodigoMotivo: 'ALLOWED',
            IdMarcaDispositivo: `driver-${worker}-${i}`,
          })
          .returning('IdMarcacion')
          .executeTakeFirstOrThrow();
        await trx
          .insertInto(ACCESS_TABLES.presence)
          .values({
            IdDivision: 1,
            Titular: `P:${900000 + worker}`,
            IdCliente: 1,
            IdPersona: null,
            IdZona: 1,
            IdPuerta: 1,
            Funcion: 'E',
            Instante: at,
            IdMarcacion: Number(row.IdMarcacion),
          })
          .onConflict((oc) =>
            oc
              .columns(['IdDivision', 'Titular'])
              .doUpdateSet({ Instante: at, IdMarcacion: Number(row.IdMarcacion) }),
          )
          .execute();
      });
    });
    report('write-only floor: marking and presence', driver.times, driver.elapsed);
    const rate = (r: { times: number[]; elapsed: number }) => r.times.length / r.elapsed;
    console.log(
      `  product / its statements on the driver: ${((100 * rate(apart)) / rate(same)).toFixed(0)} % (devices in another thread), ` +
        `${((100 * rate(decided)) / rate(same)).toFixed(0)} % (over loopback); ` +
        `its statements / the write-only floor: ${((100 * rate(same)) / rate(driver)).toFixed(0)} %`,
    );

    let sequence = 0;
    const batches = await load(2, async () => {
      const base = Date.now() - 3_600_000;
      await post('/api/acceso/marcaciones', {
        Marcas: Array.from({ length: 1000 }, (_, j) => ({
          IdMarca: `lote-${sequence++}`,
          IdPuerta: 1 + (j % 2),
          Credencial: cards[j % cards.length],
          FechaHora: new Date(base + j * 1000).toISOString(),
        })),
      });
    });
    report('marcaciones, batches of 1000 (2 devices)', batches.times, batches.elapsed, 'markings/s', 1000);

    // Headcount over a large history: MARKINGS markings and 2000 more accredited workers.
    const started = Date.now();
    const existing = Number(
      (
        (await db
          .selectFrom(ACCESS_TABLES.marking)
          .select(db.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()) as {
          n: number;
        }
      ).n,
    );
    const template = (await db
      .selectFrom('accreditation_accreditation')
      .selectAll()
      .where('IdDivision', '=', 1)
      .where('IdEntidad', '=', 'T')
      .executeTakeFirstOrThrow()) as Record<string, unknown>;
    const person = (await db
      .selectFrom('administration_person')
      .selectAll()
      .where('IdPersona', '=', template.IdPersona as number)
      .executeTakeFirstOrThrow()) as Record<string, unknown>;
    const workers: number[] = [];
    for (let i = 0; i < 2000; i += 500) {
      const { IdPersona: _id, ...fields } = person;
      const rows = Array.from({ length: 500 }, (_, j) => ({
        ...fields,
        Documento: `BA${String(i + j).padStart(8, '0')}`,
      }));
      const inserted = (await db
        .insertInto('administration_person')
        .values(rows)
        .returning('IdPersona')
        .execute()) as Array<{ IdPersona: number }>;
      workers.push(...inserted.map((r) => Number(r.IdPersona)));
    }
    const { IdAcreditacion: _a, ...acc } = template;
    for (let i = 0; i < workers.length; i += 500)
      await db
        .insertInto('accreditation_accreditation')
        .values(
          workers.slice(i, i + 500).map((id) => ({
            ...acc,
            IdPersona: id,
            Estado: 'A',
            FechaInicio: '2026-01-01',
            FechaFin: '2027-12-31',
          })),
        )
        .execute();
    const CHUNK = dialect === 'postgres' ? 1000 : 500;
    const day0 = Date.now() - 180 * 86_400_000;
    for (let n = existing; n < MARKINGS; n += CHUNK) {
      const rows = Array.from({ length: Math.min(CHUNK, MARKINGS - n) }, (_, j) => {
        const k = n + j;
        const at = day0 + Math.floor(k / workers.length) * 43_200_000 + (k % 600) * 1000;
        return {
          IdCliente: 1,
          IdDivision: 1,
          IdPersona: workers[k % workers.length],
          Fecha: new Date(at).toISOString().slice(0, 10),
          Hora: new Date(at).toISOString().slice(11, 19),
          Resultado: 'P',
          IdZona: 1,
          IdPuerta: k % 2 ? 2 : 1,
          IdEquipo: 1,
          Origen: 'E',
          Funcion: k % 2 ? 'S' : 'E',
          TipoMarcacion: 'C',
          Automatico: 'S',
          EnLinea: 'N',
          FechaHora: new Date(at).toISOString(),
          HoraDudosa: 'N',
          CodigoMotivo: 'ALLOWED',
        };
      });
      await db.insertInto(ACCESS_TABLES.marking).values(rows).execute();
    }
    // Their presence: half of them inside.
    for (let i = 0; i < workers.length; i += 500)
      await db
        .insertInto(ACCESS_TABLES.presence)
        .values(
          workers.slice(i, i + 500).map((id, j) => ({
            IdDivision: 1,
            Titular: `P:${id}`,
            IdCliente: 1,
            IdPersona: id,
            IdZona: 1,
            IdPuerta: 1,
            Funcion: (i + j) % 2 ? 'S' : 'E',
            Instante: Date.now() - 3_600_000,
            IdMarcacion: 1,
          })),
        )
        .onConflict((oc) => oc.columns(['IdDivision', 'Titular']).doNothing())
        .execute();
    await sql.raw(dialect === 'postgres' ? 'vacuum analyze' : 'analyze').execute(db);
    const total = Number(
      (
        (await db
          .selectFrom(ACCESS_TABLES.marking)
          .select(db.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()) as {
          n: number;
        }
      ).n,
    );
    console.log(
      `  loaded ${total.toLocaleString('en')} markings, ${workers.length + 13} accredited workers in ${((Date.now() - started) / 1000).toFixed(0)} s`,
    );

    // Signed in as the console is, the sign-in challenge answered.
    const token = await signIn(address, { division: 1 });
    const get = async (path: string) => {
      const response = await request(`${address}${path}`, { headers: { authorization: `Bearer ${token}` } });
      if (response.status !== 200) throw new Error(`${path}: ${response.status} ${await response.text()}`);
      await response.json();
    };
    for (const [label, path] of [
      ['dashboarddotacion', '/api/acreditacionsolicitud/dashboarddotacion'],
      [
        'dashboarddotaciondetalle (present, page of 15)',
        '/api/acreditacionsolicitud/dashboarddotaciondetalle?TipoConsulta=P&TipoEntidad=T&requireTotalCount=true',
      ],
    ]) {
      await get(path);
      const times: number[] = [];
      const t0 = performance.now();
      for (let i = 0; i < 50; i++) {
        const s = performance.now();
        await get(path);
        times.push(performance.now() - s);
      }
      report(label, times, performance.now() - t0, 'calls/s');
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
