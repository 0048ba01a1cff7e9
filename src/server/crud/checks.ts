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
import { type Answers, ask, type Probe } from '../db/probes.js';
import { ApiError } from '../errors.js';
import type { Principal } from '../principal.js';
import type { Entity, Registry } from '../registry.js';
import { sessionFields } from './scope.js';
import type { AnySelect, RecordId, Row } from './types.js';

/** The entity whose records are the field rules of the forms. */
export const FIELD_RULE_RESOURCE = 'field-rule';

/** What the checks need: the database of the write, the schemas, and the caller's scope. */
export interface CheckContext {
  db: Db;
  registry: Registry;
  /** A query of the entity confined to what the caller may see. */
  confine(qb: AnySelect, entity: Entity, principal: Principal): AnySelect;
}

/** The columns of a document type its rule reads. */
const DOCUMENT_TYPE_COLUMNS = [
  'IdPais',
  'Alias',
  'Longitud',
  'LongitudFija',
  'Mascara',
  'CaracteresPermitidos',
] as const;

/**
 * The questions the checks of a write ask (probes.ts): each reference's record within the caller's
 * scope, each document's type, the client's field rules of the form, and for each unique set a
 * record other than `exceptId` already holding its values; `key` asks whether a record already has
 * the key a create gives.
 */
export function checkProbes(
  ctx: CheckContext,
  entity: Entity,
  data: Row,
  principal: Principal,
  { key, exceptId }: { key?: RecordId; exceptId?: RecordId } = {},
): Record<string, Probe> {
  const { db, registry } = ctx;
  const probes: Record<string, Probe> = {};
  if (key !== undefined)
    probes.key = {
      as: 'value',
      query: db.selectFrom(entity.table).select(entity.primaryKey).where(entity.primaryKey, '=', key),
    };
  Object.assign(probes, referenceProbes(ctx, entity, data, principal));
  for (const { field, typeField } of entity.documents) {
    if (typeof data[field] !== 'string' || data[typeField] === undefined) continue;
    const types = registry.require('document-type');
    probes[`document:${field}`] = {
      as: 'row',
      query: db
        .selectFrom(types.table)
        .select([...DOCUMENT_TYPE_COLUMNS])
        .where(types.primaryKey, '=', data[typeField]),
    };
  }
  const rules = fieldRulesQuery(db, registry, entity, principal);
  if (rules) probes.fieldRules = { as: 'rows', query: rules };
  return Object.assign(probes, uniqueProbes(db, entity, data, exceptId));
}

/** For each unique set whose values the data give, the question of a record other than `exceptId` holding them. */
export function uniqueProbes(db: Db, entity: Entity, data: Row, exceptId?: RecordId): Record<string, Probe> {
  const probes: Record<string, Probe> = {};
  entity.unique.forEach((set, i) => {
    if (set.some((f) => data[f] === undefined)) return;
    let qb = db.selectFrom(entity.table).select(entity.primaryKey);
    for (const f of set) qb = qb.where(f, '=', data[f]);
    if (exceptId !== undefined) qb = qb.where(entity.primaryKey, '<>', exceptId);
    probes[`unique:${i}`] = { as: 'value', query: qb };
  });
  return probes;
}

/** The references' questions: each single one's record (with the columns a cascading choice compares), each set's count. */
function referenceProbes(ctx: CheckContext, entity: Entity, data: Row, principal: Principal) {
  const probes: Record<string, Probe> = {};
  const scopeFields = sessionFields(entity);
  for (const ref of entity.references) {
    const value = data[ref.field] as RecordId | RecordId[] | undefined;
    if (value === undefined) continue;
    const target = ctx.registry.require(ref.target);
    const base = ctx.db.selectFrom(target.table);
    if (Array.isArray(value)) {
      const items = [...new Set(value)];
      if (!items.length) continue;
      const counted = base.select((eb) => eb.fn.countAll().as('n')).where(target.primaryKey, 'in', items);
      probes[`references:${ref.field}`] = { as: 'value', query: ctx.confine(counted, target, principal) };
      continue;
    }
    // The session's own client and division need no looking up, nor a record naming itself.
    if (scopeFields.has(ref.field) || (ref.target === entity.name && value === data[entity.primaryKey]))
      continue;
    const filter = Object.keys(entity.schema.properties[ref.field]['x-ref']?.filter ?? {});
    const columns = [...new Set([target.primaryKey, ...filter])];
    const query = base.select(columns).where(target.primaryKey, '=', value);
    probes[`reference:${ref.field}`] = { as: 'row', query: ctx.confine(query, target, principal) };
  }
  return probes;
}

/** A create's key already taken is a duplicate. */
export function checkKey(entity: Entity, answers: Answers): void {
  if (answers.key !== undefined && answers.key !== null)
    throw new ApiError('DUPLICATE', {
      fields: { [entity.primaryKey]: { messageKey: 'validation.duplicate' } },
    });
}

/** Every reference points at a record the caller can see: elsewhere is as good as nowhere. */
export async function checkReferences(
  ctx: CheckContext,
  entity: Entity,
  data: Row,
  principal: Principal,
  answers?: Answers,
): Promise<void> {
  const found = answers ?? (await ask(ctx.db, referenceProbes(ctx, entity, data, principal)));
  const fields: Record<string, FieldProblem> = {};
  const missing = (ref: { field: string; target: string }) => {
    fields[ref.field] = { messageKey: 'validation.referenceMissing', params: { resource: ref.target } };
  };
  for (const ref of entity.references) {
    const value = data[ref.field];
    if (Array.isArray(value)) {
      const counted = found[`references:${ref.field}`];
      if (counted !== undefined && Number(counted) !== new Set(value).size) missing(ref);
      continue;
    }
    if (!(`reference:${ref.field}` in found)) continue;
    const row = found[`reference:${ref.field}`] as Row | null;
    if (!row) {
      missing(ref);
      continue;
    }
    // A cascading choice must belong to what the record chose above it.
    const filter = entity.schema.properties[ref.field]['x-ref']?.filter ?? {};
    for (const [remote, local] of Object.entries(filter))
      if (data[local] !== undefined && changed(row[remote], data[local]))
        fields[ref.field] = { messageKey: 'validation.referenceFilter', params: { field: local } };
  }
  if (Object.keys(fields).length) throw new ApiError('MISSING_REFERENCE', { fields });
}

function fieldRulesQuery(db: Db, registry: Registry, entity: Entity, principal: Principal) {
  const rules = registry.get(FIELD_RULE_RESOURCE);
  if (!rules || principal.clientId === undefined) return undefined;
  return db
    .selectFrom(rules.table)
    .select(['IdDato', 'Campo', 'Obligatorio', 'Modificable'])
    .where('IdCliente', '=', principal.clientId)
    .where('IdDato', '=', entity.name)
    .where('Activo', '=', 'S');
}

/** The active field rules (spec: IdDato, Campo, Obligatorio, Modificable) of an entity's form. */
export async function fieldRules(
  db: Db,
  registry: Registry,
  entity: Entity,
  principal: Principal,
): Promise<FieldRule[]> {
  const query = fieldRulesQuery(db, registry, entity, principal);
  return query ? ((await query.execute()) as FieldRule[]) : [];
}

/**
 * The rules of spec section 5 beyond one field's schema: ends not before starts, documents that
 * fit their type, the field rules of the client's form, and records whose state locks them.
 */
export async function checkRules(
  ctx: CheckContext,
  entity: Entity,
  data: Row,
  answers: Answers,
  existing?: Row,
): Promise<void> {
  const fields: Record<string, FieldProblem> = checkAfter(entity.after, data);
  for (const { field } of entity.documents) {
    const type = answers[`document:${field}`] as DocumentTypeRule | null | undefined;
    if (!type || fields[field]) continue;
    const problem = checkDocument(data[field] as string, type);
    if (problem) fields[field] = problem;
  }
  const rules = (answers.fieldRules ?? []) as FieldRule[];
  const effects = fieldRuleEffects(rules, entity.writable);
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
  await checkTree(ctx.db, entity, data, existing);
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
export function checkUnique(entity: Entity, answers: Answers): void {
  const fields: Record<string, FieldProblem> = {};
  // The session's own client or division is not the user's to change: name the other fields.
  const scopeFields = sessionFields(entity);
  entity.unique.forEach((set, i) => {
    const holder = answers[`unique:${i}`];
    if (holder === undefined || holder === null) return;
    for (const f of set) if (!scopeFields.has(f)) fields[f] = { messageKey: 'validation.duplicate' };
  });
  if (Object.keys(fields).length) throw new ApiError('DUPLICATE', { fields });
}
