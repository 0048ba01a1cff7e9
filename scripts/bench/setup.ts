/** What the benchmarks share: a database of each dialect, N persons, the real server, a sign-in. */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { type Challenge, solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import { sql } from 'kysely';
import pg from 'pg';
import { type Database, type DialectName, openDatabase } from '../../src/server/db/connection.js';
import { generatePeople } from '../../src/server/demo/people.js';
import { DEMO_PASSWORD } from '../../src/server/demo/security.js';
import { seedDemo } from '../../src/server/demo/seed.js';
import { prepareDatabase } from '../../src/server/prepare.js';
import { loadRegistry } from '../../src/server/registry.js';
import { buildServer } from '../build-server.js';

export const registry = loadRegistry();
const person = registry.require('person');
const PEOPLE_PER_COMPANY = 500;
const ROOT = resolve(import.meta.dirname, '../..');

export async function createDatabase(
  dialect: DialectName,
  postgresUrl: string,
): Promise<{ database: Database; env: Record<string, string>; drop: () => Promise<void> }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'acr-bench-'));
  if (dialect === 'sqlite') {
    return {
      database: openDatabase({ dataDir }),
      env: { DATA_DIR: dataDir },
      drop: async () => rmSync(dataDir, { recursive: true, force: true }),
    };
  }
  const name = `acr_bench_${Date.now()}`;
  const admin = new pg.Client({ connectionString: postgresUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(postgresUrl);
  url.pathname = `/${name}`;
  return {
    database: openDatabase({ databaseUrl: url.toString(), dataDir }),
    env: { DATABASE_URL: url.toString(), DATA_DIR: dataDir },
    drop: async () => {
      const again = new pg.Client({ connectionString: postgresUrl });
      await again.connect();
      await again.query(`drop database if exists ${name} with (force)`);
      await again.end();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export type Target = Awaited<ReturnType<typeof createDatabase>>;
export type RunningServer = { url: string; child: ChildProcess };

/**
 * Runs a benchmark once per dialect of the comma-separated list, each on its own throw-away
 * database, stopping the server the run started and dropping the database afterwards. A dialect
 * whose database cannot be created (no PostgreSQL) is reported as skipped.
 */
export async function eachDialect(
  dialects: string,
  postgresUrl: string,
  run: (target: Target, dialect: DialectName, started: (server: RunningServer) => void) => Promise<void>,
): Promise<void> {
  for (const dialect of dialects.split(',') as DialectName[]) {
    console.log(`\n${dialect}`);
    let target: Target;
    try {
      target = await createDatabase(dialect, postgresUrl);
    } catch (error) {
      console.log(`  skipped: ${(error as Error).message}`);
      continue;
    }
    let server: RunningServer | undefined;
    try {
      await run(target, dialect, (s) => {
        server = s;
      });
    } finally {
      server?.child.kill('SIGTERM');
      await target.drop();
    }
  }
}

/**
 * Prepares the database with the demo data and N more persons over one contractor per
 * PEOPLE_PER_COMPANY of them (a large site works with hundreds). Returns the demo client and the
 * new contractors.
 */
export async function load(
  database: Database,
  N: number,
): Promise<{ clientId: number; companies: number[] }> {
  await prepareDatabase(database, registry);
  await seedDemo(database, registry);
  const clientId = (
    (await database.db.selectFrom('system_client').select('IdCliente').executeTakeFirstOrThrow()) as {
      IdCliente: number;
    }
  ).IdCliente;
  const types = (await database.db
    .selectFrom('system_document_type')
    .select(['IdTipoDocumento', 'IdPais', 'Alias'])
    .execute()) as Array<{
    IdTipoDocumento: number;
    IdPais: string;
    Alias: string;
  }>;
  const typeId = (country: string, alias: string) =>
    types.find((t) => t.IdPais === country && t.Alias === alias)?.IdTipoDocumento as number;
  // A large site works with hundreds of contractors: one per PEOPLE_PER_COMPANY persons.
  const category = (await database.db
    .selectFrom('administration_company_category')
    .select('IdCategoriaCompania')
    .where('Categoria', '=', 'CONTRATISTA')
    .executeTakeFirstOrThrow()) as { IdCategoriaCompania: number };
  const now = new Date().toISOString();
  const extra = Math.ceil(N / PEOPLE_PER_COMPANY);
  for (let i = 0; i < extra; i += 100) {
    await database.db
      .insertInto('administration_company')
      .values(
        Array.from({ length: Math.min(100, extra - i) }, (_, j) => ({
          IdTipoDocumento: typeId('PE', 'RUC'),
          IdCliente: clientId,
          Documento: `209${String(i + j).padStart(8, '0')}`,
          Compania: `CONTRATISTA DE PRUEBA ${i + j + 1} S.A.C.`,
          IdCategoriaCompania: category.IdCategoriaCompania,
          IdPais: 'PE',
          Contratista: 'S',
          ControlaAsistencia: 'S',
          Activo: 'S',
          IdUsuarioCreacion: 'BENCH',
          FechaCreacion: now,
        })),
      )
      .execute();
  }
  const companies = (await database.db
    .selectFrom('administration_company')
    .select(['IdCompania', 'IdPais'])
    .where('IdUsuarioCreacion', '=', 'BENCH')
    .execute()) as Array<{ IdCompania: number; IdPais: 'PE' | 'CH' }>;
  const ids = async (table: string, key: string) =>
    ((await database.db.selectFrom(table).select(key).execute()) as Array<Record<string, number>>).map(
      (r) => r[key],
    );
  const started = Date.now();
  const people = generatePeople(
    N,
    {
      dniPeru: typeId('PE', 'DNI'),
      runChile: typeId('CH', 'RUN'),
      companies: companies.map((c) => ({ id: c.IdCompania, country: c.IdPais })),
      bloodTypes: await ids('system_blood_type', 'IdTipoSangre'),
      civilStatuses: await ids('system_civil_status', 'IdEstadoCivil'),
    },
    99,
  );
  // The demo already holds some people; the bench ones use documents of their own.
  await database.db.transaction().execute(async (trx) => {
    let batch: object[] = [];
    const flush = async () => {
      if (batch.length) await trx.insertInto(person.table).values(batch).execute();
      batch = [];
    };
    for (const p of people) {
      batch.push({
        ...p,
        IdCliente: clientId,
        Documento: `B${p.Documento}`,
        IdUsuarioCreacion: 'BENCH',
        FechaCreacion: now,
      });
      if (batch.length === 500) await flush();
    }
    await flush();
  });
  // A database in service has its statistics and visibility map up to date (autovacuum, ANALYZE).
  await sql.raw(database.dialect === 'postgres' ? 'vacuum analyze' : 'analyze').execute(database.db);
  console.log(
    `  loaded ${N} persons over ${companies.length} contractors in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
  return { clientId, companies: companies.map((c) => c.IdCompania) };
}

export async function freePort(): Promise<number> {
  return new Promise((done) => {
    const probe = createServer();
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => done(port));
    });
  });
}

export async function startServer(
  env: Record<string, string>,
  workers = '1',
  /** How long it may take to answer its health check (a large database takes longer to open). */
  waitSeconds = 30,
): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const childEnv: NodeJS.ProcessEnv = {
    ...process.env,
    ...env,
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    DEMO_DATA: 'off',
    WEB_CONCURRENCY: workers,
    // The benchmarks measure the server's work; the challenge's cost is measured by bench:challenge.
    SIGN_IN_CHALLENGE: env.SIGN_IN_CHALLENGE ?? 'off',
  };
  if (!env.DATABASE_URL) delete childEnv.DATABASE_URL;
  delete childEnv.NODE_ENV;
  await buildServer();
  const child = spawn(
    process.execPath,
    [...(process.env.BENCH_SERVER_FLAGS?.split(' ').filter(Boolean) ?? []), 'dist/server/main.js'],
    {
      cwd: ROOT,
      env: childEnv,
      stdio: 'inherit',
    },
  );
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < waitSeconds * 10; i++) {
    try {
      if ((await fetch(`${url}/api/health`)).ok) return { url, child };
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  throw new Error('server did not start');
}

/**
 * The answer to the server's sign-in challenge, solved as the console's widget solves it; '' when
 * the server runs without it.
 */
export async function challengeAnswer(url: string): Promise<string> {
  const challenge = (await (await fetch(`${url}/api/auth/challenge`)).json()) as Challenge & {
    enabled?: false;
  };
  if (challenge.enabled === false) return '';
  const solution = await solveChallenge({ challenge, deriveKey });
  if (!solution) throw new Error('the sign-in challenge was not solved');
  const { parameters, signature } = challenge;
  return Buffer.from(JSON.stringify({ challenge: { parameters, signature }, solution })).toString('base64');
}

/**
 * Signs in as a demo user (the administrator unless told), as the console does, answering the
 * sign-in challenge when the server asks for one, in the given division (the first profile's
 * unless told); returns the access token.
 */
export async function signIn(
  url: string,
  { user = 'ADMIN', division }: { user?: string; division?: number } = {},
): Promise<string> {
  const post = async (path: string, body: object, token?: string) => {
    const res = await fetch(`${url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${path} answered ${res.status}: ${await res.text()}`);
    return ((await res.json()) as { result: Record<string, unknown> }).result;
  };
  const tokenClient = await challengeAnswer(url);
  const login = await post('/api/usuario/authenticate', {
    username: user,
    password: DEMO_PASSWORD,
    tokenClient,
  });
  const profiles = login.division as Array<{ IdPerfil: number; IdDivision: number }>;
  const chosen = profiles.find((p) => division === undefined || p.IdDivision === division) ?? profiles[0];
  const session = await post(
    '/api/usuario/refreshTokenbyperfil',
    { idPerfil: chosen.IdPerfil, idDivision: chosen.IdDivision },
    login.accessToken as string,
  );
  return session.accessToken as string;
}

/** Rows inserted 300 at a time into a table; the generated keys (`key`) in order, when asked. */
export async function insertAll(
  database: Database,
  table: string,
  rows: Array<Record<string, unknown>>,
  key?: string,
): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < rows.length; i += 300) {
    const query = database.db.insertInto(table).values(rows.slice(i, i + 300));
    if (key)
      out.push(
        ...((await query.returning(key).execute()) as Array<Record<string, unknown>>).map((r) =>
          Number(r[key]),
        ),
      );
    else await query.execute();
  }
  return out;
}
