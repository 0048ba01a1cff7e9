import { sql } from 'kysely';
import type { Database } from '../../db/connection.js';

/** The access log's table (schemas/security/sensitive-access.schema.json). */
export const ACCESS_LOG_TABLE = 'security_sensitive_access';

/**
 * The access log of sensitive data is append-only in the database itself: an update, a delete or
 * (on PostgreSQL) a truncate of it is refused, whoever sends it.
 */
export async function ensurePrivacyTables({ db, dialect }: Database): Promise<void> {
  if (dialect === 'sqlite') {
    for (const operation of ['UPDATE', 'DELETE'])
      await sql
        .raw(
          `CREATE TRIGGER IF NOT EXISTS ${ACCESS_LOG_TABLE}_no_${operation.toLowerCase()} BEFORE ${operation} ON ${ACCESS_LOG_TABLE} BEGIN SELECT RAISE(ABORT, 'append-only: ${ACCESS_LOG_TABLE}'); END`,
        )
        .execute(db);
    return;
  }
  const exists = await sql<{
    n: number;
  }>`select count(*)::int as n from pg_trigger where tgname = ${`${ACCESS_LOG_TABLE}_append_only`}`.execute(
    db,
  );
  if (exists.rows[0].n > 0) return;
  await sql
    .raw(
      `CREATE OR REPLACE FUNCTION append_only() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'append-only: %', TG_TABLE_NAME USING ERRCODE = 'insufficient_privilege'; END $$`,
    )
    .execute(db);
  await sql
    .raw(
      `CREATE TRIGGER ${ACCESS_LOG_TABLE}_append_only BEFORE UPDATE OR DELETE ON ${ACCESS_LOG_TABLE} FOR EACH ROW EXECUTE FUNCTION append_only()`,
    )
    .execute(db);
  await sql
    .raw(
      `CREATE TRIGGER ${ACCESS_LOG_TABLE}_no_truncate BEFORE TRUNCATE ON ${ACCESS_LOG_TABLE} FOR EACH STATEMENT EXECUTE FUNCTION append_only()`,
    )
    .execute(db);
}
