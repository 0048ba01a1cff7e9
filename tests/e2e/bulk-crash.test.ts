/**
 * A bulk upload's jobs survive the server being killed (SIGKILL) half-way. Killed while its rows
 * are checked, the check goes on after the restart. Killed while processing, every request made
 * is whole (its lines and history with it, its row marked with it), and once the server is back
 * the job picks up the rest and creates nothing twice. Runs the built server (npm run build).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { prepareDatabase } from '../../src/server/db/prepare.js';
import { DEMO_PASSWORD } from '../../src/server/demo/security.js';
import { seedDemo } from '../../src/server/demo/seed.js';
import { loadRegistry } from '../../src/server/registry.js';
import { addDays, siteDate } from '../../src/shared/dates.js';
import { excelDate, openTemplate } from '../support/bulk.js';
import { createTestDatabase, DIALECTS, type TestDatabase } from '../support/databases.js';

// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON
type Json = any;
const ROOT = resolve(import.meta.dirname, '../..');
const ROWS = 240;

async function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const probe = createServer();
    probe.once('error', fail);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => done(port));
    });
  });
}

async function start(db: TestDatabase): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: db.location.dataDir,
    LOG_LEVEL: 'warn',
    DEMO_DATA: 'off',
    WEB_CONCURRENCY: '1',
  };
  delete env.NODE_ENV;
  if (db.location.databaseUrl) env.DATABASE_URL = db.location.databaseUrl;
  else delete env.DATABASE_URL;
  const child = spawn(process.execPath, ['dist/server/main.js'], { cwd: ROOT, env, stdio: 'ignore' });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 300; i++) {
    try {
      if ((await fetch(`${url}/api/health`)).ok) return { url, child };
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  throw new Error('server did not start');
}

async function api(url: string, method: string, path: string, token?: string, body?: object | FormData) {
  const res = await fetch(`${url}${path}`, {
    method,
    headers: {
      'accept-language': 'es',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body && !(body instanceof FormData) ? { 'content-type': 'application/json' } : {}),
    },
    body: body instanceof FormData ? body : body ? JSON.stringify(body) : undefined,
  });
  const json = (await res.json()) as Json;
  if (!res.ok) throw new Error(`${path} answered ${res.status}: ${JSON.stringify(json)}`);
  return json.result;
}

async function requester(url: string): Promise<string> {
  const login = await api(url, 'POST', '/api/usuario/authenticate', undefined, {
    username: 'SOLICITANTE',
    password: DEMO_PASSWORD,
  });
  const division = login.division.find((d: Json) => d.Division === 'UNIDAD MINERA SAN GABRIEL');
  const session = await api(url, 'POST', '/api/usuario/refreshTokenbyperfil', login.accessToken, {
    idPerfil: division.IdPerfil,
    idDivision: division.IdDivision,
  });
  return session.accessToken;
}

describe.each(DIALECTS)('a bulk job killed half-way on %s', (dialect) => {
  let db: TestDatabase | undefined;
  let child: ChildProcess | undefined;
  afterAll(async () => {
    if (child && child.exitCode === null) child.kill('SIGTERM');
    await db?.drop();
  });

  it('finishes a check and a process cut short by a restart, every request whole, nothing twice', async () => {
    if (!existsSync(join(ROOT, 'dist/server/main.js'))) throw new Error('run `npm run build` first');
    const registry = loadRegistry();
    db = await createTestDatabase(dialect);
    const database = db.database;
    await prepareDatabase(db.database, registry);
    await seedDemo(db.database, registry);
    let server = await start(db);
    child = server.child;
    let token = await requester(server.url);
    const contracts = (await (
      await fetch(`${server.url}/api/rest/contract?range=[0,99]`, {
        headers: { authorization: `Bearer ${token}` },
      })
    ).json()) as Json[];
    const contract = contracts.find((c) => c.NumeroContrato === 'CT-2026-001').IdContrato;
    const profiles = (await (
      await fetch(`${server.url}/api/rest/accreditation-profile?range=[0,99]`, {
        headers: { authorization: `Bearer ${token}` },
      })
    ).json()) as Json[];
    const profile = profiles.find((p) => p.Descripcion === 'TRABAJADOR CONTRATISTA').IdPerfilAcreditacion;
    const template = await api(
      server.url,
      'GET',
      `/api/acreditacionsolicitud/excelformato?IdContrato=${contract}&IdPerfilAcreditacion=${profile}`,
      token,
    );
    const tpl = await openTemplate(template.fileBase64);
    const today = siteDate('PE');
    const file = await tpl.fill(
      Array.from({ length: ROWS }, (_, i) => ({
        FechaInicio: excelDate(today),
        FechaFin: excelDate(addDays(today, 60)),
        IdTipoDocumento: 'PE DNI',
        Documento: String(71_000_000 + i),
        Apellido: 'Ccori Huaman',
        Nombre: 'Jose',
        Sexo: 'Masculino',
        FechaNacimiento: excelDate('1985-07-07'),
        IdPaisNacimiento: 'PE',
        IdPaisResidencia: 'PE',
        TelefonoMovil: String(951_000_000 + i),
      })),
    );
    const form = new FormData();
    form.set('IdContrato', String(contract));
    form.set('IdPerfilAcreditacion', String(profile));
    form.set('file', new Blob([new Uint8Array(file)]), 'carga.xlsx');
    const uploaded = await api(server.url, 'POST', '/api/acreditacionsolicitud/cargamasiva', token, form);
    expect(uploaded).toMatchObject({ Estado: 'C', loaded: ROWS });
    const code = uploaded.CodigoCargaMasiva as string;
    const progress = () =>
      api(server.url, 'GET', `/api/acreditacionsolicitud/progresomasivo?CodigoCargaMasiva=${code}`, token);
    const uploadState = async () =>
      (
        (await database.db
          .selectFrom(registry.require('bulk-upload').table)
          .select('Estado')
          .where('CodigoCargaMasiva', '=', code)
          .executeTakeFirstOrThrow()) as Json
      ).Estado as string;
    const until = async (done: () => Promise<boolean>) => {
      for (let i = 0; i < 1200; i++) {
        if (await done()) return;
        await new Promise((r) => setTimeout(r, 100));
      }
      throw new Error('the resumed job did not end');
    };
    const kill = async () => {
      const killed = new Promise((r) => server.child.once('exit', r));
      server.child.kill('SIGKILL');
      await killed;
    };

    // Killed while the rows are being checked: after the restart the check goes on from where it
    // was and ends with every row checked once, nothing created.
    for (;;) {
      const now = await progress();
      if (now.loaded - now.toCheck >= 20) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    await kill();
    // The restarted server resumes the check by itself: nobody asks for the progress meanwhile.
    server = await start(db);
    child = server.child;
    await until(async () => (await uploadState()) === 'V');
    token = await requester(server.url);
    expect(await progress()).toMatchObject({
      Estado: 'V',
      loaded: ROWS,
      toCheck: 0,
      observed: 0,
      toProcess: ROWS,
    });

    await api(server.url, 'POST', '/api/acreditacionsolicitud/procesarmasivo', token, {
      CodigoCargaMasiva: code,
    });
    for (;;) {
      const now = await progress();
      if (now.successful >= 20) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    await kill();

    // What the killed server left: each request whole, each named by exactly its row.
    const t = (name: string) => registry.require(name).table;
    const read = db.database.db;
    const whole = async () => {
      const requests = (await read
        .selectFrom(t('request'))
        .select('IdSolicitud')
        .where('CodigoCargaMasiva', '=', code)
        .execute()) as Json[];
      const ids = requests.map((r) => r.IdSolicitud);
      const rows = (await read
        .selectFrom(t('bulk-upload-row'))
        .select(['IdSolicitud', 'Estado'])
        .where('Estado', '=', 'S')
        .execute()) as Json[];
      expect(rows.map((r) => r.IdSolicitud).sort()).toEqual([...ids].sort());
      for (const id of ids) {
        const lines = await read
          .selectFrom(t('request-detail'))
          .select('IdDetalle')
          .where('IdSolicitud', '=', id)
          .execute();
        const history = await read
          .selectFrom(t('request-history'))
          .select('IdHistorial')
          .where('IdSolicitud', '=', id)
          .execute();
        expect(lines.length).toBeGreaterThan(10);
        expect(history).toHaveLength(1);
      }
      return ids.length;
    };
    const before = await whole();
    expect(before).toBeGreaterThanOrEqual(20);
    expect(before).toBeLessThan(ROWS);

    // Back up: the server resumes the job by itself, and it ends with every row once.
    server = await start(db);
    child = server.child;
    await until(async () => (await uploadState()) === 'F');
    token = await requester(server.url);
    expect(await progress()).toMatchObject({
      Estado: 'F',
      running: false,
      loaded: ROWS,
      successful: ROWS,
      processed: ROWS,
      toProcess: 0,
    });
    expect(await whole()).toBe(ROWS);
  });
});
