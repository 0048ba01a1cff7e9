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
export async function settlingRace<T>(registry: Registry, write: () => Promise<T>, again = true): Promise<T> {
  try {
    return await write();
  } catch (error) {
    const rule = brokenUniqueWhen(registry, error);
    if (!rule) throw error;
    if (!again) throw uniqueWhenRefusal(rule);
  }
  try {
    return await write();
  } catch (error) {
    const rule = brokenUniqueWhen(registry, error);
    throw rule ? uniqueWhenRefusal(rule) : error;
  }
}
