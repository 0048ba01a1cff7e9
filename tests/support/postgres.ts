/**
 * The PostgreSQL the database tests use: DATABASE_URL, or 127.0.0.1:5432. REQUIRE_POSTGRES=1
 * (set by .ci/run) turns an unreachable server into a failure instead of a SQLite-only run.
 */
import pg from 'pg';
import type { DialectName } from '../../src/server/db/connection.js';

export const POSTGRES_ADMIN_URL = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';

/** The URL of another database on the same server. */
export function postgresUrl(name: string): string {
  const url = new URL(POSTGRES_ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * One statement on the administration database, on a connection of its own. An absent server
 * refuses the connection at once (ECONNREFUSED); a server that is there but slow to start a backend
 * (both cores busy with a run's start, or with the last run's databases being dropped) is waited
 * for, not taken for absent: the connection may take up to 60 s.
 */
export async function adminQuery(sql: string): Promise<unknown[]> {
  const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL, connectionTimeoutMillis: 60_000 });
  await client.connect();
  try {
    return (await client.query(sql)).rows;
  } finally {
    await client.end().catch(() => {});
  }
}

/**
 * A test database, empty or a copy of `template`. Its commits do not wait for the write-ahead log
 * to reach the disk (synchronous_commit off, a setting of the database that a copy does not
 * inherit): a test never survives a crash of PostgreSQL itself, and each commit's wait for the
 * disk was most of an API test's time on PostgreSQL. A server killed by a test loses nothing by it:
 * what it committed is in PostgreSQL's memory and reaches the disk in well under a second.
 */
export async function createPostgresDatabase(name: string, template?: string): Promise<void> {
  await adminQuery(`create database ${name}${template ? ` template ${template}` : ''}`);
  await adminQuery(`alter database ${name} set synchronous_commit = off`);
}

/** SQLite always; PostgreSQL too when it answers. */
export async function postgresDialects(): Promise<DialectName[]> {
  try {
    await adminQuery('select 1');
    return ['sqlite', 'postgres'];
  } catch (error) {
    if (process.env.REQUIRE_POSTGRES === '1') {
      throw new Error(
        `PostgreSQL is required (REQUIRE_POSTGRES=1) but ${POSTGRES_ADMIN_URL} did not answer: ${error}`,
      );
    }
    console.warn(
      `\n*** PostgreSQL at ${POSTGRES_ADMIN_URL} is not reachable: database tests run on SQLite ONLY. ***\n`,
    );
    return ['sqlite'];
  }
}
