import type { Database } from '../../db/connection.js';

/**
 * The daily results of attendance: one row per person and day, as `dailyResult` returned it when
 * the day was last recomputed (a marking touched it, or the period was computed). A closed day
 * (its payroll period closed) keeps the figures paid; a later marking on it leaves them as they are
 * and sets Pendiente, so the next period takes the difference up.
 */
export const ATTENDANCE_TABLES = { day: 'attendance_day', closing: 'attendance_closing' } as const;

export async function ensureAttendanceTables(database: Database): Promise<void> {
  const { db } = database;
  await db.schema
    .createTable(ATTENDANCE_TABLES.day)
    .ifNotExists()
    .addColumn('IdPersona', 'integer', (c) => c.notNull())
    .addColumn('Fecha', 'text', (c) => c.notNull())
    .addColumn('IdCliente', 'integer', (c) => c.notNull())
    .addColumn('IdCompania', 'integer')
    .addColumn('IdPlanilla', 'integer')
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
  // A table made before days carried their payroll gets the column.
  const day = (await db.introspection.getTables()).find((t) => t.name === ATTENDANCE_TABLES.day);
  if (day && !day.columns.some((c) => c.name === 'IdPlanilla'))
    await db.schema.alterTable(ATTENDANCE_TABLES.day).addColumn('IdPlanilla', 'integer').execute();
  await db.schema
    .createIndex('ix_attendance_day_client_date')
    .ifNotExists()
    .on(ATTENDANCE_TABLES.day)
    .columns(['IdCliente', 'Fecha', 'IdCompania'])
    .execute();
  await db.schema
    .createIndex('ix_attendance_day_payroll_date')
    .ifNotExists()
    .on(ATTENDANCE_TABLES.day)
    .columns(['IdPlanilla', 'Fecha'])
    .execute();
  // A payroll's closed periods: one row per payroll and period, so a period is closed once (the
  // database refuses a second closing of it, whoever asks at the same time).
  await db.schema
    .createTable(ATTENDANCE_TABLES.closing)
    .ifNotExists()
    .addColumn('IdCliente', 'integer', (c) => c.notNull())
    .addColumn('IdPlanilla', 'integer', (c) => c.notNull())
    .addColumn('Desde', 'text', (c) => c.notNull())
    .addColumn('Hasta', 'text', (c) => c.notNull())
    .addColumn('Personas', 'integer', (c) => c.notNull())
    .addColumn('Dias', 'integer', (c) => c.notNull())
    .addColumn('CerradoPor', 'text', (c) => c.notNull())
    .addColumn('CerradoEn', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('pk_attendance_closing', ['IdPlanilla', 'Desde'])
    .execute();
}
