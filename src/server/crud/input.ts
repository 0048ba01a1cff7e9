import { yearsSince } from '../../shared/dates.js';
import { normalizeDocument } from '../../shared/rules.js';
import { AUDIT_FIELDS } from '../../shared/schema/types.js';
import { fieldProblemsFromAjv } from '../../shared/validation.js';
import { ApiError } from '../errors.js';
import { type Entity, INTEGER_RANGE } from '../registry.js';
import type { ApiRecord, RecordId, Row } from './types.js';

const SERVER_OWNED = new Set<string>(['id', ...AUDIT_FIELDS]);

/**
 * From a request body to the values to write: server-owned and read-only fields dropped, text
 * trimmed, empty values removed, upper-casing and computed fields applied, then validated.
 */
export function prepare(entity: Entity, body: unknown): Row {
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
  for (const field of entity.lower) {
    if (typeof data[field] === 'string') data[field] = (data[field] as string).toLowerCase();
  }
  // A document may come as the user reads it (12.345.678-5): it is kept bare (123456785).
  for (const { field } of entity.documents) {
    if (typeof data[field] !== 'string') continue;
    const normal = normalizeDocument(data[field] as string);
    if (normal) data[field] = normal;
    else delete data[field];
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

/** Parses an id taken from a URL into the key's type; a malformed id is a 400. */
export function parseId(entity: Entity, raw: string): RecordId {
  if (entity.schema.properties[entity.primaryKey].type === 'string') return raw;
  const n = /^-?\d{1,10}$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isInteger(n) || n < INTEGER_RANGE.minimum || n > INTEGER_RANGE.maximum)
    throw new ApiError('BAD_REQUEST', { detail: `malformed id ${raw.slice(0, 40)}` });
  return n;
}

/**
 * Adds `id` to a row in place (rows are fresh objects, and copying wide rows costs more than the
 * query) and leaves out its secrets, which no answer carries.
 */
export function toRecord(entity: Entity, row: Row): ApiRecord {
  const record = row as ApiRecord;
  record.id = row[entity.primaryKey];
  for (const field of entity.secrets) delete record[field];
  return record;
}
