import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * A count the rows of a scope keep up to date as they write: what the rows kept so far counted,
 * and what the row being written adds, undone if it is rolled back.
 */
export class Tally {
  private pending = 0;
  constructor(private kept: number) {}

  get count(): number {
    return this.kept + this.pending;
  }

  /** The row being written adds `n`. */
  add(n: number): void {
    this.pending += n;
  }

  /** The row was kept (or rolled back): what it added stays (or goes). */
  settle(kept: boolean): void {
    if (kept) this.kept += this.pending;
    this.pending = 0;
  }
}

/** Additions to one counter row that a scope's rows make, written once by `write` when it ends. */
interface Addition {
  write: (n: number) => Promise<void>;
  /** What the rows kept so far added. */
  kept: number;
  /** What the row being written adds. */
  pending: number;
}

/**
 * What a scope keeps: reads, which a rollback leaves true; tallies and additions, which follow the
 * rows.
 */
interface Kept {
  reads: Map<string, Promise<unknown>>;
  tallies: Map<string, Promise<Tally>>;
  /** The tallies counted so far (one still being counted has nothing added yet). */
  counted: Set<Tally>;
  additions: Map<string, Addition>;
  /** The transaction whose counter additions wait for the end of the scope (`addingLaterOn`). */
  addingOn?: unknown;
  /** Whether every row of the scope is rolled back (a dry run): nothing it reads needs a lock. */
  dryRun: boolean;
}

/** What the scope being run keeps; none outside a scope. */
const scope = new AsyncLocalStorage<Kept>();

/**
 * Runs `work` keeping the reference reads made through `keptRead` inside it: a set of rows filed
 * in one transaction (a bulk upload's) reads a profile, a contract or a parameter once for all of
 * them instead of once per row. The scope ends with `work`, so what is kept is never older than
 * the transaction that read it.
 */
export function keepingReads<T>(work: () => Promise<T>, options: { dryRun?: boolean } = {}): Promise<T> {
  return scope.run(
    {
      reads: new Map(),
      tallies: new Map(),
      counted: new Set(),
      additions: new Map(),
      dryRun: options.dryRun === true,
    },
    work,
  );
}

/**
 * Whether the rows being written are a dry run's, all rolled back: a row lock that serialises
 * filings (the last place of a contract) is then not needed, and would only make the dry run's
 * sets wait for each other.
 */
export function inDryRun(): boolean {
  return scope.getStore()?.dryRun === true;
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
 * by `start` once, then added to by each row (`Tally.add`); undefined outside `keepingReads`, where
 * the caller counts afresh. Each row ends with `rowKept` or `rowRolledBack`.
 */
export function keptTally(key: string, start: () => Promise<number>): Promise<Tally> | undefined {
  const kept = scope.getStore();
  if (!kept) return undefined;
  return keep(kept.tallies, key, async () => {
    const tally = new Tally(await start());
    kept.counted.add(tally);
    return tally;
  });
}

/** The scope's row was rolled back to its savepoint: what it added to the tallies goes. */
export function rowRolledBack(): void {
  settleTallies(false);
}

/** The scope's row was kept: what it added to the tallies stays. */
export function rowKept(): void {
  settleTallies(true);
}

function settleTallies(kept: boolean): void {
  const store = scope.getStore();
  for (const tally of store?.counted ?? []) tally.settle(kept);
  for (const addition of store?.additions.values() ?? []) {
    if (kept) addition.kept += addition.pending;
    addition.pending = 0;
  }
}

/**
 * From now on in this scope, counter additions made in `trx` (`addLater`) wait to be written at its
 * end (`writeAdditions`): a set of rows filed in one transaction then locks a counter they all add
 * to (a company's requests of the month) once, at the end, instead of from its first row on, which
 * made sets running side by side wait for each other.
 */
export function addingLaterOn(trx: unknown): void {
  const kept = scope.getStore();
  if (kept) kept.addingOn = trx;
}

/**
 * Adds `n` to a counter row named by `key`, in `db`: written at once by `write` (which writes a
 * sum), unless `db` is the scope's transaction that adds later (`addingLaterOn`), where it is summed
 * with the other rows' additions and written by the first `write` given for the key.
 */
export async function addLater(
  db: unknown,
  key: string,
  n: number,
  write: (n: number) => Promise<void>,
): Promise<void> {
  const kept = scope.getStore();
  if (!kept || kept.addingOn === undefined || kept.addingOn !== db) return write(n);
  const addition = kept.additions.get(key) ?? { write, kept: 0, pending: 0 };
  kept.additions.set(key, addition);
  addition.pending += n;
}

/**
 * Writes what the scope's kept rows added to each counter (`addLater`), in the order of their
 * keys, so that two scopes lock the same counters in the same order; called last in the scope's
 * transaction, after which additions are written at once again.
 */
export async function writeAdditions(): Promise<void> {
  const kept = scope.getStore();
  if (!kept) return;
  kept.addingOn = undefined;
  const keys = [...kept.additions.keys()].sort();
  for (const key of keys) {
    const addition = kept.additions.get(key) as Addition;
    kept.additions.delete(key);
    if (addition.kept !== 0) await addition.write(addition.kept);
  }
}
