import { type Expression, type SelectQueryBuilder, sql } from 'kysely';
import * as pgJson from 'kysely/helpers/postgres';
import * as sqliteJson from 'kysely/helpers/sqlite';
import { type Db, isPostgres } from './connection.js';

// biome-ignore lint/suspicious/noExplicitAny: tables come from the schemas at run time
type AnySelect = SelectQueryBuilder<any, any, any>;
type Row = Record<string, unknown>;

/**
 * Several reads asked in one statement: each question a subquery of one `select`, its answer a
 * column. On PostgreSQL that is one round trip instead of one per question, and one connection of
 * the pool instead of several; the answers are the same as asking one at a time. What a write
 * checks before it writes (crud/checks.ts) and a gate decision's holder (services/site/loader.ts)
 * are read so.
 *
 * - `row`: the first row of the query as an object (its columns named by `select`), or null;
 * - `rows`: every row of the query, as an array of objects;
 * - `value`: the first column of the first row, or null.
 */
export type Probe = { query: AnySelect; as: 'row' | 'rows' | 'value' };

export type Answers = Record<string, unknown>;

function asked(postgres: boolean, { query, as }: Probe): Expression<unknown> {
  const json = postgres ? pgJson : sqliteJson;
  if (as === 'row') return json.jsonObjectFrom(query.limit(1));
  if (as === 'rows') return json.jsonArrayFrom(query);
  return sql`(${query.limit(1)})`;
}

/** SQLite answers JSON as text, PostgreSQL as parsed values. */
const parsed = (value: unknown, as: Probe['as']) =>
  as !== 'value' && typeof value === 'string' ? JSON.parse(value) : value;

/**
 * Asks every probe in one statement (none when there are none); answers by the probes' names.
 * Values come back as JSON has them: numbers, text, dates as yyyy-mm-dd (an instant as PostgreSQL
 * writes it in JSON, with its offset).
 */
export async function ask(db: Db, probes: Record<string, Probe>): Promise<Answers> {
  const names = Object.keys(probes);
  if (!names.length) return {};
  const postgres = isPostgres(db);
  const row = (await db
    .selectNoFrom(names.map((name, i) => sql`${asked(postgres, probes[name])}`.as(`p${i}`)))
    .executeTakeFirstOrThrow()) as Row;
  return Object.fromEntries(names.map((name, i) => [name, parsed(row[`p${i}`], probes[name].as)]));
}
