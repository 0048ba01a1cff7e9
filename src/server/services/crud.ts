import { type CompiledQuery, type ExpressionBuilder, type SelectQueryBuilder, sql } from 'kysely';
import { yearsSince } from '../../shared/dates.js';
import {
  changed,
  checkAfter,
  checkDocument,
  type DocumentTypeRule,
  type FieldRule,
  fieldRuleEffects,
  lockedByState,
} from '../../shared/rules.js';
import { AUDIT_FIELDS } from '../../shared/schema/types.js';
import { type FieldProblem, fieldProblemsFromAjv } from '../../shared/validation.js';
import type { Database, Db } from '../db/connection.js';
import { ApiError } from '../errors.js';
import type { Principal } from '../principal.js';
import type { Entity, Registry } from '../registry.js';
import type { ListQuery } from './list-query.js';

export type Row = Record<string, unknown>;
/** A row as the API returns it: every column plus `id`, the primary key's value. */
export type ApiRecord = Row & { id: unknown };
export type RecordId = string | number;

const SERVER_OWNED = new Set<string>(['id', ...AUDIT_FIELDS]);
/** The entity whose records are the field rules of the forms. */
export const FIELD_RULE_RESOURCE = 'field-rule';
/** The entity whose records are the audit trail. */
export const AUDIT_RESOURCE = 'audit';
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

// biome-ignore lint/suspicious/noExplicitAny: tables come from the schemas at run time
type AnySelect = SelectQueryBuilder<any, any, any>;

/** Business rules an entity adds to the generic writes; they run inside the write's transaction. */
export interface EntityHooks {
  /** After validation, before the row is written: may refuse (throw an ApiError) or adjust `data`. */
  beforeWrite?(ctx: WriteContext & { data: Row }): Promise<void>;
  /** After the row is written. */
  afterWrite?(ctx: WriteContext & { row: Row }): Promise<void>;
  /** Before a delete: may refuse. */
  beforeDelete?(ctx: WriteContext & { existing: Row }): Promise<void>;
}

export interface WriteContext {
  db: Db;
  entity: Entity;
  principal: Principal;
  operation: 'create' | 'update' | 'delete';
  existing?: Row;
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
    private readonly hooks: Record<string, EntityHooks> = {},
  ) {}

  private get db(): Db {
    return this.database.db;
  }

  /** Runs `fn` in a new transaction, or in the caller's when this service is bound to one. */
  private transaction<T>(fn: (db: Db) => Promise<T>): Promise<T> {
    return this.db.isTransaction ? fn(this.db) : this.db.transaction().execute(fn);
  }

  /** The same service, writing inside the given transaction. */
  within(trx: Db): CrudService {
    return new CrudService({ ...this.database, db: trx }, this.registry, this.hooks);
  }

  /**
   * Adds `id` to a row in place (rows are fresh objects, and copying wide rows costs more than the
   * query) and leaves out its secrets, which no answer carries.
   */
  toRecord(entity: Entity, row: Row): ApiRecord {
    const record = row as ApiRecord;
    record.id = row[entity.primaryKey];
    for (const field of entity.secrets) delete record[field];
    return record;
  }

  /** Parses an id taken from a URL into the key's type; a malformed id is a 400. */
  parseId(entity: Entity, raw: string): RecordId {
    if (entity.schema.properties[entity.primaryKey].type === 'string') return raw;
    const n = Number(raw);
    if (!Number.isSafeInteger(n)) throw new ApiError('BAD_REQUEST', { detail: `malformed id ${raw}` });
    return n;
  }

  /**
   * The equalities that confine an entity to the caller: its client, its division, and for a
   * contractor its company. A session without the client or division a scoped entity needs
   * reaches none of its records.
   */
  scopeOf(entity: Entity, principal: Principal): Array<[string, number | string]> {
    const out: Array<[string, number | string]> = [];
    const { client, division, company, user } = entity.scope;
    if (client) {
      if (principal.clientId === undefined) throw new ApiError('FORBIDDEN');
      out.push([client, principal.clientId]);
    }
    if (division) {
      if (principal.divisionId === undefined) throw new ApiError('FORBIDDEN');
      out.push([division, principal.divisionId]);
    }
    if (company && principal.companyId !== undefined) out.push([company, principal.companyId]);
    if (user) out.push([user, principal.userId]);
    return out;
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
    let base = this.where(this.db.selectFrom(entity.table), entity, query);
    for (const [field, value] of this.scopeOf(entity, principal)) base = base.where(field, '=', value);
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
    await this.attachLinks(this.db, entity, rows);
    return { records: rows.map((row) => this.toRecord(entity, row)), total };
  }

  /** Fills each row's sets of references from their link tables (one query per set). */
  async attachLinks(db: Db, entity: Entity, rows: Row[]): Promise<void> {
    for (const { field, many } of entity.references) {
      if (!many) continue;
      const byOwner = new Map<unknown, unknown[]>();
      for (const row of rows) {
        const values: unknown[] = [];
        row[field] = values;
        byOwner.set(row[entity.primaryKey], values);
      }
      if (!rows.length) continue;
      const links = (await db
        .selectFrom(many.table)
        .select([many.owner, many.value])
        .where(many.owner, 'in', [...byOwner.keys()])
        .orderBy(many.value)
        .execute()) as Row[];
      for (const link of links) byOwner.get(link[many.owner])?.push(link[many.value]);
    }
  }

  /** Replaces the link rows of a record's sets of references with the values in `data`. */
  private async writeLinks(db: Db, entity: Entity, id: RecordId, data: Row): Promise<void> {
    for (const { field, many } of entity.references) {
      if (!many) continue;
      await db.deleteFrom(many.table).where(many.owner, '=', id).execute();
      const values = (data[field] as RecordId[] | undefined) ?? [];
      if (values.length)
        await db
          .insertInto(many.table)
          .values(values.map((value) => ({ [many.owner]: id, [many.value]: value })))
          .execute();
    }
  }

  /** The row's columns: what is written to the entity's own table (sets of references live apart). */
  private columns(entity: Entity, data: Row): Row {
    const out: Row = { ...data };
    for (const { field, many } of entity.references) if (many) delete out[field];
    return out;
  }

  private where(qb: AnySelect, entity: Entity, query: ListQuery): AnySelect {
    let out = qb;
    for (const { field, values } of query.filters) {
      const present = values.filter((v) => v !== null);
      const wantsNull = present.length < values.length;
      const many = entity.references.find((r) => r.field === field)?.many;
      if (many) {
        // A record matches when its set holds any of the values (or, for null, is empty).
        out = out.where((eb) => {
          const linked = (vals: unknown[]) =>
            eb.exists(
              eb
                .selectFrom(many.table)
                .select(sql.lit(1).as('one'))
                .whereRef(`${many.table}.${many.owner}`, '=', `${entity.table}.${entity.primaryKey}`)
                .where(`${many.table}.${many.value}`, 'in', vals),
            );
          const parts = [];
          if (present.length) parts.push(linked(present));
          if (wantsNull)
            parts.push(
              eb.not(
                eb.exists(
                  eb
                    .selectFrom(many.table)
                    .select(sql.lit(1).as('one'))
                    .whereRef(`${many.table}.${many.owner}`, '=', `${entity.table}.${entity.primaryKey}`),
                ),
              ),
            );
          return parts.length ? eb.or(parts) : sql<boolean>`1 = 0`;
        });
        continue;
      }
      out = out.where((eb) => {
        const parts = [];
        if (present.length === 1) parts.push(eb(field, '=', present[0]));
        if (present.length > 1) parts.push(eb(field, 'in', present));
        if (wantsNull) parts.push(eb(field, 'is', null));
        // An empty id list (getMany of nothing) matches nothing.
        return parts.length ? eb.or(parts) : sql<boolean>`1 = 0`;
      });
    }
    if (query.q && entity.search.length) {
      const pattern = `%${query.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      const op = sql.raw(this.database.dialect === 'postgres' ? 'ilike' : 'like');
      // biome-ignore lint/suspicious/noExplicitAny: dynamic table
      out = out.where((eb: ExpressionBuilder<any, any>) =>
        eb.or(entity.search.map((field) => sql<boolean>`${eb.ref(field)} ${op} ${pattern} escape '\\'`)),
      );
    }
    return out;
  }

  async getOne(entity: Entity, id: RecordId, principal: Principal): Promise<ApiRecord> {
    const row = await this.find(this.db, entity, id, principal);
    if (!row) throw new ApiError('NOT_FOUND', { params: { resource: entity.name, id } });
    await this.attachLinks(this.db, entity, [row]);
    return this.toRecord(entity, row);
  }

  /** Keys of the records (within the caller's scope) whose fields hold the given values. */
  async findKeys(entity: Entity, where: Row, principal: Principal): Promise<RecordId[]> {
    let qb = this.db.selectFrom(entity.table).select(entity.primaryKey);
    for (const [field, value] of Object.entries(where)) {
      if (!Object.hasOwn(entity.schema.properties, field))
        throw new ApiError('BAD_REQUEST', { detail: `${entity.name} has no property ${field}` });
      qb = qb.where(field, '=', value);
    }
    for (const [field, value] of this.scopeOf(entity, principal)) qb = qb.where(field, '=', value);
    const rows = (await qb.limit(2).execute()) as Row[];
    return rows.map((row) => row[entity.primaryKey] as RecordId);
  }

  /** One record by key, within the caller's scope when a principal is given. */
  private async find(db: Db, entity: Entity, id: RecordId, principal?: Principal): Promise<Row | undefined> {
    let qb = db.selectFrom(entity.table).selectAll().where(entity.primaryKey, '=', id);
    if (principal)
      for (const [field, value] of this.scopeOf(entity, principal)) qb = qb.where(field, '=', value);
    return (await qb.executeTakeFirst()) as Row | undefined;
  }

  /** Scope values a new record takes from the session (a contractor's company overrides the body's). */
  private stamp(entity: Entity, data: Row, principal: Principal): void {
    for (const [field, value] of this.scopeOf(entity, principal)) data[field] = value;
  }

  async create(entity: Entity, body: unknown, principal: Principal): Promise<ApiRecord> {
    const data = this.prepare(entity, body);
    this.stamp(entity, data, principal);
    const now = new Date().toISOString();
    const hooks = this.hooks[entity.name];
    const row = await this.transaction(async (trx) => {
      const key = data[entity.primaryKey] as RecordId | undefined;
      if (!entity.generatedKey && key !== undefined && (await this.find(trx, entity, key))) {
        throw new ApiError('DUPLICATE', {
          fields: { [entity.primaryKey]: { messageKey: 'validation.duplicate' } },
        });
      }
      await this.checkReferences(trx, entity, data, principal);
      await this.checkRules(trx, entity, data, principal);
      await this.checkUnique(trx, entity, data);
      const ctx: WriteContext = { db: trx, entity, principal, operation: 'create' };
      await hooks?.beforeWrite?.({ ...ctx, data });
      const row = (await trx
        .insertInto(entity.table)
        .values({ ...this.columns(entity, data), IdUsuarioCreacion: principal.userId, FechaCreacion: now })
        .returningAll()
        .executeTakeFirstOrThrow()) as Row;
      await this.writeLinks(trx, entity, row[entity.primaryKey] as RecordId, data);
      await this.attachLinks(trx, entity, [row]);
      await this.audit(trx, entity, 'C', principal, row[entity.primaryKey], undefined, row);
      await hooks?.afterWrite?.({ ...ctx, row });
      return row;
    }).catch(foreignKeyAs('MISSING_REFERENCE'));
    return this.toRecord(entity, row);
  }

  async update(entity: Entity, id: RecordId, body: unknown, principal: Principal): Promise<ApiRecord> {
    const data = this.prepare(entity, body);
    const key = data[entity.primaryKey];
    if (key !== undefined && key !== id) {
      throw new ApiError('VALIDATION_FAILED', {
        fields: { [entity.primaryKey]: { messageKey: 'validation.keyImmutable' } },
      });
    }
    this.stamp(entity, data, principal);
    const hooks = this.hooks[entity.name];
    const row = await this.transaction(async (trx) => {
      const existing = await this.find(trx, entity, id, principal);
      if (!existing) throw new ApiError('NOT_FOUND', { params: { resource: entity.name, id } });
      await this.attachLinks(trx, entity, [existing]);
      await this.checkReferences(trx, entity, data, principal);
      await this.checkRules(trx, entity, data, principal, existing);
      await this.checkUnique(trx, entity, data, id);
      const ctx: WriteContext = { db: trx, entity, principal, operation: 'update', existing };
      await hooks?.beforeWrite?.({ ...ctx, data });
      // A PUT replaces the record: a writable field left out is cleared.
      const values: Row = this.columns(
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
      for (const [field, value] of this.scopeOf(entity, principal)) values[field] = value;
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
      await this.writeLinks(trx, entity, id, data);
      await this.attachLinks(trx, entity, [row]);
      await this.audit(trx, entity, 'U', principal, id, existing, row);
      await hooks?.afterWrite?.({ ...ctx, row });
      return row;
    }).catch(foreignKeyAs('MISSING_REFERENCE'));
    return this.toRecord(entity, row);
  }

  async remove(entity: Entity, id: RecordId, principal: Principal): Promise<ApiRecord> {
    const hooks = this.hooks[entity.name];
    const row = await this.transaction(async (trx) => {
      const existing = await this.find(trx, entity, id, principal);
      if (!existing) throw new ApiError('NOT_FOUND', { params: { resource: entity.name, id } });
      const lock = entity.lockedWhen;
      if (lock && !lock.delete && existing[lock.field] === lock.equals)
        throw new ApiError('BUSINESS_RULE', { messageKey: lock.messageKey });
      await hooks?.beforeDelete?.({ db: trx, entity, principal, operation: 'delete', existing });
      const users = new Set<string>();
      for (const { entity: other, field, many } of this.registry.referencing(entity.name)) {
        if (users.has(other.name)) continue;
        if (many) {
          let qb = trx.selectFrom(many.table).select(many.owner).where(many.value, '=', id);
          if (other.name === entity.name) qb = qb.where(many.owner, '<>', id);
          if (await qb.limit(1).executeTakeFirst()) users.add(other.name);
          continue;
        }
        let qb = trx.selectFrom(other.table).select(other.primaryKey).where(field, '=', id);
        if (other.name === entity.name) qb = qb.where(other.primaryKey, '<>', id);
        if (await qb.limit(1).executeTakeFirst()) users.add(other.name);
      }
      if (users.size) throw new ApiError('IN_USE', { params: { resources: [...users].join(',') } });
      await this.attachLinks(trx, entity, [existing]);
      await trx.deleteFrom(entity.table).where(entity.primaryKey, '=', id).execute();
      await this.audit(trx, entity, 'D', principal, id, existing, undefined);
      return existing;
    }).catch(foreignKeyAs('IN_USE'));
    return this.toRecord(entity, row);
  }

  /**
   * From a request body to the values to write: server-owned and read-only fields dropped, text
   * trimmed, empty values removed, upper-casing and computed fields applied, then validated.
   */
  prepare(entity: Entity, body: unknown): Row {
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      throw new ApiError('BAD_REQUEST', { detail: 'the body must be a JSON object' });
    }
    const props = entity.schema.properties;
    const data: Row = {};
    for (const [field, raw] of Object.entries(body)) {
      if (SERVER_OWNED.has(field)) continue;
      if (Object.hasOwn(props, field) && !entity.writable.includes(field)) continue;
      const value = typeof raw === 'string' ? raw.trim() : raw;
      if (value === null || value === '') continue;
      data[field] = value;
    }
    for (const field of entity.upper) {
      if (typeof data[field] === 'string') data[field] = (data[field] as string).toLocaleUpperCase('es');
    }
    if (!entity.validate(data)) {
      throw new ApiError('VALIDATION_FAILED', {
        fields: fieldProblemsFromAjv(entity.validate.errors ?? [], entity.schema),
      });
    }
    for (const { field, yearsSince: source } of entity.computed) {
      const from = data[source];
      const value = typeof from === 'string' ? yearsSince(from) : undefined;
      if (value !== undefined) data[field] = value;
    }
    return data;
  }

  /** A record's audit trail within the caller's client, newest first. */
  async history(entity: Entity, id: RecordId, principal: Principal): Promise<Row[]> {
    const trail = this.registry.get(AUDIT_RESOURCE);
    if (!trail) return [];
    let qb = this.db
      .selectFrom(trail.table)
      .selectAll()
      .where('Recurso', '=', entity.name)
      .where('IdRegistro', '=', String(id));
    qb =
      principal.clientId === undefined
        ? qb.where('IdCliente', 'is', null)
        : qb.where('IdCliente', '=', principal.clientId);
    return (await qb.orderBy('IdAuditoria', 'desc').limit(500).execute()) as Row[];
  }

  /**
   * One row of the audit trail, written in the change's own transaction: who, when, which record,
   * the fields an update changed and the values before and after (secrets masked).
   */
  private async audit(
    db: Db,
    entity: Entity,
    operation: 'C' | 'U' | 'D',
    principal: Principal,
    id: unknown,
    before: Row | undefined,
    after: Row | undefined,
  ): Promise<void> {
    const trail = this.registry.get(AUDIT_RESOURCE);
    if (!trail || entity.readOnly) return;
    const props = entity.schema.properties;
    const values = (row: Row | undefined) =>
      row &&
      JSON.stringify(
        Object.fromEntries(
          Object.keys(props)
            .filter((f) => row[f] !== undefined)
            .map((f) => [f, entity.secrets.includes(f) && row[f] !== null ? '********' : row[f]]),
        ),
      );
    const fields = before && after ? Object.keys(props).filter((f) => changed(before[f], after[f])) : [];
    await db
      .insertInto(trail.table)
      .values({
        IdCliente: principal.clientId ?? null,
        Fecha: new Date().toISOString(),
        IdUsuario: principal.userId,
        Operacion: operation,
        Recurso: entity.name,
        IdRegistro: String(id),
        Campos: fields.join(', ').slice(0, 4000) || null,
        Antes: values(before) ?? null,
        Despues: values(after) ?? null,
        IdUsuarioCreacion: principal.userId,
        FechaCreacion: new Date().toISOString(),
      })
      .execute();
  }

  /** Every reference points at a record the caller can see: elsewhere is as good as nowhere. */
  private async checkReferences(db: Db, entity: Entity, data: Row, principal: Principal): Promise<void> {
    const fields: Record<string, FieldProblem> = {};
    const scopeFields = new Set([entity.scope.client, entity.scope.division, entity.scope.user]);
    for (const ref of entity.references) {
      const value = data[ref.field] as RecordId | RecordId[] | undefined;
      if (value === undefined) continue;
      const target = this.registry.require(ref.target);
      if (Array.isArray(value)) {
        for (const item of value) {
          if (!(await this.find(db, target, item, principal))) {
            fields[ref.field] = {
              messageKey: 'validation.referenceMissing',
              params: { resource: ref.target },
            };
            break;
          }
        }
        continue;
      }
      const self = ref.target === entity.name && value === data[entity.primaryKey];
      // The session's own client and division need no looking up.
      const found =
        self || (scopeFields.has(ref.field) ? true : await this.find(db, target, value, principal));
      if (!found) {
        fields[ref.field] = { messageKey: 'validation.referenceMissing', params: { resource: ref.target } };
        continue;
      }
      // A cascading choice must belong to what the record chose above it.
      const filter = entity.schema.properties[ref.field]['x-ref']?.filter ?? {};
      for (const [remote, local] of Object.entries(filter)) {
        const row = found === true ? undefined : found;
        if (row && data[local] !== undefined && changed(row[remote], data[local]))
          fields[ref.field] = { messageKey: 'validation.referenceFilter', params: { field: local } };
      }
    }
    if (Object.keys(fields).length) throw new ApiError('MISSING_REFERENCE', { fields });
  }

  /** The active field rules (spec: IdDato, Campo, Obligatorio, Modificable) of an entity's form. */
  async fieldRules(db: Db, entity: Entity, principal: Principal): Promise<FieldRule[]> {
    const rules = this.registry.get(FIELD_RULE_RESOURCE);
    if (!rules || principal.clientId === undefined) return [];
    return (await db
      .selectFrom(rules.table)
      .select(['IdDato', 'Campo', 'Obligatorio', 'Modificable'])
      .where('IdCliente', '=', principal.clientId)
      .where('IdDato', '=', entity.name)
      .where('Activo', '=', 'S')
      .execute()) as FieldRule[];
  }

  /**
   * The rules of spec section 5 beyond one field's schema: ends not before starts, documents that
   * fit their type, the field rules of the client's form, and records whose state locks them.
   */
  private async checkRules(
    db: Db,
    entity: Entity,
    data: Row,
    principal: Principal,
    existing?: Row,
  ): Promise<void> {
    const fields: Record<string, FieldProblem> = checkAfter(entity.after, data);
    for (const { field, typeField } of entity.documents) {
      const value = data[field];
      const typeId = data[typeField];
      if (typeof value !== 'string' || typeId === undefined || fields[field]) continue;
      const types = this.registry.require('document-type');
      const type = (await db
        .selectFrom(types.table)
        .selectAll()
        .where(types.primaryKey, '=', typeId)
        .executeTakeFirst()) as DocumentTypeRule | undefined;
      const problem = type && checkDocument(value, type);
      if (problem) fields[field] = problem;
    }
    const effects = fieldRuleEffects(await this.fieldRules(db, entity, principal), entity.writable);
    for (const field of effects.required) {
      const value = data[field];
      if (value === undefined || (Array.isArray(value) && value.length === 0))
        fields[field] ??= { messageKey: 'validation.required' };
    }
    if (existing) {
      for (const field of effects.locked)
        if (changed(existing[field], data[field]))
          fields[field] ??= { messageKey: 'validation.notModifiable' };
    }
    if (Object.keys(fields).length) throw new ApiError('VALIDATION_FAILED', { fields });
    await this.checkTree(db, entity, data, existing);
    const frozen = lockedByState(entity.lockedWhen, existing, entity.writable);
    if (frozen.some((field) => changed(existing?.[field], data[field])))
      throw new ApiError('BUSINESS_RULE', { messageKey: entity.lockedWhen?.messageKey });
  }

  /**
   * A reference to a record of the same entity (a parent unit, a parent menu item) forms a tree:
   * a record may not be placed under itself or under one of its own descendants.
   */
  private async checkTree(db: Db, entity: Entity, data: Row, existing?: Row): Promise<void> {
    const key = existing?.[entity.primaryKey] ?? data[entity.primaryKey];
    if (key === undefined || key === null) return;
    for (const { field, target, many } of entity.references) {
      if (target !== entity.name || many) continue;
      const seen = new Set<unknown>();
      for (let parent = data[field]; parent !== undefined && parent !== null; ) {
        if (parent === key)
          throw new ApiError('BUSINESS_RULE', {
            messageKey: 'rules.treeCycle',
            fields: { [field]: { messageKey: 'rules.treeCycle' } },
          });
        if (seen.has(parent) || seen.size > 1000) break;
        seen.add(parent);
        const row = (await db
          .selectFrom(entity.table)
          .select(field)
          .where(entity.primaryKey, '=', parent)
          .executeTakeFirst()) as Row | undefined;
        parent = row?.[field];
      }
    }
  }

  private async checkUnique(db: Db, entity: Entity, data: Row, exceptId?: RecordId): Promise<void> {
    const fields: Record<string, FieldProblem> = {};
    for (const set of entity.unique) {
      if (set.some((f) => data[f] === undefined)) continue;
      let qb = db.selectFrom(entity.table).select(entity.primaryKey);
      for (const f of set) qb = qb.where(f, '=', data[f]);
      if (exceptId !== undefined) qb = qb.where(entity.primaryKey, '<>', exceptId);
      if (await qb.limit(1).executeTakeFirst()) {
        // The session's own client or division is not the user's to change: name the other fields.
        const scopeFields = new Set([entity.scope.client, entity.scope.division, entity.scope.user]);
        for (const f of set) if (!scopeFields.has(f)) fields[f] = { messageKey: 'validation.duplicate' };
      }
    }
    if (Object.keys(fields).length) throw new ApiError('DUPLICATE', { fields });
  }
}
