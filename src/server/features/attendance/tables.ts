import type { Database } from '../../db/connection.js';

/**
 * The daily results of attendance: one row per person and day, as `dailyResult` returned it when
 * the day was last recomputed (a marking touched it, or the period was computed). A closed day
 * (its payroll period closed) keeps the figures paid; a later marking on it leaves them as they are
 * and sets Pendiente, so the next period takes the difference up.
 */
export const ATTENDANCE_TABLES = { day: 'attendance_day' } as const;

export async function ensureAttendanceTables(database: Database): Promise<void> {
  const { db } = database;
  await db.schema
    .createTable(ATTENDANCE_TABLES.day)
    .ifNotExists()
    .addColumn('IdPersona', 'integer', (c) => c.notNull())
    .addColumn('Fecha', 'text', (c) => c.notNull())
    .addColumn('IdCliente', 'integer', (c) => c.notNull())
    .addColumn('IdCompania', 'integer')
    .addColumn('IdTipoHorario', 'integer')
    .addColumn('Estado', 'text', (c) => c.notNull())
    .addColumn('EntradaPlan', 'text')
    .addColumn('SalidaPlan', 'text')
    .addColumn('PrimeraEntrada', 'text')
    .addColumn('UltimaSalida', 'text')
    .addColumn('MinutosTrabajados', 'integer', (c) => c.notNull())
    .addColumn('MinutosRefrigerio', 'integer', (c) => c.notNull())
    .addColumn('MinutosTardanza', 'integer', (c) => c.notNull())
    .addColumn('MinutosSalidaTemprana', 'integer', (c) => c.notNull())
    .addColumn('MinutosExtraAntes', 'integer', (c) => c.notNull())
    .addColumn('MinutosExtraDespues', 'integer', (c) => c.notNull())
    .addColumn('MinutosJustificados', 'integer', (c) => c.notNull())
    .addColumn('MinutosJustificadosPagados', 'integer', (c) => c.notNull())
    .addColumn('Marcas', 'integer', (c) => c.notNull())
    .addColumn('Alertas', 'text')
    .addColumn('Feriado', 'text')
    .addColumn('Cerrado', 'text', (c) => c.notNull().defaultTo('N'))
    .addColumn('Pendiente', 'text', (c) => c.notNull().defaultTo('N'))
    .addColumn('CalculadoEn', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('pk_attendance_day', ['IdPersona', 'Fecha'])
    .execute();
  await db.schema
    .createIndex('ix_attendance_day_client_date')
    .ifNotExists()
    .on(ATTENDANCE_TABLES.day)
    .columns(['IdCliente', 'Fecha', 'IdCompania'])
    .execute();
}
