/**
 * `npm run bench:bulk`: a bulk request of N workers (default 10 000) through the running server,
 * on SQLite and on PostgreSQL: the template downloaded, N rows written with exceljs, the file
 * uploaded and checked (cargamasiva, the dry run), then processed (procesarmasivo) until the job
 * ends. Prints rows per second of each phase and the server process's peak resident memory during
 * each phase (VmHWM from /proc, reset between phases through clear_refs).
 *
 *   npm run bench:bulk -- --n 10000 --dialects sqlite,postgres
 */
import { readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import ExcelJS from 'exceljs';
import { DEMO_PASSWORD } from '../src/server/demo/security.js';
import { seedDemo } from '../src/server/demo/seed.js';
import { prepareDatabase } from '../src/server/prepare.js';
import { addDays, siteDate } from '../src/shared/dates.js';
import { eachDialect, registry, startServer } from './bench/setup.js';

const { values: args } = parseArgs({
  options: {
    n: { type: 'string', default: process.env.BENCH_N ?? '10000' },
    dialects: { type: 'string', default: 'sqlite,postgres' },
    'postgres-url': {
      type: 'string',
      default: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
    },
  },
});
const N = Number(args.n);
const MB = 1024 * 1024;
const SOUTH = 'UNIDAD MINERA SAN GABRIEL';

function peakOf(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024;
}
/** Resets the process's peak resident memory to its current size (Linux: clear_refs 5). */
function resetPeak(pid: number): void {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
  } catch {
    // Not allowed here: the peaks printed are then since the start.
  }
}

/** The signed-in requester's token, signed in again when its session ends (a long job outlasts it). */
const session = { token: '', url: '' };

async function call(path: string, init: RequestInit, again = true): Promise<Record<string, unknown>> {
  const res = await fetch(`${session.url}${path}`, {
    ...init,
    headers: { ...(init.headers as Record<string, string>), authorization: `Bearer ${session.token}` },
  });
  if (res.status === 401 && again) {
    console.log(`  ${path.split('?')[0]} answered 401: signed in again`);
    session.token = await requester(session.url);
    return call(path, init, false);
  }
  if (!res.ok) throw new Error(`${path} answered ${res.status}: ${await res.text()}`);
  return ((await res.json()) as { result: Record<string, unknown> }).result;
}

async function post(url: string, path: string, body: object, token?: string) {
  const res = await fetch(`${url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${path} answered ${res.status}: ${await res.text()}`);
  return ((await res.json()) as { result: Record<string, unknown> }).result;
}
/** A GET as the signed-in requester (signed in again when its session ended). */
async function get(path: string) {
  return call(path, { headers: { 'accept-language': 'es' } });
}

/** The demo requester, signed in to the southern division. */
async function requester(url: string): Promise<string> {
  const login = await post(url, '/api/usuario/authenticate', {
    username: 'SOLICITANTE',
    password: DEMO_PASSWORD,
  });
  const division = (login.division as Array<{ IdPerfil: number; IdDivision: number; Division: string }>).find(
    (d) => d.Division === SOUTH,
  );
  if (!division) throw new Error('no southern profile');
  const session = await post(
    url,
    '/api/usuario/refreshTokenbyperfil',
    { idPerfil: division.IdPerfil, idDivision: division.IdDivision },
    login.accessToken as string,
  );
  return session.accessToken as string;
}

/** N workers written into the template's data sheet with exceljs' streaming writer. */
async function fill(templateBase64: string, path: string): Promise<void> {
  const today = siteDate('PE');
  const start = new Date(`${today}T00:00:00Z`);
  const end = new Date(`${addDays(today, 90)}T00:00:00Z`);
  const expiry = new Date(`${addDays(today, 300)}T00:00:00Z`);
  const template = new ExcelJS.Workbook();
  await template.xlsx.load(Buffer.from(templateBase64, 'base64') as unknown as ArrayBuffer);
  const data = template.worksheets[0];
  const keys: string[] = [];
  data.getRow(1).eachCell((cell, col) => {
    keys[col - 1] = String(cell.value);
  });
  // Each requirement column's value: the first text of its list, a date, or some text.
  const validations = (
    data as unknown as { dataValidations: { model: Record<string, ExcelJS.DataValidation> } }
  ).dataValidations.model;
  const datum = (key: string, i: number): ExcelJS.CellValue => {
    const column = data.getColumn(keys.indexOf(key) + 1);
    const list = validations[`${column.letter}3`];
    const at = list?.type === 'list' ? /!\$([A-Z]+)\$1:/.exec(String(list.formulae?.[0])) : null;
    if (at) return String(template.worksheets[2].getCell(`${at[1]}1`).value);
    if (column.numFmt === 'dd/mm/yyyy') return expiry;
    return `V${i}`;
  };
  const writer = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: path, useSharedStrings: false });
  const sheet = writer.addWorksheet('Datos');
  sheet.addRow(keys).commit();
  sheet.addRow(keys).commit();
  const values: Record<string, (i: number) => ExcelJS.CellValue> = {
    FechaInicio: () => start,
    FechaFin: () => end,
    IdTipoDocumento: () => 'PE DNI',
    Documento: (i) => String(60_000_000 + i),
    Apellido: (i) => `CONDORI ${String.fromCharCode(65 + (i % 26))}`,
    Nombre: () => 'JUAN CARLOS',
    Sexo: (i) => (i % 2 ? 'Masculino' : 'Femenino'),
    FechaNacimiento: () => new Date('1990-01-01T00:00:00Z'),
    IdPaisNacimiento: () => 'PE',
    IdPaisResidencia: () => 'PE',
    TelefonoMovil: (i) => String(900_000_000 + i),
  };
  for (let i = 0; i < N; i++) {
    sheet
      .addRow(
        keys.map((key) => {
          const make = values[key];
          if (make) return make(i);
          if (/^D\d+$/.test(key)) return datum(key, i);
          return null;
        }),
      )
      .commit();
  }
  await sheet.commit();
  await writer.commit();
}

console.log(`bench:bulk  N=${N} worker rows per dialect, node ${process.version}`);
await eachDialect(args.dialects, args['postgres-url'], async (target, _dialect, started) => {
  await prepareDatabase(target.database, registry);
  await seedDemo(target.database, registry);
  // A shutdown's crowd on one contract: its endowment raised to hold them (the cap is checked per row).
  await target.database.db
    .updateTable(registry.require('contract').table)
    .set({ TipoDotacion: 'C', Dotacion: N + 1_000 })
    .where('NumeroContrato', '=', 'CT-2026-001')
    .execute();
  await target.database.close();
  const server = await startServer({ ...target.env, BULK_MAX_ROWS: String(Math.max(N, 10_000)) });
  started(server);
  const pid = server.child.pid as number;
  session.url = server.url;
  session.token = await requester(server.url);
  const { token } = session;
  const contracts = (await (
    await fetch(`${server.url}/api/rest/contract?range=[0,99]`, {
      headers: { authorization: `Bearer ${token}` },
    })
  ).json()) as Array<{ IdContrato: number; NumeroContrato: string }>;
  const contract = contracts.find((c) => c.NumeroContrato === 'CT-2026-001')?.IdContrato as number;
  const profiles = (await (
    await fetch(`${server.url}/api/rest/accreditation-profile?range=[0,99]`, {
      headers: { authorization: `Bearer ${token}` },
    })
  ).json()) as Array<{ IdPerfilAcreditacion: number; Descripcion: string }>;
  const profile = profiles.find((p) => p.Descripcion === 'TRABAJADOR CONTRATISTA')
    ?.IdPerfilAcreditacion as number;

  const t0 = performance.now();
  const template = await get(
    `/api/acreditacionsolicitud/excelformato?IdContrato=${contract}&IdPerfilAcreditacion=${profile}`,
  );
  console.log(`  template: ${((performance.now() - t0) / 1000).toFixed(2)} s`);
  const path = join(tmpdir(), `bench-bulk-${process.pid}.xlsx`);
  await fill(String(template.fileBase64), path);
  const bytes = readFileSync(path);
  console.log(`  file: ${N} rows, ${(bytes.length / MB).toFixed(1)} MB`);

  resetPeak(pid);
  // Sent with node:http (fetch gives up on an answer after 300 s).
  const boundary = `----bench${Date.now()}`;
  const part = (name: string, value: string) =>
    `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
  const payload = Buffer.concat([
    Buffer.from(part('IdContrato', String(contract)) + part('IdPerfilAcreditacion', String(profile))),
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="carga.xlsx"\r\nContent-Type: application/octet-stream\r\n\r\n`,
    ),
    bytes,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const t1 = performance.now();
  const answer = await new Promise<string>((done, fail) => {
    const req = http.request(
      `${server.url}/api/acreditacionsolicitud/cargamasiva`,
      {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': `multipart/form-data; boundary=${boundary}`,
          'content-length': payload.length,
        },
      },
      (res) => {
        let text = '';
        res.on('data', (chunk) => {
          text += chunk;
        });
        res.on('end', () =>
          res.statusCode === 200
            ? done(text)
            : fail(new Error(`cargamasiva answered ${res.statusCode}: ${text}`)),
        );
      },
    );
    req.on('error', fail);
    req.end(payload);
  });
  // The upload answers at once; its rows are checked by a job, followed here until it ends.
  let uploaded = (JSON.parse(answer) as { result: Record<string, number | string> }).result;
  const answered = (performance.now() - t1) / 1000;
  while (uploaded.Estado === 'C') {
    await new Promise((r) => setTimeout(r, 200));
    uploaded = (await get(
      `/api/acreditacionsolicitud/progresomasivo?CodigoCargaMasiva=${uploaded.CodigoCargaMasiva}`,
    )) as Record<string, number | string>;
  }
  const validate = (performance.now() - t1) / 1000;
  console.log(
    `  cargamasiva answered in ${answered.toFixed(2)} s (the file read and stored, the check begun)`,
  );
  console.log(
    `  validate (cargamasiva): ${uploaded.loaded} rows (${uploaded.observed} observed) in ${validate.toFixed(2)} s = ` +
      `${Math.round(N / validate)} rows/s, server peak rss ${(peakOf(pid) / MB).toFixed(0)} MB`,
  );

  if (Number(uploaded.observed) > 0) {
    const rows = await get(
      `/api/acreditacionsolicitud/filasmasivo?CodigoCargaMasiva=${uploaded.CodigoCargaMasiva}&Estado=E&take=1`,
    );
    console.log(
      `  first observed row: ${JSON.stringify((rows.rows as Array<{ Errores: unknown }>)[0]?.Errores)}`,
    );
  }
  resetPeak(pid);
  const t2 = performance.now();
  await call('/api/acreditacionsolicitud/procesarmasivo', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ CodigoCargaMasiva: uploaded.CodigoCargaMasiva }),
  });
  let progress: Record<string, unknown>;
  // When each tenth of the rows was processed: the rate of the first and of the last tenth tell
  // whether processing slows down as the requests pile up.
  const tenths: number[] = [];
  for (;;) {
    progress = await get(
      `/api/acreditacionsolicitud/progresomasivo?CodigoCargaMasiva=${uploaded.CodigoCargaMasiva}`,
    );
    while (Number(progress.processed) >= ((tenths.length + 1) * N) / 10) tenths.push(performance.now());
    if (!progress.running && progress.Estado === 'F') break;
    await new Promise((r) => setTimeout(r, 200));
  }
  const processSeconds = (performance.now() - t2) / 1000;
  const rateOf = (from: number, to: number) => Math.round(N / 10 / ((to - from) / 1000));
  console.log(
    `  process (procesarmasivo): ${progress.successful} requests in ${processSeconds.toFixed(2)} s = ` +
      `${Math.round(Number(progress.successful) / processSeconds)} rows/s, server peak rss ${(peakOf(pid) / MB).toFixed(0)} MB`,
  );
  if (tenths.length >= 10)
    console.log(
      `  process rate, first tenth of the rows: ${rateOf(t2, tenths[0])} rows/s, last tenth: ${rateOf(tenths[8], tenths[9])} rows/s`,
    );
  console.log(`  whole: ${(validate + processSeconds).toFixed(2)} s`);
});
