import type { EntitySchema, ScopeDimension } from '../../shared/schema/types.js';
import { session } from '../session/store.js';

/**
 * How a tenancy property (x-scope) of a record reads when the profile may not read the record
 * it refers to (a contractor never reads the client or division tables): every record the
 * profile sees belongs to its own client, division and company, whose names the session keeps.
 */
export function scopeLabel(schema: EntitySchema, field: string, value: unknown): string | undefined {
  const current = session.profile()?.current;
  if (!current || value === null || value === undefined) return undefined;
  const names: Partial<Record<ScopeDimension, [unknown, string | null]>> = {
    client: [current.IdCliente, current.Cliente],
    division: [current.IdDivision, current.Division],
    company: [current.IdCompania, current.Compania],
  };
  for (const [dimension, property] of Object.entries(schema['x-scope'] ?? {})) {
    if (property !== field) continue;
    const [id, name] = names[dimension as ScopeDimension] ?? [];
    if (id === value && name) return name;
  }
  return undefined;
}

/** A reference the profile may not read, in words where the session knows them, else its key. */
export function unreadableLabel(schema: EntitySchema, field: string, value: unknown): string {
  if (value === null || value === undefined || value === '') return '—';
  if (Array.isArray(value)) return value.join(', ');
  return scopeLabel(schema, field, value) ?? String(value);
}
