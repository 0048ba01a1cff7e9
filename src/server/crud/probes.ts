import { type Expression, sql } from 'kysely';
import * as pgJson from 'kysely/helpers/postgres';
import * as sqliteJson from 'kysely/helpers/sqlite';
import type { Db, DialectName } from '../db/connection.js';
import type { AnySelect, Row } from './types.js';

/**
 * What a write reads before it writes (its references, the document types its documents follow,
 * the client's field rules, a record already holding its unique values), asked in one statement:
 * each question a subquery of one `select`, its answer a column. On PostgreSQL that is one round
 * trip instead of one per question; the answers are the same as asking one at a time.
 *
 * - `row`: the first row of the query as an object (its columns named by `select`), or null;
 * - `rows`: every row of the query, as an array of objects;
 * - `value`: the first column of the first row, or null.
 */
export type Probe = { query: AnySelect; as: 'row' | 'rows' | 'value' };

export type Answers = Record<string, unknown>;

function asked(dialect: DialectName, { query, as }: Probe): Expression<unknown> {
  const json = dialect === 'postgres' ? pgJson : sqliteJson;
  if (as === 'row') return json.jsonObjectFrom(query.limit(1));
  if (as === 'rows') return json.jsonArrayFrom(query);
  return sql`(${query.limit(1)})`;
}

/** SQLite answers JSON as text, PostgreSQL as parsed values. */
const parsed = (value: unknown, as: Probe['as']) =>
  as !== 'value' && typeof value === 'string' ? JSON.parse(value) : value;

/** Asks every probe in one statement (none when there are none); answers by the probes' names. */
export async function ask(db: Db, dialect: DialectName, probes: Record<string, Probe>): Promise<Answers> {
  const names = Object.keys(probes);
  if (!names.length) return {};
  const row = (await db
    .selectNoFrom(names.map((name, i) => sql`${asked(dialect, probes[name])}`.as(`p${i}`)))
    .executeTakeFirstOrThrow()) as Row;
  return Object.fromEntries(names.map((name, i) => [name, parsed(row[`p${i}`], probes[name].as)]));
}
