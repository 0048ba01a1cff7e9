import type { Db } from '../db/connection.js';
import type { Entity } from '../registry.js';
import type { RecordId, Row } from './types.js';

/** Fills each row's sets of references from their link tables (one query per set). */
export async function attachLinks(db: Db, entity: Entity, rows: Row[]): Promise<void> {
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
export async function writeLinks(db: Db, entity: Entity, id: RecordId, data: Row): Promise<void> {
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
export function columns(entity: Entity, data: Row): Row {
  const out: Row = { ...data };
  for (const { field, many } of entity.references) if (many) delete out[field];
  return out;
}
