import {
  changed,
  checkAfter,
  checkDocument,
  type DocumentTypeRule,
  type FieldRule,
  fieldRuleEffects,
  lockedByState,
} from '../../shared/rules.js';
import type { FieldProblem } from '../../shared/validation.js';
import type { Db } from '../db/connection.js';
import { ApiError } from '../errors.js';
import type { Principal } from '../principal.js';
import type { Entity, Registry } from '../registry.js';
import { sessionFields } from './scope.js';
import type { RecordId, Row } from './types.js';

/** The entity whose records are the field rules of the forms. */
export const FIELD_RULE_RESOURCE = 'field-rule';

/** What the checks need: the database of the write, the schemas, and a lookup within the caller's scope. */
export interface CheckContext {
  db: Db;
  registry: Registry;
  find(db: Db, entity: Entity, id: RecordId, principal?: Principal): Promise<Row | undefined>;
}

/** Every reference points at a record the caller can see: elsewhere is as good as nowhere. */
export async function checkReferences(
  ctx: CheckContext,
  entity: Entity,
  data: Row,
  principal: Principal,
): Promise<void> {
  const fields: Record<string, FieldProblem> = {};
  const scopeFields = sessionFields(entity);
  for (const ref of entity.references) {
    const value = data[ref.field] as RecordId | RecordId[] | undefined;
    if (value === undefined) continue;
    const target = ctx.registry.require(ref.target);
    if (Array.isArray(value)) {
      for (const item of value) {
        if (!(await ctx.find(ctx.db, target, item, principal))) {
          fields[ref.field] = { messageKey: 'validation.referenceMissing', params: { resource: ref.target } };
          break;
        }
      }
      continue;
    }
    const self = ref.target === entity.name && value === data[entity.primaryKey];
    // The session's own client and division need no looking up.
    const found =
      self || (scopeFields.has(ref.field) ? true : await ctx.find(ctx.db, target, value, principal));
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
export async function fieldRules(
  db: Db,
  registry: Registry,
  entity: Entity,
  principal: Principal,
): Promise<FieldRule[]> {
  const rules = registry.get(FIELD_RULE_RESOURCE);
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
export async function checkRules(
  ctx: CheckContext,
  entity: Entity,
  data: Row,
  principal: Principal,
  existing?: Row,
): Promise<void> {
  const { db, registry } = ctx;
  const fields: Record<string, FieldProblem> = checkAfter(entity.after, data);
  for (const { field, typeField } of entity.documents) {
    const value = data[field];
    const typeId = data[typeField];
    if (typeof value !== 'string' || typeId === undefined || fields[field]) continue;
    const types = registry.require('document-type');
    const type = (await db
      .selectFrom(types.table)
      .selectAll()
      .where(types.primaryKey, '=', typeId)
      .executeTakeFirst()) as DocumentTypeRule | undefined;
    const problem = type && checkDocument(value, type);
    if (problem) fields[field] = problem;
  }
  const effects = fieldRuleEffects(await fieldRules(db, registry, entity, principal), entity.writable);
  for (const field of effects.required) {
    const value = data[field];
    if (value === undefined || (Array.isArray(value) && value.length === 0))
      fields[field] ??= { messageKey: 'validation.required' };
  }
  if (existing) {
    for (const field of effects.locked)
      if (changed(existing[field], data[field])) fields[field] ??= { messageKey: 'validation.notModifiable' };
  }
  if (Object.keys(fields).length) throw new ApiError('VALIDATION_FAILED', { fields });
  await checkTree(db, entity, data, existing);
  const frozen = lockedByState(entity.lockedWhen, existing, entity.writable);
  if (frozen.some((field) => changed(existing?.[field], data[field])))
    throw new ApiError('BUSINESS_RULE', { messageKey: entity.lockedWhen?.messageKey });
}

/**
 * A reference to a record of the same entity (a parent unit, a parent menu item) forms a tree:
 * a record may not be placed under itself or under one of its own descendants.
 */
async function checkTree(db: Db, entity: Entity, data: Row, existing?: Row): Promise<void> {
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

/** Unique property sets: a duplicate is a 409 naming the fields the user chose. */
export async function checkUnique(db: Db, entity: Entity, data: Row, exceptId?: RecordId): Promise<void> {
  const fields: Record<string, FieldProblem> = {};
  for (const set of entity.unique) {
    if (set.some((f) => data[f] === undefined)) continue;
    let qb = db.selectFrom(entity.table).select(entity.primaryKey);
    for (const f of set) qb = qb.where(f, '=', data[f]);
    if (exceptId !== undefined) qb = qb.where(entity.primaryKey, '<>', exceptId);
    if (await qb.limit(1).executeTakeFirst()) {
      // The session's own client or division is not the user's to change: name the other fields.
      const scopeFields = sessionFields(entity);
      for (const f of set) if (!scopeFields.has(f)) fields[f] = { messageKey: 'validation.duplicate' };
    }
  }
  if (Object.keys(fields).length) throw new ApiError('DUPLICATE', { fields });
}
