import { AsyncLocalStorage } from 'node:async_hooks';

/** What a scope keeps: reads, which a rollback leaves true, and tallies, which it makes wrong. */
interface Kept {
  reads: Map<string, Promise<unknown>>;
  tallies: Map<string, Promise<unknown>>;
}

/** What the scope being run keeps; none outside a scope. */
const scope = new AsyncLocalStorage<Kept>();

/**
 * Runs `work` keeping the reference reads made through `keptRead` inside it: a set of rows filed
 * in one transaction (a bulk upload's) reads a profile, a contract or a parameter once for all of
 * them instead of once per row. The scope ends with `work`, so what is kept is never older than
 * the transaction that read it.
 */
export function keepingReads<T>(work: () => Promise<T>): Promise<T> {
  return scope.run({ reads: new Map(), tallies: new Map() }, work);
}

/** `load`'s answer kept in `kept` by `key`, a failed load not kept. */
function keep<T>(kept: Map<string, Promise<unknown>>, key: string, load: () => Promise<T>): Promise<T> {
  const found = kept.get(key) as Promise<T> | undefined;
  if (found) return found;
  const value = load();
  kept.set(key, value);
  value.catch(() => kept.delete(key));
  return value;
}

/**
 * What `load` answers for `key`: inside `keepingReads`, loaded once and shared by every later call
 * with the same key (a failed load is not kept); outside, loaded each time. The key names all that
 * the answer depends on but the transaction.
 */
export function keptRead<T>(key: string, load: () => Promise<T>): Promise<T> {
  const kept = scope.getStore();
  return kept ? keep(kept.reads, key, load) : load();
}

/**
 * A count the rows of a scope keep up to date as they write (the people a contract holds): counted
 * by `start` once, then changed by its caller after each row; undefined outside `keepingReads`, where
 * the caller counts afresh. `rolledBack` forgets it.
 */
export function keptTally<T extends object>(key: string, start: () => Promise<T>): Promise<T> | undefined {
  const kept = scope.getStore();
  return kept ? keep(kept.tallies, key, start) : undefined;
}

/** The scope's rows were rolled back (to a savepoint): its tallies are counted again when next asked. */
export function rolledBack(): void {
  scope.getStore()?.tallies.clear();
}
