/**
 * `npm run bench:list`: loads N persons (default 100 000) and measures the person list endpoint
 * (a page of 25, filtered by company, sorted by surname, with its total) through the running
 * server, side by side with the same SQL run directly on the driver, on SQLite and on PostgreSQL.
 *
 *   npm run bench:list -- --n 100000 --seconds 10 --connections 16 --dialects sqlite,postgres
 *
 * Prints requests per second, p50/p95/p99 latency and the server/driver ratio at p50.
 */
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import SqliteDatabase from 'better-sqlite3';
import pg from 'pg';
import { parseListQuery } from '../src/server/crud/list-query.js';
import { CrudService } from '../src/server/crud/service.js';
import { type Database, openDatabase, SQLITE_FILE } from '../src/server/db/connection.js';
import { eachDialect, load, registry, signIn, startServer } from './bench/setup.js';

const { values: args } = parseArgs({
  options: {
    n: { type: 'string', default: process.env.BENCH_N ?? '100000' },
    seconds: { type: 'string', default: '10' },
    connections: { type: 'string', default: '16' },
    dialects: { type: 'string', default: 'sqlite,postgres' },
    workers: { type: 'string', default: '1' },
    'postgres-url': {
      type: 'string',
      default: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
    },
  },
});
const N = Number(args.n);
const SECONDS = Number(args.seconds);
const CONNECTIONS = Number(args.connections);
const person = registry.require('person');
let clientId = 0;

interface Stats {
  requests: number;
  rps: number;
  p50: number;
  p95: number;
  p99: number;
}

function summarize(latenciesMs: number[], seconds: number): Stats {
  const sorted = Float64Array.from(latenciesMs).sort();
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  return {
    requests: sorted.length,
    rps: sorted.length / seconds,
    p50: at(0.5),
    p95: at(0.95),
    p99: at(0.99),
  };
}

/** The queries both sides run: the first pages of every contractor's people, by surname. */
function queries(companies: number[]): Array<{ company: number; offset: number }> {
  return companies.flatMap((company) => [0, 25, 50].map((offset) => ({ company, offset })));
}

async function hammer(
  url: string,
  token: string,
  paths: string[],
  seconds: number,
  connections: number,
): Promise<Stats> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const latencies: number[] = [];
  const until = performance.now() + seconds * 1000;
  let failures = 0;
  let next = 0;
  const one = (path: string) =>
    new Promise<number>((done, fail) => {
      const started = performance.now();
      http
        .get(`${url}${path}`, { agent, headers: { authorization: `Bearer ${token}` } }, (res) => {
          if (res.statusCode !== 200 || !res.headers['content-range']) failures++;
          res.resume();
          res.on('end', () => done(performance.now() - started));
        })
        .on('error', fail);
    });
  const worker = async () => {
    while (performance.now() < until) latencies.push(await one(paths[next++ % paths.length]));
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: connections }, worker));
  const elapsed = (performance.now() - started) / 1000;
  agent.destroy();
  if (failures) throw new Error(`${failures} requests failed`);
  return summarize(latencies, elapsed);
}

/** The same page and count the service runs, compiled by the service's own query builder. */
function compiled(database: Database, company: number, offset: number) {
  const crud = new CrudService(database, registry);
  const query = parseListQuery(person, {
    filter: JSON.stringify({ IdCompania: company }),
    sort: '["Apellido","ASC"]',
    range: `[${offset},${offset + 24}]`,
  });
  return crud.compileList(person, query, { userId: 'ADMIN', clientId });
}

async function driverSqlite(dataDir: string, companies: number[], seconds: number): Promise<Stats> {
  const sqlite = new SqliteDatabase(join(dataDir, SQLITE_FILE), { readonly: true });
  const database = openDatabase({ dataDir });
  const statements = queries(companies).map(({ company, offset }) => {
    const { page, count } = compiled(database, company, offset);
    return {
      page: sqlite.prepare(page.sql),
      pageParams: page.parameters,
      count: sqlite.prepare(count.sql),
      countParams: count.parameters,
    };
  });
  await database.close();
  const latencies: number[] = [];
  const until = performance.now() + seconds * 1000;
  const started = performance.now();
  for (let i = 0; performance.now() < until; i++) {
    const s = statements[i % statements.length];
    const t0 = performance.now();
    s.page.all(...(s.pageParams as unknown[]));
    s.count.get(...(s.countParams as unknown[]));
    latencies.push(performance.now() - t0);
  }
  sqlite.close();
  return summarize(latencies, (performance.now() - started) / 1000);
}

async function driverPostgres(
  url: string,
  companies: number[],
  seconds: number,
  connections: number,
): Promise<Stats> {
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  const database = openDatabase({ databaseUrl: url, dataDir: tmpdir() });
  const statements = queries(companies).map(({ company, offset }, index) => ({
    ...compiled(database, company, offset),
    index,
  }));
  await database.close();
  const latencies: number[] = [];
  const until = performance.now() + seconds * 1000;
  let next = 0;
  const worker = async () => {
    while (performance.now() < until) {
      const s = statements[next++ % statements.length];
      const t0 = performance.now();
      // Named, as the server sends them, so PostgreSQL plans each once per connection on both sides.
      await Promise.all([
        pool.query({ name: `p${s.index}`, text: s.page.sql, values: s.page.parameters as unknown[] }),
        pool.query({ name: `c${s.index}`, text: s.count.sql, values: s.count.parameters as unknown[] }),
      ]);
      latencies.push(performance.now() - t0);
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: connections }, worker));
  const elapsed = (performance.now() - started) / 1000;
  await pool.end();
  return summarize(latencies, elapsed);
}

const fmt = (s: Stats) =>
  `${Math.round(s.rps).toString().padStart(7)} req/s   p50 ${s.p50.toFixed(2)} ms   p95 ${s.p95.toFixed(2)} ms   p99 ${s.p99.toFixed(2)} ms`;

console.log(
  `bench:list  N=${N} persons, ${SECONDS} s per run, ${CONNECTIONS} connections, ${args.workers} server process(es), node ${process.version}`,
);
await eachDialect(args.dialects, args['postgres-url'], async (target, dialect, started) => {
  const loaded = await load(target.database, N);
  clientId = loaded.clientId;
  const companies = loaded.companies;
  await target.database.close();
  const server = await startServer(target.env, args.workers);
  started(server);
  const token = await signIn(server.url);
  const paths = queries(companies).map(
    ({ company, offset }) =>
      `/api/rest/person?filter=${encodeURIComponent(JSON.stringify({ IdCompania: company }))}` +
      `&sort=${encodeURIComponent('["Apellido","ASC"]')}&range=${encodeURIComponent(`[${offset},${offset + 24}]`)}`,
  );
  await hammer(server.url, token, paths, 2, CONNECTIONS); // warm-up
  // Latency: one request at a time on each side, so neither waits in a queue.
  const serverLatency = await hammer(server.url, token, paths, SECONDS, 1);
  // Throughput: many connections at once.
  const serverLoad = await hammer(server.url, token, paths, SECONDS, CONNECTIONS);
  // The driver runs alone on the machine.
  server.child.kill('SIGTERM');
  const driverLatency =
    dialect === 'sqlite'
      ? await driverSqlite(target.env.DATA_DIR, companies, SECONDS)
      : await driverPostgres(target.env.DATABASE_URL, companies, SECONDS, 1);
  const driverLoad =
    dialect === 'sqlite'
      ? driverLatency
      : await driverPostgres(target.env.DATABASE_URL, companies, SECONDS, CONNECTIONS);
  console.log(`  one connection        server ${fmt(serverLatency)}`);
  console.log(`                        driver ${fmt(driverLatency)}`);
  console.log(`  ${String(CONNECTIONS).padStart(2)} connections        server ${fmt(serverLoad)}`);
  if (dialect === 'postgres') console.log(`                        driver ${fmt(driverLoad)}`);
  console.log(
    `  server/driver at p50 (one connection): ${(serverLatency.p50 / driverLatency.p50).toFixed(2)}x`,
  );
});
