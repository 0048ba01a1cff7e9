/**
 * `npm run bench:export`: loads N persons (default 100 000) and downloads the person list as an
 * Excel file from the running server, on SQLite and on PostgreSQL. Prints rows per second and the
 * server process's resident memory before the export and at its peak (VmHWM), read from /proc.
 *
 *   npm run bench:export -- --n 100000 --dialects sqlite,postgres --runs 3
 */
import { readFileSync } from 'node:fs';
import http from 'node:http';
import { parseArgs } from 'node:util';
import { eachDialect, load, signIn, startServer } from './bench/setup.js';

const { values: args } = parseArgs({
  options: {
    n: { type: 'string', default: process.env.BENCH_N ?? '100000' },
    runs: { type: 'string', default: '3' },
    dialects: { type: 'string', default: 'sqlite,postgres' },
    'postgres-url': {
      type: 'string',
      default: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
    },
  },
});
const N = Number(args.n);
const RUNS = Number(args.runs);
const MB = 1024 * 1024;

/** Resident memory of a process now and at its peak, from /proc (Linux), in bytes. */
function memoryOf(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0) * 1024;
  return { rss: kb('VmRSS'), peak: kb('VmHWM') };
}

/** GETs a path and counts the bytes without keeping them. */
function download(url: string, token: string): Promise<{ bytes: number; ms: number; status: number }> {
  return new Promise((done, fail) => {
    const started = performance.now();
    http
      .get(url, { headers: { authorization: `Bearer ${token}`, 'accept-language': 'es' } }, (res) => {
        let bytes = 0;
        res.on('data', (chunk: Buffer) => {
          bytes += chunk.length;
        });
        res.on('end', () => done({ bytes, ms: performance.now() - started, status: res.statusCode ?? 0 }));
        res.on('error', fail);
      })
      .on('error', fail);
  });
}

async function total(url: string, token: string): Promise<number> {
  const res = await fetch(`${url}/api/rest/person?range=[0,0]`, {
    headers: { authorization: `Bearer ${token}` },
  });
  return Number(res.headers.get('content-range')?.split('/')[1]);
}

console.log(`bench:export  N=${N} persons, ${RUNS} runs per dialect, node ${process.version}`);
await eachDialect(args.dialects, args['postgres-url'], async (target, _dialect, started) => {
  await load(target.database, N);
  await target.database.close();
  const server = await startServer(target.env);
  started(server);
  const pid = server.child.pid as number;
  const token = await signIn(server.url);
  const rows = await total(server.url, token);
  const path = `/api/rest/person/export?sort=${encodeURIComponent('["Apellido","ASC"]')}`;
  const before = memoryOf(pid);
  console.log(
    `  server before the exports: rss ${(before.rss / MB).toFixed(0)} MB, peak so far ${(before.peak / MB).toFixed(0)} MB`,
  );
  for (let run = 1; run <= RUNS; run++) {
    const { bytes, ms, status } = await download(`${server.url}${path}`, token);
    if (status !== 200) throw new Error(`export answered ${status}`);
    const after = memoryOf(pid);
    console.log(
      `  run ${run}: ${rows} rows in ${(ms / 1000).toFixed(2)} s = ${Math.round(rows / (ms / 1000))} rows/s, ` +
        `${(bytes / MB).toFixed(1)} MB file, server peak rss ${(after.peak / MB).toFixed(0)} MB`,
    );
  }
});
