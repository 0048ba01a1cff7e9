import type { CompiledQuery } from 'kysely';
import type { Database, Db } from '../db/connection.js';
import { ask } from '../db/probes.js';
import { ApiError } from '../errors.js';
import type { Principal } from '../principal.js';
import type { Entity, Registry } from '../registry.js';
import { readHistory, writeAudit } from './audit.js';
import {
  type CheckContext,
  checkKey,
  checkProbes,
  checkReferences,
  checkRules,
  checkUnique,
  uniqueProbes,
} from './checks.js';
import { applyFilters } from './filters.js';
import { parseId, prepare, toRecord } from './input.js';
import { attachLinks, columns, writeLinks } from './links.js';
import type { ListQuery } from './list-query.js';
import { confine, ofCompanies, requireOwner, scopeOf, stamp } from './scope.js';
import type { AnySelect, ApiRecord, HookMap, RecordId, Row, WriteContext } from './types.js';

/** A flag as each database answers it: true or 1. */
const truthy = (value: unknown) => value === true || Number(value) === 1;

const FOREIGN_KEY_VIOLATIONS = new Set(['SQLITE_CONSTRAINT_FOREIGNKEY', '23503']);

/**
 * The checks run before each write give the precise answer; a foreign key the database still
 * refuses (a concurrent delete between check and write) means a missing reference on a write and a
 * record in use on a delete.
 */
export function foreignKeyAs(code: 'MISSING_REFERENCE' | 'IN_USE') {
  return (error: unknown): never => {
    if (FOREIGN_KEY_VIOLATIONS.has(String((error as { code?: unknown }).code))) throw new ApiError(code);
    throw error;
  };
}

/**
 * Generic create, read, update, delete and list for every entity. Writes run in one transaction
 * each: references and unique keys are checked, and the row written, together or not at all.
 * Every query is confined to the caller's client, division and company where the entity is scoped.
 */
export class CrudService {
  constructor(
    private readonly database: Database,
    private readonly registry: Registry,
    private readonly hooks: HookMap = {},
  ) {}

  private get db(): Db {
    return this.database.db;
  }

  /** Runs `fn` in a new transaction, or in the caller's when this service is bound to one. */
  transaction<T>(fn: (db: Db) => Promise<T>): Promise<T> {
    return this.db.isTransaction ? fn(this.db) : this.db.transaction().execute(fn);
  }

  /**
   * Tells an entity's hooks its write has committed: only when this service's own transaction did
   * (bound to a caller's, the caller commits and tells whom it must).
   */
  private committed(entity: Entity): void {
    if (!this.db.isTransaction) this.hooks[entity.name]?.committed?.();
  }

  /** The same service, writing inside the given transaction. */
  within(trx: Db): CrudService {
    return new CrudService({ ...this.database, db: trx }, this.registry, this.hooks);
  }

  toRecord = toRecord;
  parseId = parseId;
  prepare = prepare;
  scopeOf = scopeOf;

  /** A query of the entity confined to what the caller may see (see scope.ts). */
  confine(qb: AnySelect, entity: Entity, principal: Principal): AnySelect {
    return confine(this.registry, qb, entity, principal);
  }

  /** What the checks of a write in `db` need (the caller's scope among it). */
  checks(db: Db = this.db): CheckContext {
    return {
      db,
      registry: this.registry,
      confine: (qb, entity, principal) => this.confine(qb, entity, principal),
    };
  }

  /**
   * The page and count queries of a list, as builders: the caller may wrap or compile them.
   * `columns` narrows the page to those columns (every column by default).
   */
  listBuilders(
    entity: Entity,
    query: ListQuery,
    principal: Principal,
    columns?: string[],
  ): { page: AnySelect; count: AnySelect } {
    const filtered = applyFilters(this.db.selectFrom(entity.table), entity, query, this.database.dialect);
    const confined = this.confine(filtered, entity, principal);
    const base = query.companies ? ofCompanies(this.registry, confined, entity, query.companies) : confined;
    let page = (columns ? base.select(columns) : base.selectAll()).orderBy(
      query.sort.field,
      query.sort.order === 'ASC' ? 'asc' : 'desc',
    );
    if (query.sort.field !== entity.primaryKey) page = page.orderBy(entity.primaryKey, 'asc');
    return {
      page: page.limit(query.limit).offset(query.offset),
      count: base.select((eb) => eb.fn.countAll().as('total')),
    };
  }

  /** The page and count queries of a list, compiled (the benchmark runs these same statements). */
  compileList(
    entity: Entity,
    query: ListQuery,
    principal: Principal,
  ): { page: CompiledQuery; count: CompiledQuery } {
    const { page, count } = this.listBuilders(entity, query, principal);
    return { page: page.compile(), count: count.compile() };
  }

  async list(
    entity: Entity,
    query: ListQuery,
    principal: Principal,
  ): Promise<{ records: ApiRecord[]; total: number }> {
    const { page, count } = this.compileList(entity, query, principal);
    const countRows = async () =>
      Number((await this.db.executeQuery<{ total: number | string }>(count)).rows[0].total);
    let rows: Row[];
    let total: number;
    if (this.database.dialect === 'postgres' && !this.db.isTransaction) {
      // Two pooled connections: the page and the total at the same time.
      [rows, total] = await Promise.all([this.db.executeQuery<Row>(page).then((r) => r.rows), countRows()]);
    } else {
      rows = (await this.db.executeQuery<Row>(page)).rows;
      // A first page shorter than the page size is the whole list: no need to count.
      total = query.offset === 0 && rows.length < query.limit ? rows.length : await countRows();
    }
    await attachLinks(this.db, entity, rows);
    return { records: rows.map((row) => toRecord(entity, row)), total };
  }

  /** Fills each row's sets of references from their link tables. */
  attachLinks(db: Db, entity: Entity, rows: Row[]): Promise<void> {
    return attachLinks(db, entity, rows);
  }

  async getOne(entity: Entity, id: RecordId, principal: Principal): Promise<ApiRecord> {
    const row = await this.find(this.db, entity, id, principal);
    if (!row) throw new ApiError('NOT_FOUND', { params: { resource: entity.name, id } });
    await attachLinks(this.db, entity, [row]);
    return toRecord(entity, row);
  }

  /** Keys of the records (within the caller's scope) whose fields hold the given values. */
  async findKeys(entity: Entity, where: Row, principal: Principal): Promise<RecordId[]> {
    let qb = this.db.selectFrom(entity.table).select(entity.primaryKey);
    for (const [field, value] of Object.entries(where)) {
      if (!Object.hasOwn(entity.schema.properties, field))
        throw new ApiError('BAD_REQUEST', { detail: `${entity.name} has no property ${field}` });
      qb = qb.where(field, '=', value);
    }
    qb = this.confine(qb, entity, principal);
    const rows = (await qb.limit(2).execute()) as Row[];
    return rows.map((row) => row[entity.primaryKey] as RecordId);
  }

  /** One record by key, within the caller's scope when a principal is given. */
  private async find(db: Db, entity: Entity, id: RecordId, principal?: Principal): Promise<Row | undefined> {
    let qb = db.selectFrom(entity.table).selectAll().where(entity.primaryKey, '=', id);
    if (principal) qb = this.confine(qb, entity, principal);
    return (await qb.executeTakeFirst()) as Row | undefined;
  }

  /**
   * Creates a record from a caller's body. `set` adds values the server decides (a workflow's
   * status, its dates), which no body may carry.
   */
  async create(
    entity: Entity,
    body: unknown,
    principal: Principal,
    { set = {} }: { set?: Row } = {},
  ): Promise<ApiRecord> {
    const data = prepare(entity, body);
    stamp(entity, data, principal);
    requireOwner(entity, data, principal);
    const now = new Date().toISOString();
    const hooks = this.hooks[entity.name];
    const row = await this.transaction(async (trx) => {
      const key = data[entity.primaryKey] as RecordId | undefined;
      const checks = this.checks(trx);
      // What the checks read, in one statement (probes.ts), then judged in the order they answer.
      const answers = await ask(
        trx,
        checkProbes(checks, entity, data, principal, { key: entity.generatedKey ? undefined : key }),
      );
      checkKey(entity, answers);
      await checkReferences(checks, entity, data, principal, answers);
      await checkRules(checks, entity, data, answers);
      const ctx: WriteContext = { db: trx, entity, principal, operation: 'create' };
      const claimed = await hooks?.claim?.({ ...ctx, data });
      if (claimed !== undefined) {
        const existing = await this.find(trx, entity, claimed);
        if (!existing) throw new ApiError('NOT_FOUND', { params: { resource: entity.name, id: claimed } });
        await attachLinks(trx, entity, [existing]);
        checkUnique(entity, await ask(trx, uniqueProbes(trx, entity, data, claimed)));
        return this.replace(trx, entity, claimed, data, principal, existing);
      }
      checkUnique(entity, answers);
      const server: Row = { ...set };
      await hooks?.beforeWrite?.({ ...ctx, data, set: server });
      const row = (await trx
        .insertInto(entity.table)
        .values({
          ...columns(entity, data),
          ...server,
          IdUsuarioCreacion: principal.userId,
          FechaCreacion: now,
        })
        .returningAll()
        .executeTakeFirstOrThrow()) as Row;
      await writeLinks(trx, entity, row[entity.primaryKey] as RecordId, data);
      await attachLinks(trx, entity, [row]);
      await writeAudit(trx, this.registry, entity, 'C', principal, row[entity.primaryKey], undefined, row);
      await hooks?.afterWrite?.({ ...ctx, row });
      return row;
    }).catch(foreignKeyAs('MISSING_REFERENCE'));
    this.committed(entity);
    return toRecord(entity, row);
  }

  /**
   * Replaces a record from a caller's body. `keep` names fields the caller cannot see (health data
   * masked for its profile): the stored values stay, whatever the body says; so do the sensitive
   * fields the body leaves out.
   */
  async update(
    entity: Entity,
    id: RecordId,
    body: unknown,
    principal: Principal,
    { keep = [] }: { keep?: string[] } = {},
  ): Promise<ApiRecord> {
    const data = prepare(entity, body);
    // Lists carry no sensitive field: one a body leaves out (a record taken from a list) is kept;
    // sent empty, it is cleared.
    const sent = new Set(Object.keys(body as object));
    const kept = [...keep, ...entity.sensitive.map((s) => s.field).filter((f) => !sent.has(f))];
    const key = data[entity.primaryKey];
    if (key !== undefined && key !== id) {
      throw new ApiError('VALIDATION_FAILED', {
        fields: { [entity.primaryKey]: { messageKey: 'validation.keyImmutable' } },
      });
    }
    stamp(entity, data, principal);
    const row = await this.transaction(async (trx) => {
      const existing = await this.find(trx, entity, id, principal);
      if (!existing) throw new ApiError('NOT_FOUND', { params: { resource: entity.name, id } });
      for (const field of kept)
        if (existing[field] === null || existing[field] === undefined) delete data[field];
        else data[field] = existing[field];
      requireOwner(entity, data, principal);
      await attachLinks(trx, entity, [existing]);
      const checks = this.checks(trx);
      const answers = await ask(trx, checkProbes(checks, entity, data, principal, { exceptId: id }));
      await checkReferences(checks, entity, data, principal, answers);
      await checkRules(checks, entity, data, answers, existing);
      checkUnique(entity, answers);
      return this.replace(trx, entity, id, data, principal, existing);
    }).catch(foreignKeyAs('MISSING_REFERENCE'));
    this.committed(entity);
    return toRecord(entity, row);
  }

  /**
   * Writes `data` over the record `id` (`existing` as stored) in the caller's transaction, as a
   * PUT does: the update's own writing, and a create's that takes over an existing record.
   */
  private async replace(
    trx: Db,
    entity: Entity,
    id: RecordId,
    data: Row,
    principal: Principal,
    existing: Row,
  ): Promise<Row> {
    const hooks = this.hooks[entity.name];
    const ctx: WriteContext = { db: trx, entity, principal, operation: 'update', existing };
    const server: Row = {};
    await hooks?.beforeWrite?.({ ...ctx, data, set: server });
    // A PUT replaces the record: a writable field left out is cleared.
    const values: Row = columns(
      entity,
      Object.fromEntries(
        entity.writable.filter((f) => f !== entity.primaryKey).map((f) => [f, data[f] ?? null]),
      ),
    );
    for (const { field } of entity.computed) values[field] = data[field] ?? null;
    // A secret is never sent back, so a form saves it empty: empty keeps the stored one.
    for (const field of entity.secrets)
      if (data[field] === undefined || data[field] === null || data[field] === '')
        values[field] = existing[field];
    for (const [field, value] of scopeOf(entity, principal)) values[field] = value;
    const row = (await trx
      .updateTable(entity.table)
      .set({
        ...values,
        ...server,
        IdUsuarioModificacion: principal.userId,
        FechaModificacion: new Date().toISOString(),
      })
      .where(entity.primaryKey, '=', id)
      .returningAll()
      .executeTakeFirstOrThrow()) as Row;
    await writeLinks(trx, entity, id, data);
    await attachLinks(trx, entity, [row]);
    await writeAudit(trx, this.registry, entity, 'U', principal, id, existing, row);
    await hooks?.afterWrite?.({ ...ctx, row });
    return row;
  }

  async remove(entity: Entity, id: RecordId, principal: Principal): Promise<ApiRecord> {
    const hooks = this.hooks[entity.name];
    const row = await this.transaction(async (trx) => {
      // The record and, in the same statement, whether each entity referring to it still does.
      const usages = this.usages(trx, entity, id);
      let read = trx.selectFrom(entity.table).selectAll().where(entity.primaryKey, '=', id);
      if (usages.length)
        read = read.select((eb) => usages.map(({ query }, i) => eb.exists(query).as(`$used${i}`)));
      const found = (await this.confine(read, entity, principal).executeTakeFirst()) as Row | undefined;
      if (!found) throw new ApiError('NOT_FOUND', { params: { resource: entity.name, id } });
      const existing = Object.fromEntries(
        Object.entries(found).filter(([field]) => !field.startsWith('$used')),
      );
      const lock = entity.lockedWhen;
      if (lock && !lock.delete && existing[lock.field] === lock.equals)
        throw new ApiError('BUSINESS_RULE', { messageKey: lock.messageKey });
      await hooks?.beforeDelete?.({ db: trx, entity, principal, operation: 'delete', existing });
      const users = new Set(usages.filter((_, i) => truthy(found[`$used${i}`])).map((u) => u.entity));
      if (users.size) throw new ApiError('IN_USE', { params: { resources: [...users].join(',') } });
      // Bookkeeping of this record (a person's employments, a client's job lease a background job
      // may have just taken): it goes with the record.
      for (const { entity: other, field, many, goesWith } of this.registry.referencing(entity.name))
        if (goesWith && !many) await trx.deleteFrom(other.table).where(field, '=', id).execute();
      await attachLinks(trx, entity, [existing]);
      await trx.deleteFrom(entity.table).where(entity.primaryKey, '=', id).execute();
      await writeAudit(trx, this.registry, entity, 'D', principal, id, existing, undefined);
      return existing;
    }).catch(foreignKeyAs('IN_USE'));
    this.committed(entity);
    return toRecord(entity, row);
  }

  /** The records that would keep `id` of `entity` in use: one question per entity and reference referring to it. */
  private usages(db: Db, entity: Entity, id: RecordId): Array<{ entity: string; query: AnySelect }> {
    return this.registry.referencing(entity.name).flatMap(({ entity: other, field, many, goesWith }) => {
      if (goesWith && !many) return [];
      const self = other.name === entity.name;
      if (many) {
        let query = db.selectFrom(many.table).select(many.owner).where(many.value, '=', id);
        if (self) query = query.where(many.owner, '<>', id);
        return [{ entity: other.name, query }];
      }
      let query = db.selectFrom(other.table).select(other.primaryKey).where(field, '=', id);
      if (self) query = query.where(other.primaryKey, '<>', id);
      return [{ entity: other.name, query }];
    });
  }

  /**
   * Changes some columns of a record the caller may see, as the server decides them (a workflow's
   * status and its dates): no validation of a body, but the scope, and the change audited.
   */
  async patch(entity: Entity, id: RecordId, values: Row, principal: Principal): Promise<ApiRecord> {
    const row = await this.transaction(async (trx) => {
      const existing = await this.find(trx, entity, id, principal);
      if (!existing) throw new ApiError('NOT_FOUND', { params: { resource: entity.name, id } });
      const row = (await trx
        .updateTable(entity.table)
        .set({
          ...values,
          IdUsuarioModificacion: principal.userId,
          FechaModificacion: new Date().toISOString(),
        })
        .where(entity.primaryKey, '=', id)
        .returningAll()
        .executeTakeFirstOrThrow()) as Row;
      await writeAudit(trx, this.registry, entity, 'U', principal, id, existing, row);
      return row;
    });
    return toRecord(entity, row);
  }

  /** A record's audit trail within the caller's client, newest first. */
  history(entity: Entity, id: RecordId, principal: Principal): Promise<Row[]> {
    return readHistory(this.db, this.registry, entity, id, principal);
  }
}
