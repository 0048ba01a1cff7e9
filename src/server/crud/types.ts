import type { SelectQueryBuilder } from 'kysely';
import type { Db } from '../db/connection.js';
import type { Principal } from '../principal.js';
import type { Entity, Registry } from '../registry.js';

export type Row = Record<string, unknown>;
/** A row as the API returns it: every column plus `id`, the primary key's value. */
export type ApiRecord = Row & { id: unknown };
export type RecordId = string | number;

// biome-ignore lint/suspicious/noExplicitAny: tables come from the schemas at run time
export type AnySelect = SelectQueryBuilder<any, any, any>;

export interface WriteContext {
  db: Db;
  entity: Entity;
  principal: Principal;
  operation: 'create' | 'update' | 'delete';
  existing?: Row;
}

/** Business rules an entity adds to the generic writes; they run inside the write's transaction. */
export interface EntityHooks {
  /**
   * Before a create is written: the key of an existing record the create takes over instead (a
   * person registered before, by another company, now registered by the company they move to),
   * which the create's data then replace as an update would; or undefined for a new record. May
   * refuse (throw an ApiError). Runs with the unscoped database: what it finds is not shown.
   */
  claim?(ctx: WriteContext & { data: Row }): Promise<RecordId | undefined>;
  /**
   * After validation, before the row is written: may refuse (throw an ApiError) or adjust `data`.
   * `set` takes what the server decides of the record (a deadline it works out), written on a
   * create and on an update alike, though no body may carry it.
   */
  beforeWrite?(ctx: WriteContext & { data: Row; set: Row }): Promise<void>;
  /** After the row is written. */
  afterWrite?(ctx: WriteContext & { row: Row }): Promise<void>;
  /** Before a delete: may refuse. */
  beforeDelete?(ctx: WriteContext & { existing: Row }): Promise<void>;
  /** Once a create, update or delete has committed (what derives from it may look at once). */
  committed?(): void;
}

/** Entity hooks keyed by resource name. */
export type HookMap = Record<string, EntityHooks>;

/**
 * Merges the hooks the features contribute, refusing at start-up a name the registry does not
 * know (a misspelt key would silently disable a business rule). Several features may hook one
 * entity: their hooks run in the features' order, each before the next (a claim: the first that
 * names a record), inside the same write and transaction, so any of them refusing undoes it all.
 */
export function mergeHooks(registry: Registry, ...maps: Array<{ owner: string; hooks: HookMap }>): HookMap {
  const byName = new Map<string, EntityHooks[]>();
  const problems: string[] = [];
  for (const { owner, hooks } of maps) {
    for (const [name, hook] of Object.entries(hooks)) {
      if (!registry.get(name)) problems.push(`${owner}: hooks for unknown resource ${name}`);
      byName.set(name, [...(byName.get(name) ?? []), hook]);
    }
  }
  if (problems.length) throw new Error(`Entity hooks:\n  ${problems.join('\n  ')}`);
  return Object.fromEntries(
    [...byName].map(([name, list]) => [name, list.length === 1 ? list[0] : composeHooks(list)]),
  );
}

/** One entity's hooks from several features': each kind of hook runs every feature's, in order. */
export function composeHooks(list: readonly EntityHooks[]): EntityHooks {
  const all = <K extends keyof EntityHooks>(kind: K) =>
    list.flatMap((hooks) => (hooks[kind] ? [hooks[kind] as NonNullable<EntityHooks[K]>] : []));
  const sequence =
    <C>(hooks: Array<(ctx: C) => Promise<void>>) =>
    async (ctx: C) => {
      for (const hook of hooks) await hook(ctx);
    };
  const claims = all('claim');
  const committed = all('committed');
  return {
    ...(claims.length && {
      async claim(ctx) {
        for (const claim of claims) {
          const id = await claim(ctx);
          if (id !== undefined) return id;
        }
        return undefined;
      },
    }),
    ...(all('beforeWrite').length && { beforeWrite: sequence(all('beforeWrite')) }),
    ...(all('afterWrite').length && { afterWrite: sequence(all('afterWrite')) }),
    ...(all('beforeDelete').length && { beforeDelete: sequence(all('beforeDelete')) }),
    ...(committed.length && {
      committed() {
        for (const hook of committed) hook();
      },
    }),
  };
}
