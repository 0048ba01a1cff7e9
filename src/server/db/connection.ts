import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, PostgresAdapter, PostgresDialect, type QueryCreator, SqliteDialect } from 'kysely';
import pg from 'pg';

export type DialectName = 'sqlite' | 'postgres';

// biome-ignore lint/suspicious/noExplicitAny: tables come from the schemas at run time
export type Db = Kysely<any>;
/** What builds a statement: a database, a transaction, or a part of a `with`. */
// biome-ignore lint/suspicious/noExplicitAny: tables come from the schemas at run time
export type Creator = QueryCreator<any>;

/** Whether a database (or a transaction of one) is PostgreSQL's. */
export const isPostgres = (db: Db): boolean => db.getExecutor().adapter instanceof PostgresAdapter;

export interface Database {
  db: Db;
  dialect: DialectName;
  /** Where the data lives, for logs: a file path or a PostgreSQL URL without its password. */
  location: string;
  /**
   * Calls `listener` with the text of every statement sent to the database from now on (the
   * transaction's begin and commit included: on PostgreSQL, each is a round trip); the returned
   * function stops it. The statement-count tests and `bench:write` read the writes through it.
   */
  onStatement(listener: StatementListener): () => void;
  close(): Promise<void>;
}

export type StatementListener = (sql: string) => void;

/** The listeners of one database, told of each statement as its driver sends it. */
function statementListeners() {
  const listeners = new Set<StatementListener>();
  return {
    tell(sql: string) {
      for (const listener of listeners) listener(sql);
    },
    onStatement(listener: StatementListener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
  };
}

export interface DatabaseOptions {
  databaseUrl?: string;
  dataDir: string;
  /** PostgreSQL pool size. */
  poolSize?: number;
  /**
   * SQLite's synchronous level. FULL (the default) syncs the write-ahead log at every commit, so
   * an acknowledged approval or marking survives a power cut; NORMAL may lose the last commits.
   */
  sqliteSynchronous?: 'FULL' | 'NORMAL';
}

export const SQLITE_FILE = 'acreditacion.db';

export function openDatabase(options: DatabaseOptions): Database {
  return options.databaseUrl
    ? openPostgres(options.databaseUrl, options.poolSize)
    : openSqlite(options.dataDir, options.sqliteSynchronous ?? 'FULL');
}

function openSqlite(dataDir: string, synchronous: 'FULL' | 'NORMAL'): Database {
  mkdirSync(dataDir, { recursive: true });
  const file = join(dataDir, SQLITE_FILE);
  const sqlite = new SqliteDatabase(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma(`synchronous = ${synchronous === 'NORMAL' ? 'NORMAL' : 'FULL'}`);
  const statements = statementListeners();
  const db: Db = new Kysely({
    dialect: new SqliteDialect({ database: withStatementCache(sqlite, statements.tell) }),
  });
  return {
    db,
    dialect: 'sqlite',
    location: file,
    onStatement: statements.onStatement,
    close: () => db.destroy(),
  };
}

const STATEMENT_CACHE_SIZE = 500;

/**
 * Kysely prepares every query afresh; the API runs the same few shapes of SQL over and over, so
 * prepared statements are kept by their text (a busy one, mid-iteration, is never shared).
 */
function withStatementCache(
  sqlite: SqliteDatabase.Database,
  tell: StatementListener,
): SqliteDatabase.Database {
  const cache = new Map<string, SqliteDatabase.Statement>();
  // Kysely's driver prepares each statement it runs: what is prepared is what is sent.
  const prepare = (sql: string) => {
    tell(sql);
    const cached = cache.get(sql);
    if (cached && !cached.busy) return cached;
    const statement = sqlite.prepare(sql);
    if (!cached) {
      if (cache.size >= STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value as string);
      cache.set(sql, statement);
    }
    return statement;
  };
  return new Proxy(sqlite, {
    get: (target, property) => {
      if (property === 'prepare') return prepare;
      const value = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

const PG_TYPES = { INT8: 20, DATE: 1082, TIMESTAMP: 1114, TIMESTAMPTZ: 1184, NUMERIC: 1700 };

/** Values come back as the schemas describe them: dates as yyyy-mm-dd, instants as ISO strings. */
function getTypeParser(oid: number, format?: string) {
  switch (oid) {
    case PG_TYPES.INT8:
    case PG_TYPES.NUMERIC:
      return (value: string) => Number(value);
    case PG_TYPES.DATE:
      return (value: string) => value;
    case PG_TYPES.TIMESTAMP:
    case PG_TYPES.TIMESTAMPTZ:
      return (value: string) => new Date(value).toISOString();
    default:
      return pg.types.getTypeParser(oid, format as 'text');
  }
}

const PREPARABLE = /^\s*(select|insert|update|delete|with)\b/i;
const VARIABLE_ARITY = / in \(/i;

/**
 * Kysely sends every query unnamed, so PostgreSQL plans it again each time, and planning the
 * list queries costs more than running them. Statements of a fixed shape go named instead: each
 * connection prepares them once and reuses the plan. Lists with a variable number of values
 * (`in (...)`) stay unnamed, so the set of prepared statements stays bounded.
 */
function preparingClient(client: pg.PoolClient, tell: StatementListener): void {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  (client as { query: unknown }).query = (text: unknown, values?: unknown, callback?: unknown) => {
    tell(typeof text === 'string' ? text : String((text as { text?: unknown })?.text));
    if (
      typeof text === 'string' &&
      Array.isArray(values) &&
      values.length > 0 &&
      PREPARABLE.test(text) &&
      !VARIABLE_ARITY.test(text)
    ) {
      const name = `k${createHash('sha1').update(text).digest('base64url').slice(0, 20)}`;
      return query({ name, text, values }, callback);
    }
    return query(text, values, callback);
  };
}

function openPostgres(url: string, poolSize = 10): Database {
  const pool = new pg.Pool({
    connectionString: url,
    max: poolSize,
    types: { getTypeParser } as pg.CustomTypesConfig,
  });
  let closing = false;
  // A connection the server ends (a restart, a terminated backend) must not bring the process
  // down: the pool drops it and opens another; a query that was running on it fails on its own.
  const dropped = (error: Error) => {
    if (!closing) console.error(JSON.stringify({ msg: 'database connection lost', error: error.message }));
  };
  pool.on('error', dropped);
  const statements = statementListeners();
  pool.on('connect', (client) => {
    client.on('error', dropped);
    preparingClient(client, statements.tell);
  });
  const db: Db = new Kysely({ dialect: new PostgresDialect({ pool }) });
  return {
    db,
    dialect: 'postgres',
    location: redact(url),
    onStatement: statements.onStatement,
    close: () => {
      closing = true;
      return db.destroy();
    },
  };
}

export function redact(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return 'postgres';
  }
}
