/**
 * `npm run bench:dashboard`: loads N requests (default 1 000 000) over 200 contractors and
 * measures the requester's and the authoriser's dashboard calls and a filtered page of requests
 * through the running server, side by side with the same SQL run directly on the driver, on
 * SQLite and on PostgreSQL.
 *
 *   npm run bench:dashboard -- --n 1000000 --calls 300 --dialects sqlite,postgres
 *
 * Prints p50 and p95 of each call, one call at a time.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import SqliteDatabase from 'better-sqlite3';
import { type CompiledQuery, sql } from 'kysely';
import pg from 'pg';
import { type Database, openDatabase, SQLITE_FILE } from '../src/server/db/connection.js';
import { DEMO_PASSWORD } from '../src/server/demo/security.js';
import { recount } from '../src/server/features/accreditation/counts.js';
import { Dashboards } from '../src/server/features/accreditation/dashboards.js';
import { RequestLists, requestQuery } from '../src/server/features/accreditation/lists.js';
import { periodOf } from '../src/server/features/accreditation/period.js';
import type { Principal } from '../src/server/principal.js';
import type { EntityCode } from '../src/shared/accreditation.js';
import { eachDialect, load, registry, startServer } from './bench/setup.js';

const { values: args } = parseArgs({
  options: {
    n: { type: 'string', default: process.env.BENCH_N ?? '1000000' },
    calls: { type: 'string', default: '300' },
    dialects: { type: 'string', default: 'sqlite,postgres' },
    'postgres-url': {
      type: 'string',
      default: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
    },
  },
});
const N = Number(args.n);
const CALLS = Number(args.calls);
const PERSONS = 100_000;
const DAY = 86_400_000;

/** Deterministic pseudo-random numbers. */
function random(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Context {
  clientId: number;
  divisionId: number;
  requesterCompany: number;
}

/** N requests over the bench contractors and the demo requester's company, in the first division. */
async function loadRequests(database: Database, companies: number[]): Promise<Context> {
  const db = database.db;
  const t = (name: string) => registry.require(name).table;
  const division = (await db
    .selectFrom(t('division'))
    .select(['IdDivision', 'IdCliente'])
    .orderBy('IdDivision')
    .executeTakeFirstOrThrow()) as {
    IdDivision: number;
    IdCliente: number;
  };
  const requester = (await db
    .selectFrom(t('user-profile'))
    .select('IdCompania')
    .where('IdUsuario', '=', 'SOLICITANTE')
    .where('IdDivision', '=', division.IdDivision)
    .executeTakeFirstOrThrow()) as { IdCompania: number };
  const all = [requester.IdCompania, ...companies].slice(0, 200);
  const now = new Date().toISOString();
  await db
    .insertInto(t('contract'))
    .values(
      all.slice(1).map((company, i) => ({
        IdCliente: division.IdCliente,
        IdDivision: division.IdDivision,
        NumeroContrato: `CT-BENCH-${i}`,
        IdCompaniaContratista: company,
        IdCompaniaMandante: company,
        Asunto: 'SERVICIOS DE PRUEBA',
        FechaInicio: '2024-01-01',
        FechaFin: '2030-12-31',
        TipoDotacion: 'C',
        Vehiculos: 'S',
        Activo: 'S',
        IdUsuarioCreacion: 'BENCH',
        FechaCreacion: now,
      })),
    )
    .execute();
  const contracts = new Map(
    (
      (await db
        .selectFrom(t('contract'))
        .select(['IdContrato', 'IdCompaniaContratista'])
        .where('IdDivision', '=', division.IdDivision)
        .execute()) as Array<{
        IdContrato: number;
        IdCompaniaContratista: number;
      }>
    ).map((c) => [c.IdCompaniaContratista, c.IdContrato]),
  );
  const people = new Map<number, number[]>();
  for (const p of (await db.selectFrom(t('person')).select(['IdPersona', 'IdCompania']).execute()) as Array<{
    IdPersona: number;
    IdCompania: number;
  }>) {
    if (!people.has(p.IdCompania)) people.set(p.IdCompania, []);
    people.get(p.IdCompania)?.push(p.IdPersona);
  }
  const vehicles = (
    (await db.selectFrom(t('vehicle')).select('IdVehiculo').execute()) as Array<{ IdVehiculo: number }>
  ).map((v) => v.IdVehiculo);
  const profiles = (await db
    .selectFrom(t('accreditation-profile'))
    .select(['IdPerfilAcreditacion', 'IdEntidad'])
    .execute()) as Array<{
    IdPerfilAcreditacion: number;
    IdEntidad: EntityCode;
  }>;
  const profileOf = (entity: EntityCode) =>
    profiles.find((p) => p.IdEntidad === entity)?.IdPerfilAcreditacion;
  const rnd = random(5);
  const statuses = ['A', 'A', 'A', 'A', 'P', 'P', 'O', 'R', 'I', 'I'];
  // What the engine counts in each sending's and decision's transaction, for the efficiency
  // report: each request's first sending, its decision by one of 20 authorisers, and its lines'
  // decisions by requirement, with an attention of 1 to 96 hours; counted as the engine counts.
  const attention = new Map<string, { n: number; total: number; max: number }>();
  // The holders with an open request already (the demo's), per contract.
  const opened = new Set<string>(
    (
      (await db
        .selectFrom(t('request'))
        .select(['IdEntidad', 'IdPersona', 'IdVehiculo', 'IdContrato'])
        .where('TipoSolicitud', '=', 'M')
        .where('EstadoAprobacion', 'in', ['I', 'P', 'O'])
        .execute()) as Array<{
        IdEntidad: string;
        IdPersona: number | null;
        IdVehiculo: number | null;
        IdContrato: number;
      }>
    ).map((r) => `${r.IdEntidad}:${r.IdPersona ?? r.IdVehiculo}:${r.IdContrato}`),
  );
  const requirements = (
    (await db.selectFrom(t('requirement')).select('IdRequisito').execute()) as Array<{ IdRequisito: number }>
  ).map((r) => String(r.IdRequisito));
  const attend = (
    month: string,
    entity: string,
    axis: string,
    key: string,
    outcome: string,
    minutes: number,
  ) => {
    const id = [month, entity, axis, key, outcome].join('|');
    const cell = attention.get(id) ?? { n: 0, total: 0, max: 0 };
    cell.n += 1;
    cell.total += minutes;
    cell.max = Math.max(cell.max, minutes);
    attention.set(id, cell);
  };
  const started = Date.now();
  const nowMs = Date.now();
  const BATCH = 1000;
  for (let done = 0; done < N; done += BATCH) {
    const rows = [];
    for (let i = done; i < Math.min(N, done + BATCH); i++) {
      const company = all[i % all.length];
      const roll = rnd();
      const entity: EntityCode = roll < 0.7 ? 'T' : roll < 0.9 ? 'V' : 'P';
      const mine = people.get(company) ?? people.get(requester.IdCompania) ?? [];
      const requested = new Date(nowMs - Math.floor(rnd() * 730 * DAY));
      const start = new Date(requested.getTime() + 3 * DAY).toISOString().slice(0, 10);
      const holder =
        entity === 'T'
          ? mine[Math.floor(rnd() * mine.length)]
          : entity === 'V'
            ? vehicles[Math.floor(rnd() * vehicles.length)]
            : null;
      let status = statuses[Math.floor(rnd() * statuses.length)];
      // A holder has one open request per contract (the database's partial unique index): a
      // second one drawn open is made an approved one instead.
      const open = `${entity}:${holder}:${contracts.get(company)}`;
      if (holder !== null && ['I', 'P', 'O'].includes(status)) {
        if (opened.has(open)) status = 'A';
        else opened.add(open);
      }
      if (status !== 'I') {
        attend(requested.toISOString().slice(0, 7), entity, 'S', '', 'P', 0);
        if (status !== 'P') {
          const minutes = Math.round(60 + rnd() * 95 * 60);
          const decided = new Date(requested.getTime() + minutes * 60_000).toISOString().slice(0, 7);
          attend(decided, entity, 'U', `AUT${Math.floor(rnd() * 20)}`, status, minutes);
          for (let k = 0; k < 3; k++)
            attend(
              decided,
              entity,
              'R',
              requirements[Math.floor(rnd() * requirements.length)],
              status,
              minutes,
            );
        }
      }
      rows.push({
        IdCliente: division.IdCliente,
        IdDivision: division.IdDivision,
        IdCompania: company,
        TipoSolicitud: 'M',
        IdEntidad: entity,
        IdContrato: contracts.get(company),
        IdPerfilAcreditacion: profileOf(entity),
        IdPersona: entity === 'T' ? holder : null,
        IdVehiculo: entity === 'V' ? holder : null,
        MotivoVisita: entity === 'P' ? 'VISITA DE PRUEBA' : null,
        FechaInicio: start,
        FechaFin: start,
        FechaSolicitud: requested.toISOString(),
        EstadoAprobacion: status,
        SolicitudCompleta: 'S',
        IndisciplinaRechazo: 'N',
        IdUsuarioCreacion: 'BENCH',
        FechaCreacion: now,
      });
    }
    await db.insertInto(t('request')).values(rows).execute();
  }
  const cells = [...attention.entries()].map(([id, cell]) => {
    const [Mes, IdEntidad, Eje, Clave, Resultado] = id.split('|');
    return {
      IdCliente: division.IdCliente,
      IdDivision: division.IdDivision,
      Mes,
      TipoSolicitud: 'M',
      IdEntidad,
      Eje,
      Clave,
      Resultado,
      Cantidad: cell.n,
      MinutosTotal: cell.total,
      MinutosMax: cell.max,
      IdUsuarioCreacion: 'BENCH',
      FechaCreacion: now,
    };
  });
  await db.deleteFrom(t('request-attention')).where('IdCliente', '=', division.IdCliente).execute();
  for (let i = 0; i < cells.length; i += 500)
    await db
      .insertInto(t('request-attention'))
      .values(cells.slice(i, i + 500))
      .execute();
  console.log(`  attention counted into ${cells.length} rows`);
  // A bulk load goes around the service: the counters are recounted once, as after an import.
  await db
    .transaction()
    .execute((trx) =>
      recount({ db: trx, dialect: database.dialect }, registry, { clientId: division.IdCliente }),
    );
  await sql.raw(database.dialect === 'postgres' ? 'vacuum analyze' : 'analyze').execute(db);
  console.log(
    `  loaded ${N} requests over ${all.length} contractors in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
  return {
    clientId: division.IdCliente,
    divisionId: division.IdDivision,
    requesterCompany: requester.IdCompania,
  };
}

async function signInAs(url: string, username: string): Promise<string> {
  const post = async (path: string, body: object, token?: string) => {
    const res = await fetch(`${url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${path} answered ${res.status}: ${await res.text()}`);
    return ((await res.json()) as { result: Record<string, unknown> }).result;
  };
  const login = await post('/api/usuario/authenticate', { username, password: DEMO_PASSWORD });
  const division = (login.division as Array<{ IdPerfil: number; IdDivision: number }>)[0];
  const session = await post(
    '/api/usuario/refreshTokenbyperfil',
    { idPerfil: division.IdPerfil, idDivision: division.IdDivision },
    login.accessToken as string,
  );
  return session.accessToken as string;
}

interface Timing {
  p50: number;
  p95: number;
}
function timing(ms: number[]): Timing {
  const sorted = Float64Array.from(ms).sort();
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  return { p50: at(0.5), p95: at(0.95) };
}

async function overHttp(url: string, token: string, paths: string[]): Promise<Timing> {
  const times: number[] = [];
  for (let i = 0; i < CALLS + 20; i++) {
    const t0 = performance.now();
    const res = await fetch(`${url}${paths[i % paths.length]}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    if (!res.ok) throw new Error(`${paths[i % paths.length]} answered ${res.status}: ${await res.text()}`);
    await res.arrayBuffer();
    if (i >= 20) times.push(performance.now() - t0);
  }
  return timing(times);
}

/** The same statements on the driver alone: better-sqlite3, or a pg client. */
async function onDriver(
  dialect: string,
  env: Record<string, string>,
  statements: CompiledQuery[][],
): Promise<Timing> {
  const times: number[] = [];
  if (dialect === 'sqlite') {
    const sqlite = new SqliteDatabase(join(env.DATA_DIR, SQLITE_FILE), { readonly: true });
    const prepared = statements.map((group) =>
      group.map((q) => ({ s: sqlite.prepare(q.sql), p: q.parameters as unknown[] })),
    );
    for (let i = 0; i < CALLS + 20; i++) {
      const t0 = performance.now();
      for (const q of prepared[i % prepared.length]) q.s.all(...q.p);
      if (i >= 20) times.push(performance.now() - t0);
    }
    sqlite.close();
  } else {
    const client = new pg.Client({ connectionString: env.DATABASE_URL });
    await client.connect();
    for (let i = 0; i < CALLS + 20; i++) {
      const t0 = performance.now();
      for (const q of statements[i % statements.length]) await client.query(q.sql, q.parameters as unknown[]);
      if (i >= 20) times.push(performance.now() - t0);
    }
    await client.end();
  }
  return timing(times);
}

const ms = (n: number) => `${n.toFixed(2)} ms`.padStart(9);
/** A process's resident memory now and at its peak (VmRSS, VmHWM from /proc), in MB. */
function memoryOf(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0) / 1024;
  return { rss: kb('VmRSS'), peak: kb('VmHWM') };
}
console.log(`bench:dashboard  N=${N} requests, ${CALLS} calls each, one at a time, node ${process.version}`);
await eachDialect(args.dialects, args['postgres-url'], async (target, dialect, started) => {
  const loaded = await load(target.database, PERSONS);
  const ctx = await loadRequests(target.database, loaded.companies);
  // The statements the server runs, built by the same code, for the driver's side.
  const queries = openDatabase(
    dialect === 'sqlite'
      ? { dataDir: target.env.DATA_DIR }
      : { databaseUrl: target.env.DATABASE_URL, dataDir: tmpdir() },
  );
  const dashboards = new Dashboards(queries.db, registry);
  const lists = new RequestLists(queries, registry);
  const at: Principal = { userId: 'BENCH', clientId: ctx.clientId, divisionId: ctx.divisionId };
  const now = Date.now();
  const monthSets = ['CantMeses=2', `CantYear=${new Date().getUTCFullYear()}&CantMonth=1,2,3`, 'CantMeses=6'];
  const spans = (q: string) => periodOf(Object.fromEntries(new URLSearchParams(q)), now);
  const entities: EntityCode[] = ['T', 'V', 'P'];
  const requesterSql = monthSets.map((q) => [
    dashboards.countsQuery(at, entities, spans(q), ctx.requesterCompany).compile(),
  ]);
  const authoriserSets = ['CantMeses=2', 'CantMeses=3', 'CantMeses=6'];
  const authoriserSql = authoriserSets.map((q) => [dashboards.countsQuery(at, entities, spans(q)).compile()]);
  const filter = encodeURIComponent(JSON.stringify(['EstadoAprobacion', '=', 'P']));
  const pageSql = [0, 10, 20].map((skip) => {
    const { page, count } = lists.queries(
      { principal: at, entities, rows: [] },
      requestQuery({ skip, take: 10, filter: JSON.stringify(['EstadoAprobacion', '=', 'P']) }),
    );
    return [page.compile(), count.compile()];
  });
  await queries.close();
  await target.database.close();
  const server = await startServer(target.env);
  started(server);
  const requester = await signInAs(server.url, 'SOLICITANTE');
  const authoriser = await signInAs(server.url, 'AUTORIZADOR');
  const base = '/api/acreditacionsolicitud';
  const rows: Array<[string, Timing, Timing]> = [];
  rows.push([
    'requester dashboard',
    await overHttp(
      server.url,
      requester,
      monthSets.map((q) => `${base}/dashboard?${q}`),
    ),
    await onDriver(dialect, target.env, requesterSql),
  ]);
  rows.push([
    'authoriser dashboard',
    await overHttp(
      server.url,
      authoriser,
      authoriserSets.map((q) => `${base}/dashboardAutorizador?${q}`),
    ),
    await onDriver(dialect, target.env, authoriserSql),
  ]);
  rows.push([
    'pending requests, a page of 10',
    await overHttp(
      server.url,
      authoriser,
      [0, 10, 20].map((skip) => `${base}/filtrar?skip=${skip}&take=10&filter=${filter}`),
    ),
    await onDriver(dialect, target.env, pageSql),
  ]);
  console.log(
    `  ${'call'.padEnd(34)} ${'server p50'.padStart(10)} ${'p95'.padStart(9)}   ${'driver p50'.padStart(10)} ${'p95'.padStart(9)}`,
  );
  for (const [name, http, driver] of rows)
    console.log(`  ${name.padEnd(34)} ${ms(http.p50)} ${ms(http.p95)}   ${ms(driver.p50)} ${ms(driver.p95)}`);

  // The efficiency report over the year's months and the last three (aim: 200 ms at p95).
  const year = new Date().getUTCFullYear();
  const month = new Date().getUTCMonth() + 1;
  const report = await overHttp(server.url, authoriser, [
    `/api/reporte/eficiencia?Anio=${year}&MesDesde=1&MesHasta=${month}`,
    `/api/reporte/eficiencia?Anio=${year - 1}&MesDesde=1&MesHasta=12`,
    `/api/reporte/eficiencia?Anio=${year}&MesDesde=${Math.max(1, month - 2)}&MesHasta=${month}&IdEntidad=T`,
  ]);
  console.log(`  ${'efficiency report (aim p95 200 ms)'.padEnd(34)} ${ms(report.p50)} ${ms(report.p95)}`);

  // A query's workbook of about 100 000 rows, streamed, from a server just started (so its peak
  // is the export's, not the calls' before it): its resident memory idle and at the peak (aim 250 MB).
  const counted = async (url: string, token: string, range: string) =>
    (
      (await (
        await fetch(`${url}/api/consulta/solicitudes?${range}&take=1`, {
          headers: { authorization: `Bearer ${token}` },
        })
      ).json()) as { result: { totalCount: number } }
    ).result.totalCount;
  const warm = memoryOf(server.child.pid as number);
  server.child.kill('SIGTERM');
  await new Promise((resolve) => server.child.once('exit', resolve));
  const opening = Date.now();
  const fresh = await startServer(target.env, '1', 300);
  console.log(`  a fresh server answered in ${((Date.now() - opening) / 1000).toFixed(1)} s`);
  started(fresh);
  const admin = await signInAs(fresh.url, 'ADMIN');
  const to = new Date().toISOString().slice(0, 10);
  const from = new Date(Date.now() - 91 * DAY).toISOString().slice(0, 10);
  const range = `Tipo=M&FechaDesde=${from}&FechaHasta=${to}`;
  const total = await counted(fresh.url, admin, range);
  const pid = fresh.child.pid as number;
  // The peak from here on: the server's opening of the database is not the export's.
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
  } catch {
    // Not allowed here: the peak printed is then since the server started.
  }
  const idle = memoryOf(pid);
  const exportStarted = Date.now();
  const response = await fetch(`${fresh.url}/api/consulta/solicitudes/excel?${range}`, {
    headers: { authorization: `Bearer ${admin}` },
  });
  let bytes = 0;
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) bytes += chunk.length;
  const after = memoryOf(pid);
  console.log(
    `  query export: ${total.toLocaleString('en')} rows, ${(bytes / 1024 / 1024).toFixed(1)} MB .xlsx in ${((Date.now() - exportStarted) / 1000).toFixed(1)} s; fresh server rss ${idle.rss.toFixed(0)} MB idle, peak ${after.peak.toFixed(0)} MB (aim 250 MB); the server after the calls above: rss ${warm.rss.toFixed(0)} MB, peak ${warm.peak.toFixed(0)} MB`,
  );
});
