import { sql } from 'kysely';
import type { Database, Db } from '../../db/connection.js';

/**
 * The consumption report's running totals: one row per division, service day, room, service and
 * company (0 for a meal of nobody known), with the served meals not voided and their amounts in
 * cents. Moved in the transaction that writes a served meal or voids one, so they always equal the
 * rows; the report reads them instead of summing a year of meals (a person's filter reads the rows).
 */
export const DINING_DAY_TABLE = 'dining_consumption_day';

export async function ensureDiningTables(database: Database): Promise<void> {
  await database.db.schema
    .createTable(DINING_DAY_TABLE)
    .ifNotExists()
    .addColumn('IdDivision', 'integer', (c) => c.notNull())
    .addColumn('Fecha', 'text', (c) => c.notNull())
    .addColumn('IdComedor', 'integer', (c) => c.notNull())
    .addColumn('IdServicio', 'integer', (c) => c.notNull())
    .addColumn('IdCompania', 'integer', (c) => c.notNull())
    .addColumn('IdCliente', 'integer', (c) => c.notNull())
    .addColumn('Consumos', 'bigint', (c) => c.notNull())
    .addColumn('Importe', 'bigint', (c) => c.notNull())
    .addColumn('Compania', 'bigint', (c) => c.notNull())
    .addColumn('Trabajador', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('pk_dining_consumption_day', [
      'IdDivision',
      'Fecha',
      'IdComedor',
      'IdServicio',
      'IdCompania',
    ])
    .execute();
}

/** A served meal's row as the totals count it. */
export interface Counted {
  IdCliente: number;
  IdDivision: number;
  Fecha: string;
  IdComedor: number;
  IdServicio: number | null;
  IdCompania: number | null;
  ImporteTotal: number | null;
  ImporteCompania: number | null;
  ImporteTrabajador: number | null;
}

/** Adds a served meal to its day's totals (sign 1), or takes a voided one out (sign −1). */
export async function countMeal(trx: Db, meal: Counted, sign: 1 | -1): Promise<void> {
  if (meal.IdServicio == null) return;
  const values = {
    IdDivision: meal.IdDivision,
    Fecha: meal.Fecha,
    IdComedor: meal.IdComedor,
    IdServicio: meal.IdServicio,
    IdCompania: meal.IdCompania ?? 0,
    IdCliente: meal.IdCliente,
    Consumos: sign,
    Importe: sign * Number(meal.ImporteTotal ?? 0),
    Compania: sign * Number(meal.ImporteCompania ?? 0),
    Trabajador: sign * Number(meal.ImporteTrabajador ?? 0),
  };
  const t = DINING_DAY_TABLE;
  await trx
    .insertInto(t)
    .values(values)
    .onConflict((oc) =>
      oc.columns(['IdDivision', 'Fecha', 'IdComedor', 'IdServicio', 'IdCompania']).doUpdateSet({
        Consumos: sql`${sql.ref(`${t}.Consumos`)} + ${values.Consumos}`,
        Importe: sql`${sql.ref(`${t}.Importe`)} + ${values.Importe}`,
        Compania: sql`${sql.ref(`${t}.Compania`)} + ${values.Compania}`,
        Trabajador: sql`${sql.ref(`${t}.Trabajador`)} + ${values.Trabajador}`,
      }),
    )
    .execute();
}

/**
 * The totals worked out again from the meals (all of a client's, in one transaction): for meals
 * written around the product (a bulk load) or to check the running totals against the rows.
 */
export async function recountDays(db: Db, consumptionTable: string, clientId: number): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom(DINING_DAY_TABLE).where('IdCliente', '=', clientId).execute();
    await trx
      .insertInto(DINING_DAY_TABLE)
      .columns([
        'IdDivision',
        'Fecha',
        'IdComedor',
        'IdServicio',
        'IdCompania',
        'IdCliente',
        'Consumos',
        'Importe',
        'Compania',
        'Trabajador',
      ])
      .expression(
        trx
          .selectFrom(consumptionTable)
          .select((eb) => [
            'IdDivision',
            'Fecha',
            'IdComedor',
            'IdServicio',
            sql<number>`coalesce(${sql.ref('IdCompania')}, 0)`.as('IdCompania'),
            'IdCliente',
            eb.fn.countAll().as('Consumos'),
            sql<number>`coalesce(sum(${sql.ref('ImporteTotal')}), 0)`.as('Importe'),
            sql<number>`coalesce(sum(${sql.ref('ImporteCompania')}), 0)`.as('Compania'),
            sql<number>`coalesce(sum(${sql.ref('ImporteTrabajador')}), 0)`.as('Trabajador'),
          ])
          .where('IdCliente', '=', clientId)
          .where('Resultado', '=', 'P')
          .where('Anulado', '=', 'N')
          .where('IdServicio', 'is not', null)
          .groupBy([
            'IdDivision',
            'Fecha',
            'IdComedor',
            'IdServicio',
            sql`coalesce(${sql.ref('IdCompania')}, 0)`,
            'IdCliente',
          ]),
      )
      .execute();
  });
}
