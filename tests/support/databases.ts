/**
 * The database tests run once per dialect: SQLite always, PostgreSQL when a server answers
 * (DATABASE_URL, or 127.0.0.1:5432). Each suite gets a database of its own: empty, or a copy of
 * the run's prepared database (`bare`) or prepared and seeded one (`demo`), see templates.ts.
 * REQUIRE_POSTGRES=1 (set by .ci/run) turns an unreachable PostgreSQL into a failure.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inject } from 'vitest';
import { type Database, type DialectName, openDatabase } from '../../src/server/db/connection.js';
import { adminQuery, createPostgresDatabase, postgresUrl } from './postgres.js';
import { copyTemplateFolder, type TemplateKind } from './template-folders.js';

export { POSTGRES_ADMIN_URL } from './postgres.js';

const templates = inject('databaseTemplates');

export const DIALECTS: DialectName[] = templates.dialects;

export interface TestDatabase {
  database: Database;
  /** The URL (PostgreSQL) or folder (SQLite) of this test database. */
  location: { databaseUrl?: string; dataDir: string };
  drop(): Promise<void>;
}

let counter = 0;

/**
 * A database of the suite's own: empty, or a copy of the run's `bare` (prepared) or `demo`
 * (prepared and seeded, its kept files in `<dataDir>/files`) database.
 */
export async function createTestDatabase(dialect: DialectName, from?: TemplateKind): Promise<TestDatabase> {
  const dataDir = mkdtempSync(join(tmpdir(), 'acr-test-'));
  if (from) copyTemplateFolder(templates.folders[dialect][from], dataDir);
  if (dialect === 'sqlite') {
    const database = openDatabase({ dataDir });
    return {
      database,
      location: { dataDir },
      drop: async () => {
        await database.close();
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  }
  const name = `acr_test_${process.pid}_${Date.now()}_${counter++}`;
  const template = from ? templates.postgres?.[from] : undefined;
  if (from && !template) throw new Error('PostgreSQL is not in this run: no template to copy');
  await createPostgresDatabase(name, template);
  const databaseUrl = postgresUrl(name);
  const database = openDatabase({ databaseUrl, dataDir, poolSize: 4 });
  return {
    database,
    location: { databaseUrl, dataDir },
    drop: async () => {
      await database.close();
      await adminQuery(`drop database if exists ${name} with (force)`);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
