/**
 * Global set-up of the test run: the databases every suite starts from, prepared once.
 *
 * Preparing a database (about 90 tables) and loading the demo data takes 4–5 s on SQLite and
 * 10–11 s on PostgreSQL; thirty suites doing it for themselves spent most of the API tests' time
 * on it. Instead, once per run, a "demo" database (prepared and seeded) and a "bare" one (prepared
 * only) are made per dialect; each suite then gets a copy of its own: the SQLite folder (database
 * file and kept files) copied, a PostgreSQL database created `TEMPLATE` the prepared one. A copy is
 * as fresh as a database prepared for the suite itself, at a fraction of the cost. Each dialect's
 * demo database starts as a copy of its bare one (template-maker.ts), and PostgreSQL's pair is made
 * by a process of its own while this one makes SQLite's: about 8 s for the four.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import type { DialectName } from '../../src/server/db/connection.js';
import { adminQuery, postgresDialects } from './postgres.js';
import type { DatabaseTemplates, TemplateKind } from './template-folders.js';
import { makeTemplatePair, type TemplatePair } from './template-maker.js';

const MAKER = join(import.meta.dirname, 'template-maker.ts');

export type { DatabaseTemplates, TemplateKind };

/** The projects that use databases; a run of the unit tests alone makes none. */
const USERS = new Set(['api', 'e2e']);

/** PostgreSQL's pair, made by a process of its own (template-maker.ts) beside this one's SQLite pair. */
function makePostgresPair(pair: Required<TemplatePair>): Promise<void> {
  const args = [pair.folders.bare, pair.folders.demo, pair.names.bare, pair.names.demo];
  const child = spawn(process.execPath, ['--import', 'tsx', MAKER, 'postgres', ...args], {
    stdio: ['ignore', 'inherit', 'pipe'],
  });
  let errors = '';
  child.stderr?.on('data', (chunk) => (errors += chunk));
  return new Promise((done, fail) => {
    child.once('error', fail);
    child.once('exit', (code) =>
      code === 0 ? done() : fail(new Error(`PostgreSQL's template databases were not made:\n${errors}`)),
    );
  });
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
    const jobs: Array<Promise<void>> = [];
    if (dialects.includes('postgres')) {
      await dropLeftovers();
      templates.postgres = { demo: `acr_tpl_${process.pid}_demo`, bare: `acr_tpl_${process.pid}_bare` };
      jobs.push(
        makePostgresPair({
          dialect: 'postgres',
          folders: templates.folders.postgres,
          names: templates.postgres,
        }),
      );
    }
    jobs.push(makeTemplatePair({ dialect: 'sqlite', folders: templates.folders.sqlite }));
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
