/**
 * Global set-up of the test run: the databases every suite starts from, prepared once.
 *
 * Preparing a database (about 90 tables) and loading the demo data takes 4–5 s on SQLite and
 * 10–11 s on PostgreSQL; thirty suites doing it for themselves spent most of the API tests' time
 * on it. Instead, once per run, a "demo" database (prepared and seeded) and a "bare" one (prepared
 * only) are made per dialect; each suite then gets a copy of its own: the SQLite folder (database
 * file and kept files) copied, a PostgreSQL database created `TEMPLATE` the prepared one. A copy is
 * as fresh as a database prepared for the suite itself, at a fraction of the cost.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { type DialectName, openDatabase } from '../../src/server/db/connection.js';
import { prepareDatabase } from '../../src/server/db/prepare.js';
import { seedDemo } from '../../src/server/demo/seed.js';
import { loadRegistry } from '../../src/server/registry.js';
import { fileStoreFor } from '../../src/server/storage/files.js';
import { adminQuery, createPostgresDatabase, postgresDialects, postgresUrl } from './postgres.js';
import type { DatabaseTemplates, TemplateKind } from './template-folders.js';

export type { DatabaseTemplates, TemplateKind };

/** The projects that use databases; a run of the unit tests alone makes none. */
const USERS = new Set(['api', 'e2e']);

async function makeTemplate(kind: TemplateKind, where: string, pgName?: string) {
  const registry = loadRegistry();
  mkdirSync(where, { recursive: true });
  if (pgName) await createPostgresDatabase(pgName);
  const database = openDatabase(
    pgName ? { databaseUrl: postgresUrl(pgName), dataDir: where, poolSize: 2 } : { dataDir: where },
  );
  try {
    await prepareDatabase(database, registry);
    if (kind === 'demo')
      await seedDemo(database, registry, { files: fileStoreFor(database, join(where, 'files')) });
  } finally {
    // Closing SQLite folds its write-ahead log into the file: the folder is whole to copy.
    await database.close();
  }
}

/** Drops the databases earlier runs left behind (a run killed before its teardown). */
async function dropLeftovers(): Promise<void> {
  const rows = (await adminQuery(
    "select datname from pg_database where datname like 'acr\\_t%\\_%' escape '\\'",
  )) as Array<{ datname: string }>;
  for (const { datname } of rows) {
    const pid = Number(/^acr_(?:test|tpl)_(\d+)_/.exec(datname)?.[1]);
    if (!pid) continue;
    try {
      process.kill(pid, 0);
      continue; // its run is still going
    } catch {
      // its process is gone
    }
    await adminQuery(`drop database if exists ${datname} with (force)`).catch(() => {});
  }
}

export default async function setup(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  const dialects = await postgresDialects();
  const root = mkdtempSync(join(tmpdir(), 'acr-templates-'));
  const folder = (dialect: DialectName) => ({
    demo: join(root, `${dialect}-demo`),
    bare: join(root, `${dialect}-bare`),
  });
  const templates: DatabaseTemplates = {
    dialects,
    folders: { sqlite: folder('sqlite'), postgres: folder('postgres') },
  };
  const wanted = project.vitest.projects.some((p) => USERS.has(p.name));
  if (wanted) {
    const started = Date.now();
    const jobs = [
      makeTemplate('demo', templates.folders.sqlite.demo),
      makeTemplate('bare', templates.folders.sqlite.bare),
    ];
    if (dialects.includes('postgres')) {
      await dropLeftovers();
      templates.postgres = { demo: `acr_tpl_${process.pid}_demo`, bare: `acr_tpl_${process.pid}_bare` };
      jobs.push(
        makeTemplate('demo', templates.folders.postgres.demo, templates.postgres.demo),
        makeTemplate('bare', templates.folders.postgres.bare, templates.postgres.bare),
      );
    }
    await Promise.all(jobs);
    console.log(
      `test databases prepared in ${((Date.now() - started) / 1000).toFixed(1)} s (${dialects.join(', ')})`,
    );
  }
  project.provide('databaseTemplates', templates);
  return async () => {
    for (const name of Object.values(templates.postgres ?? {}))
      await adminQuery(`drop database if exists ${name} with (force)`).catch(() => {});
    rmSync(root, { recursive: true, force: true });
  };
}
