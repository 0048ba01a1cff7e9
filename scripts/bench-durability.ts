/**
 * `npm run bench:durability`: what SQLite's synchronous=FULL costs against NORMAL. With FULL the
 * write-ahead log is synced at every commit, so an acknowledged write survives a power cut.
 *
 *   npm run bench:durability -- --n 3000
 *
 * Measures, on a fresh database file per level, one-row transactions on the driver and whole
 * generic writes (validation, unique check, insert and audit row in one transaction) through
 * the service the API uses, one after another. Prints writes per second and p50/p99 latency.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import SqliteDatabase from 'better-sqlite3';
import { CrudService } from '../src/server/crud/service.js';
import { openDatabase, SQLITE_FILE } from '../src/server/db/connection.js';
import { SYSTEM_PRINCIPAL } from '../src/server/plugins/auth.js';
import { prepareDatabase } from '../src/server/prepare.js';
import { loadRegistry } from '../src/server/registry.js';

const { values: args } = parseArgs({ options: { n: { type: 'string', default: '3000' } } });
const N = Number(args.n);
const registry = loadRegistry();

function summary(label: string, times: number[]): string {
  const sorted = [...times].sort((a, b) => a - b);
  const total = times.reduce((a, b) => a + b, 0);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))].toFixed(3);
  return `${label.padEnd(44)} ${Math.round((times.length / total) * 1000)
    .toLocaleString('en')
    .padStart(7)} writes/s   p50 ${at(0.5)} ms   p99 ${at(0.99)} ms`;
}

async function level(synchronous: 'NORMAL' | 'FULL'): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'acr-durability-'));
  try {
    const raw = new SqliteDatabase(join(dir, 'raw.db'));
    raw.pragma('journal_mode = WAL');
    raw.pragma(`synchronous = ${synchronous}`);
    raw.exec('create table marking (id integer primary key, person integer, at text, result text)');
    const insert = raw.prepare('insert into marking (person, at, result) values (?, ?, ?)');
    const write = raw.transaction((i: number) => insert.run(i, new Date().toISOString(), 'A'));
    const driver: number[] = [];
    for (let i = 0; i < N; i++) {
      const start = performance.now();
      write(i);
      driver.push(performance.now() - start);
    }
    raw.close();
    console.log(summary(`${synchronous}: one-row transaction, driver`, driver));

    const database = openDatabase({ dataDir: dir, sqliteSynchronous: synchronous });
    await prepareDatabase(database, registry);
    const crud = new CrudService(database, registry);
    const entity = registry.require('civil-status');
    const service: number[] = [];
    for (let i = 0; i < N; i++) {
      const start = performance.now();
      await crud.create(
        entity,
        { EstadoCivil: `ESTADO ${i.toString(26).replace(/\d/g, (d) => 'QRSTUVWXYZ'[Number(d)])}` },
        SYSTEM_PRINCIPAL,
      );
      service.push(performance.now() - start);
    }
    await database.close();
    console.log(summary(`${synchronous}: generic write with its audit row`, service));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

console.log(`SQLite in WAL mode, ${N} writes one after another (${SQLITE_FILE}-like files in ${tmpdir()})`);
await level('NORMAL');
await level('FULL');
