/**
 * The database tests run once per dialect: SQLite always, PostgreSQL when a server answers
 * (DATABASE_URL, or 127.0.0.1:5432). Each suite gets a fresh database of its own.
 * REQUIRE_POSTGRES=1 (set by .ci/run) turns an unreachable PostgreSQL into a failure.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { type Database, type DialectName, openDatabase } from '../../src/server/db/connection.js';

export const POSTGRES_ADMIN_URL = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';

async function postgresReachable(): Promise<boolean> {
  const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.query('select 1');
    return true;
  } catch (error) {
    if (process.env.REQUIRE_POSTGRES === '1') {
      throw new Error(
        `PostgreSQL is required (REQUIRE_POSTGRES=1) but ${POSTGRES_ADMIN_URL} did not answer: ${error}`,
      );
    }
    console.warn(
      `\n*** PostgreSQL at ${POSTGRES_ADMIN_URL} is not reachable: database tests run on SQLite ONLY. ***\n`,
    );
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

export const DIALECTS: DialectName[] = (await postgresReachable()) ? ['sqlite', 'postgres'] : ['sqlite'];

export interface TestDatabase {
  database: Database;
  /** The URL (PostgreSQL) or folder (SQLite) of this test database. */
  location: { databaseUrl?: string; dataDir: string };
  drop(): Promise<void>;
}

let counter = 0;

export async function createTestDatabase(dialect: DialectName): Promise<TestDatabase> {
  const dataDir = mkdtempSync(join(tmpdir(), 'acr-test-'));
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
  const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(POSTGRES_ADMIN_URL);
  url.pathname = `/${name}`;
  const databaseUrl = url.toString();
  const database = openDatabase({ databaseUrl, dataDir, poolSize: 4 });
  return {
    database,
    location: { databaseUrl, dataDir },
    drop: async () => {
      await database.close();
      const again = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
      await again.connect();
      await again.query(`drop database if exists ${name} with (force)`);
      await again.end();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
