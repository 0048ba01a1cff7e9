import { changed } from '../../shared/rules.js';
import type { Db } from '../db/connection.js';
import type { Principal } from '../principal.js';
import type { Entity, Registry } from '../registry.js';
import type { RecordId, Row } from './types.js';

/** The entity whose records are the audit trail. */
export const AUDIT_RESOURCE = 'audit';

/**
 * One row of the audit trail, written in the change's own transaction: who, when, which record,
 * the fields an update changed and the values before and after (secrets and sensitive personal data masked, pictures described).
 */
export async function writeAudit(
  db: Db,
  registry: Registry,
  entity: Entity,
  /** Created, updated, deleted, or R: a write refused for going beyond the caller's rights. */
  operation: 'C' | 'U' | 'D' | 'R',
  principal: Principal,
  id: unknown,
  before: Row | undefined,
  after: Row | undefined,
  /** A read-only entity's records change only through the product's own calls; those that a user makes (a void) are audited too. */
  evenReadOnly = false,
): Promise<void> {
  const trail = registry.get(AUDIT_RESOURCE);
  if (!trail || (entity.readOnly && !evenReadOnly)) return;
  const props = entity.schema.properties;
  // The trail says a health or criminal-record value changed, never what it was: its readers are not its readers.
  const hidden = new Set([...entity.secrets, ...entity.sensitive.map((s) => s.field)]);
  const values = (row: Row | undefined) =>
    row &&
    JSON.stringify(
      Object.fromEntries(
        Object.keys(props)
          .filter((f) => row[f] !== undefined)
          .map((f) => [
            f,
            row[f] === null
              ? null
              : hidden.has(f)
                ? '********'
                : entity.images.includes(f)
                  ? describeImage(row[f])
                  : row[f],
          ]),
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

/** A record's audit trail within the caller's client, newest first. */
export async function readHistory(
  db: Db,
  registry: Registry,
  entity: Entity,
  id: RecordId,
  principal: Principal,
): Promise<Row[]> {
  const trail = registry.get(AUDIT_RESOURCE);
  if (!trail) return [];
  let qb = db
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

/** A picture in the audit trail: its type and size, not its bytes ("image/png, 12 KB"). */
function describeImage(value: unknown): string {
  if (typeof value !== 'string') return String(value);
  const type = /^data:([^;,]+)/.exec(value)?.[1] ?? 'image';
  const base64 = value.slice(value.indexOf(',') + 1);
  return `${type}, ${Math.ceil((base64.length * 3) / 4 / 1024)} KB`;
}
