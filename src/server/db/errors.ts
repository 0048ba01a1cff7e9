import type { UniqueWhen } from '../../shared/schema/types.js';
import { ApiError } from '../errors.js';
import type { Registry } from '../registry.js';
import { uniqueWhenName } from './sync.js';

type DriverError = {
  code?: unknown;
  constraint?: unknown;
  message?: unknown;
  errors?: unknown;
  cause?: unknown;
};

/** Where a database cannot be reached: nothing listens, the connection was cut or never made. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EPIPE',
]);
/**
 * PostgreSQL's own: the server shutting down or restarting (57P01 to 57P03), a connection
 * exception (class 08), too many connections (53300).
 */
const POSTGRES_UNAVAILABLE = new Set(['57P01', '57P02', '57P03', '53300']);
/** What the pg client says of a connection that went away or could not be had in time. */
const CLIENT_MESSAGES =
  /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Client was closed)/;

/**
 * Whether an error says the database is out of reach for now (down, restarting, its connections
 * cut, or on SQLite its file held by another writer beyond the busy timeout), as opposed to the
 * query or the data being wrong: the call may be made again later.
 */
export function databaseUnavailable(error: unknown, depth = 0): boolean {
  if (typeof error !== 'object' || error === null || depth > 3) return false;
  const e = error as DriverError;
  const code = typeof e.code === 'string' ? e.code : '';
  if (NETWORK_CODES.has(code) || POSTGRES_UNAVAILABLE.has(code) || /^08[0-9A-Z]{3}$/.test(code)) return true;
  if (code.startsWith('SQLITE_BUSY')) return true;
  if (typeof e.message === 'string' && !code && CLIENT_MESSAGES.test(e.message)) return true;
  // Node's connection attempts to each address of a name fail together (AggregateError).
  if (Array.isArray(e.errors) && e.errors.some((inner) => databaseUnavailable(inner, depth + 1))) return true;
  return e.cause !== undefined && databaseUnavailable(e.cause, depth + 1);
}

const rulesByIndex = new WeakMap<Registry, Map<string, UniqueWhen>>();

/** Every x-uniqueWhen rule by its index's name, and by its table and columns as SQLite names them. */
function rulesOf(registry: Registry): Map<string, UniqueWhen> {
  let rules = rulesByIndex.get(registry);
  if (!rules) {
    rules = new Map();
    for (const entity of registry.entities)
      for (const rule of entity.uniqueWhen) {
        rules.set(uniqueWhenName(entity.table, rule), rule);
        rules.set(rule.fields.map((f) => `${entity.table}.${f}`).join(', '), rule);
      }
    rulesByIndex.set(registry, rules);
  }
  return rules;
}

/**
 * The partial unique index (x-uniqueWhen) a write broke, if the error is that: PostgreSQL names
 * the index, SQLite its table's columns ("UNIQUE constraint failed: t.a, t.b").
 */
export function brokenUniqueWhen(registry: Registry, error: unknown): UniqueWhen | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const e = error as DriverError;
  if (e.code === '23505' && typeof e.constraint === 'string') return rulesOf(registry).get(e.constraint);
  if (e.code === 'SQLITE_CONSTRAINT_UNIQUE' && typeof e.message === 'string')
    return rulesOf(registry).get(e.message.replace(/^UNIQUE constraint failed: /, ''));
  return undefined;
}

/** Whether an error is a unique key's refusal (any unique index or primary key). */
export function uniqueViolation(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const code = (error as DriverError).code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

/** The refusal of a record a partial unique index refused: a 409 with the index's message. */
export function uniqueWhenRefusal(rule: UniqueWhen): ApiError {
  return new ApiError('DUPLICATE', { messageKey: rule.messageKey });
}

/**
 * Runs a write whose service refuses a duplicate itself before making it. Two writers may pass
 * that check together (PostgreSQL runs them side by side); the database's partial unique index
 * (x-uniqueWhen) then refuses the slower one's row, and its whole transaction is undone. The write
 * runs once more: its check now sees the other's committed record and refuses as it always does,
 * naming that record. Inside a caller's transaction (`again` false: a bulk upload's row), which
 * the refusal has spoilt on PostgreSQL, it is refused at once with the index's message.
 */
export async function settlingRace<T>(
  registry: Registry,
  write: () => Promise<T>,
  again = true,
  /** Another refusal a second run settles too (a number of a series two writers both took). */
  alsoOn?: (error: unknown) => boolean,
): Promise<T> {
  try {
    return await write();
  } catch (error) {
    const rule = brokenUniqueWhen(registry, error);
    if (!rule && !alsoOn?.(error)) throw error;
    if (!again) throw rule ? uniqueWhenRefusal(rule) : error;
  }
  try {
    return await write();
  } catch (error) {
    const rule = brokenUniqueWhen(registry, error);
    throw rule ? uniqueWhenRefusal(rule) : error;
  }
}
