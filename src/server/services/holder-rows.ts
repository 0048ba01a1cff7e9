import type { Row } from '../crud/types.js';
import type { Db } from '../db/connection.js';
import type { AccreditationEnded, Revocation } from '../events.js';
import type { Registry } from '../registry.js';

/** A referenced record's name (an access profile's, a cost category's), or null. */
export async function nameOf(
  db: Db,
  registry: Registry,
  resource: string,
  id: unknown,
  field: string,
): Promise<string | null> {
  if (id === null || id === undefined) return null;
  const entity = registry.require(resource);
  const found = (await db
    .selectFrom(entity.table)
    .select(field)
    .where(entity.primaryKey, '=', id as number)
    .executeTakeFirst()) as Row | undefined;
  return found?.[field] === undefined || found[field] === null ? null : String(found[field]);
}

/**
 * Deactivates the active rows of one resource that an ended accreditation's holder has within a
 * scope (its division, its client), ending their period on the end's date when it runs later;
 * answers each as a revocation under the name `name` gives it.
 */
export async function deactivateHolderRows(
  trx: Db,
  registry: Registry,
  event: AccreditationEnded,
  options: {
    resource: string;
    key: string;
    scope: [string, number];
    name: (row: Row) => Promise<string | null>;
    extra?: Row;
  },
): Promise<Revocation[]> {
  const { accreditation, date, principal, at } = event;
  const column = accreditation.IdPersona !== null ? 'IdPersona' : 'IdVehiculo';
  const holder = (accreditation.IdPersona ?? accreditation.IdVehiculo) as number;
  const entity = registry.require(options.resource);
  const rows = (await trx
    .selectFrom(entity.table)
    .selectAll()
    .where(column, '=', holder)
    .where(options.scope[0], '=', options.scope[1])
    .where('Activo', '=', 'S')
    .orderBy(options.key)
    .execute()) as Row[];
  const released: Revocation[] = [];
  for (const row of rows) {
    const change: Row = {
      Activo: 'N',
      ...options.extra,
      IdUsuarioModificacion: principal.userId,
      FechaModificacion: at,
    };
    if (typeof row.FechaFin === 'string' && row.FechaFin > date && String(row.FechaInicio) <= date)
      change.FechaFin = date;
    await trx.updateTable(entity.table).set(change).where(options.key, '=', row[options.key]).execute();
    released.push({
      resource: options.resource,
      id: row[options.key] as number,
      description: await options.name(row),
      before: row,
      after: { ...row, ...change },
    });
  }
  return released;
}
