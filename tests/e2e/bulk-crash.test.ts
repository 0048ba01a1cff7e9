/**
 * A bulk upload's jobs survive a server being killed (SIGKILL) half-way. Killed while its rows
 * are checked, the check goes on after the restart. Killed while processing, every request made
 * is whole (its lines and history with it, its row marked with it), and once the server is back
 * the job picks up the rest and creates nothing twice. With two servers on one PostgreSQL, each
 * on its own data folder, the second takes over the first's job when the first dies, and every
 * file uploaded through one is read through the other. Runs the built server (npm run build).
 *
 * Each server dies at a step the test names (the server's crash points, JOB_CRASH_AT: SIGKILL at
 * the n-th row checked, or inside the n-th row's processing transaction), so the job is cut at the
 * same place whatever the machine's speed.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import JSZip from 'jszip';
import { afterAll, describe, expect, it } from 'vitest';
import { AUTH_TABLES } from '../../src/server/auth/tables.js';
import { loadRegistry } from '../../src/server/registry.js';
import { addDays, siteDate } from '../../src/shared/dates.js';
import { pdf } from '../support/accreditation.js';
import { excelDate, openTemplate } from '../support/bulk.js';
import { createTestDatabase, DIALECTS, type TestDatabase } from '../support/databases.js';
import { api, demoBulkTemplate, requester } from '../support/processes.js';
import { killServer, type ServerProcess, spawnServer } from '../support/server.js';

// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON
type Json = any;
const ROWS = 40;
/** The row whose processing transaction a crash cuts: the rows before it are made, it is not. */
const CUT = 21;
const registry = loadRegistry();
const table = (name: string) => registry.require(name).table;

/**
 * A server process on the test's database, killing itself at `crashAt` when given; a job it leaves
 * is taken over within about three seconds (short leases, looked for every second), as it would be
 * within 40 s by default.
 */
const start = (
  db: TestDatabase,
  options: { dataDir?: string; crashAt?: string } = {},
): Promise<ServerProcess> =>
  spawnServer(
    {
      DATA_DIR: options.dataDir ?? db.location.dataDir,
      DEMO_DATA: 'off',
      WEB_CONCURRENCY: '1',
      JOB_LEASE_SECONDS: '2',
      JOB_POLL_SECONDS: '1',
      ...(options.crashAt ? { JOB_CRASH_AT: options.crashAt } : {}),
    },
    db.location.databaseUrl,
  );

/** Until the server has died at its crash point, killed (SIGKILL) by itself. */
async function died(server: ServerProcess): Promise<void> {
  const { child } = server;
  if (child.exitCode === null && child.signalCode === null) await new Promise((r) => child.once('exit', r));
  expect(child.signalCode).toBe('SIGKILL');
}

/** Waits (a tenth of a second between looks, two minutes at most) until `done`. */
async function until(done: () => Promise<boolean>, what: string) {
  for (let i = 0; i < 1200; i++) {
    if (await done()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${what} did not happen`);
}

/**
 * Uploads ROWS workers through `url` for the demo contract (with a zip of one PDF for each of the
 * first `withFiles` rows), and answers the upload's code and its calls.
 */
async function upload(db: TestDatabase, url: string, withFiles = 0) {
  const token = await requester(url);
  const { contract, profile, template } = await demoBulkTemplate(url, token);
  // A shutdown's crowd on one contract: its endowment (120 in the demo) raised to hold them.
  await db.database.db
    .updateTable(table('contract'))
    .set({ Dotacion: 1_000 })
    .where('IdContrato', '=', contract)
    .execute();
  const tpl = await openTemplate(template.fileBase64);
  const today = siteDate('PE');
  const documents = Array.from({ length: ROWS }, (_, i) => String(71_000_000 + i));
  const file = await tpl.fill(
    documents.map((document, i) => ({
      FechaInicio: excelDate(today),
      FechaFin: excelDate(addDays(today, 60)),
      IdTipoDocumento: 'PE DNI',
      Documento: document,
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
  if (withFiles) {
    const zip = new JSZip();
    for (const document of documents.slice(0, withFiles))
      zip.file(`${document}-sctr-salud.pdf`, pdf(`SCTR ${document}`));
    const bytes = await zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' });
    form.set('adjuntos', new Blob([new Uint8Array(bytes)], { type: 'application/zip' }), 'adjuntos.zip');
  }
  const uploaded = await api(url, 'POST', '/api/acreditacionsolicitud/cargamasiva', token, form);
  expect(uploaded).toMatchObject({ Estado: 'C', loaded: ROWS });
  if (withFiles) expect(uploaded.attached).toBe(withFiles);
  const code = uploaded.CodigoCargaMasiva as string;
  return {
    code,
    /** The upload's progress read through a server, by a new session of the requester or with `token`. */
    progress: async (through: string, token?: string) =>
      api(
        through,
        'GET',
        `/api/acreditacionsolicitud/progresomasivo?CodigoCargaMasiva=${code}`,
        token ?? (await requester(through)),
      ),
    process: (through: string, token: string) =>
      api(through, 'POST', '/api/acreditacionsolicitud/procesarmasivo', token, { CodigoCargaMasiva: code }),
    state: async () =>
      (
        (await db.database.db
          .selectFrom(table('bulk-upload'))
          .select('Estado')
          .where('CodigoCargaMasiva', '=', code)
          .executeTakeFirstOrThrow()) as Json
      ).Estado as string,
    /** The rows' counts as the database has them, read without a server. */
    counts: async () => {
      const rows = (await db.database.db
        .selectFrom(`${table('bulk-upload-row')} as r`)
        .innerJoin(`${table('bulk-upload')} as u`, 'u.IdCargaMasiva', 'r.IdCargaMasiva')
        .select('r.Estado')
        .where('u.CodigoCargaMasiva', '=', code)
        .execute()) as Json[];
      return {
        checked: rows.filter((r) => r.Estado !== 'P').length,
        made: rows.filter((r) => r.Estado === 'S').length,
      };
    },
    /** The requests made so far: each whole, each named by exactly its row, none twice. */
    whole: async () => {
      const read = db.database.db;
      const requests = (await read
        .selectFrom(table('request'))
        .select('IdSolicitud')
        .where('CodigoCargaMasiva', '=', code)
        .execute()) as Json[];
      const ids = requests.map((r) => r.IdSolicitud);
      const rows = (await read
        .selectFrom(table('bulk-upload-row'))
        .select(['IdSolicitud', 'Estado'])
        .where('Estado', '=', 'S')
        .execute()) as Json[];
      expect(rows.map((r) => r.IdSolicitud).sort()).toEqual([...ids].sort());
      for (const id of ids) {
        const lines = await read
          .selectFrom(table('request-detail'))
          .select('IdDetalle')
          .where('IdSolicitud', '=', id)
          .execute();
        const history = await read
          .selectFrom(table('request-history'))
          .select('IdHistorial')
          .where('IdSolicitud', '=', id)
          .execute();
        expect(lines.length).toBeGreaterThan(10);
        expect(history).toHaveLength(1);
      }
      return ids.length;
    },
  };
}

describe.each(DIALECTS)('a bulk job killed half-way on %s', (dialect) => {
  let db: TestDatabase | undefined;
  let server: ServerProcess | undefined;
  afterAll(async () => {
    if (server) await killServer(server);
    await db?.drop();
  });

  it('finishes a check and a process cut short by a restart, every request whole, nothing twice', async () => {
    db = await createTestDatabase(dialect, 'demo');
    server = await start(db, { crashAt: 'bulk.check:20' });
    const job = await upload(db, server.url);

    // Killed while the rows are being checked: after the restart the check goes on from where it
    // was and ends with every row checked once, nothing created.
    await died(server);
    expect((await job.counts()).checked).toBeGreaterThanOrEqual(20);
    // The restarted server resumes the check by itself: nobody asks for the progress meanwhile.
    server = await start(db, { crashAt: `bulk.process:${CUT}` });
    await until(async () => (await job.state()) === 'V', 'the resumed check');
    expect(await job.progress(server.url)).toMatchObject({
      Estado: 'V',
      loaded: ROWS,
      toCheck: 0,
      observed: 0,
      toProcess: ROWS,
    });

    const uploader = await requester(server.url);
    await job.process(server.url, uploader);
    await died(server);

    // What the killed server left: each request whole, each named by exactly its row.
    const before = await job.whole();
    expect(before).toBeGreaterThanOrEqual(20);
    expect(before).toBeLessThan(ROWS);

    // The uploader signs out meanwhile, as sign-out does: every session of the user ends. The job
    // is its upload's, not a session's.
    await db.database.db
      .updateTable(AUTH_TABLES.session)
      .set({ RevocadoEn: Date.now(), Motivo: 'logout' })
      .where('IdUsuario', '=', 'SOLICITANTE')
      .where('RevocadoEn', 'is', null)
      .execute();

    // Back up: the server resumes the job by itself, and it ends with every row once.
    server = await start(db);
    await expect(job.progress(server.url, uploader)).rejects.toThrow(/401/);
    await until(async () => (await job.state()) === 'F', 'the resumed processing');
    expect(await job.progress(server.url)).toMatchObject({
      Estado: 'F',
      running: false,
      loaded: ROWS,
      successful: ROWS,
      processed: ROWS,
      toProcess: 0,
    });
    expect(await job.whole()).toBe(ROWS);
  });
});

describe.skipIf(!DIALECTS.includes('postgres'))('two servers on one PostgreSQL database', () => {
  let db: TestDatabase | undefined;
  const servers: ServerProcess[] = [];
  const folders: string[] = [];
  afterAll(async () => {
    for (const server of servers) await killServer(server);
    for (const folder of folders) rmSync(folder, { recursive: true, force: true });
    await db?.drop();
  });

  it('share the files and the jobs: the second finishes the first’s job exactly once when it dies', async () => {
    db = await createTestDatabase('postgres', 'demo');
    // Each on a data folder of its own: nothing but the database is shared.
    for (const name of ['first', 'second']) folders.push(mkdtempSync(join(tmpdir(), `acr-${name}-`)));
    const first = await start(db, { dataDir: folders[0], crashAt: `bulk.process:${CUT}` });
    const second = await start(db, { dataDir: folders[1] });
    servers.push(first, second);

    const job = await upload(db, first.url, 5);
    await until(async () => (await job.state()) === 'V', 'the check');
    // Processed through the first, which dies half-way.
    await job.process(first.url, await requester(first.url));
    await died(first);
    const before = await job.whole();
    expect(before).toBeLessThan(ROWS);

    // Nobody asks: the second takes the job over once the first's lease runs out, and ends it.
    await until(async () => (await job.state()) === 'F', 'the taken-over processing');
    expect(await job.progress(second.url)).toMatchObject({
      Estado: 'F',
      running: false,
      successful: ROWS,
      processed: ROWS,
    });
    expect(await job.whole()).toBe(ROWS);

    // The PDFs uploaded through the first, read through the second, byte for byte.
    const token = await requester(second.url);
    const made = (await db.database.db
      .selectFrom(`${table('request')} as r`)
      .innerJoin(`${table('request-detail')} as d`, 'd.IdSolicitud', 'r.IdSolicitud')
      .innerJoin(`${table('person')} as p`, 'p.IdPersona', 'r.IdPersona')
      .select(['r.IdSolicitud', 'd.IdDetalle', 'p.Documento'])
      .where('r.CodigoCargaMasiva', '=', job.code)
      .where('d.ClaveArchivo', 'is not', null)
      .execute()) as Json[];
    expect(made).toHaveLength(5);
    for (const line of made) {
      const file = await api(
        second.url,
        'GET',
        `/api/acreditacionsolicituddetalle/downloadFileBase64?IdSolicitud=${line.IdSolicitud}&IdFile=${line.IdDetalle}`,
        token,
      );
      expect(Buffer.from(file.file, 'base64').equals(pdf(`SCTR ${line.Documento}`))).toBe(true);
    }
  });
});
