import { type ColumnDefinitionBuilder, type CreateTableBuilder, sql } from 'kysely';
import type { Database, Db } from '../../db/connection.js';

/**
 * Site access's own tables beside the entity tables:
 * - device keys: one row per key issued to an equipment, only its SHA-256 hash kept; a rotated or
 *   revoked key keeps its row with the instant it stopped working;
 * - presence: the last allowed marking of each person or vehicle in each division (holder "P:<id>" or
 *   "V:<id>"), moved in the marking's transaction, so headcount reads one row per holder instead of
 *   scanning markings;
 * - the Ed25519 key pair that signs the offline allow-lists (made once, like the auth secret), and the
 *   allow-list versions each control point has been served, so a gate asks only for the changes;
 * - enrolment codes: one-time codes an equipment's screen shows in a QR, exchanged by the gate app for
 *   a device key; only their SHA-256 hash kept, with when they expire and when they were used;
 * - the marking's device identity (equipment + the device's own sequence or UUID) is unique, which
 *   makes a resent batch add nothing.
 * - marked days: each person's local days with a new allowed marking, a version moved on by each one,
 *   written in the marking's transaction; what derives from markings (attendance) takes them from
 *   there, recomputes, and removes a day only at the version it read (so a marking that arrived
 *   meanwhile is never lost).
 * Instants are epoch milliseconds, compared alike on both dialects.
 */
export const ACCESS_TABLES = {
  deviceKey: 'access_device_key',
  presence: 'access_presence',
  marking: 'access_marking',
  signingKey: 'access_signing_key',
  allowList: 'access_allow_list',
  enrolment: 'access_enrolment_code',
  markedDay: 'access_marked_day',
} as const;

export async function ensureAccessTables(database: Database): Promise<void> {
  const { db, dialect } = database;
  const serial = (col: ColumnDefinitionBuilder) =>
    dialect === 'postgres'
      ? col.primaryKey().generatedByDefaultAsIdentity()
      : col.primaryKey().autoIncrement();
  type Builder = CreateTableBuilder<string, string>;
  const table = (name: string, build: (t: Builder) => Builder) =>
    build(db.schema.createTable(name).ifNotExists() as Builder).execute();

  await table(ACCESS_TABLES.deviceKey, (t) =>
    t
      .addColumn('Id', 'integer', serial)
      .addColumn('IdEquipo', 'integer', (c) =>
        c.references('system_equipment.IdEquipo').onDelete('cascade').notNull(),
      )
      .addColumn('Hash', 'text', (c) => c.notNull().unique())
      .addColumn('Prefijo', 'text', (c) => c.notNull())
      .addColumn('IdUsuario', 'text')
      .addColumn('CreadoEn', 'bigint', (c) => c.notNull())
      .addColumn('RevocadoEn', 'bigint'),
  );
  await table(ACCESS_TABLES.presence, (t) =>
    t
      .addColumn('IdDivision', 'integer', (c) => c.notNull())
      .addColumn('Titular', 'text', (c) => c.notNull())
      .addColumn('IdCliente', 'integer', (c) => c.notNull())
      .addColumn('IdPersona', 'integer')
      .addColumn('IdVehiculo', 'integer')
      .addColumn('IdZona', 'integer')
      .addColumn('IdPuerta', 'integer')
      .addColumn('Funcion', 'text', (c) => c.notNull())
      .addColumn('Instante', 'bigint', (c) => c.notNull())
      .addColumn('IdMarcacion', 'integer', (c) => c.notNull())
      .addPrimaryKeyConstraint('pk_access_presence', ['IdDivision', 'Titular']),
  );
  await table(ACCESS_TABLES.signingKey, (t) =>
    t
      .addColumn('Id', 'integer', (c) => c.primaryKey())
      .addColumn('Privada', 'text', (c) => c.notNull())
      .addColumn('Publica', 'text', (c) => c.notNull()),
  );
  await table(ACCESS_TABLES.allowList, (t) =>
    t
      .addColumn('IdPuntoControl', 'integer', (c) => c.notNull())
      .addColumn('Version', 'integer', (c) => c.notNull())
      .addColumn('Huella', 'text', (c) => c.notNull())
      .addColumn('Contenido', 'text', (c) => c.notNull())
      .addColumn('CreadoEn', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('pk_access_allow_list', ['IdPuntoControl', 'Version']),
  );
  await table(ACCESS_TABLES.enrolment, (t) =>
    t
      .addColumn('Hash', 'text', (c) => c.primaryKey())
      .addColumn('IdEquipo', 'integer', (c) =>
        c.references('system_equipment.IdEquipo').onDelete('cascade').notNull(),
      )
      .addColumn('IdUsuario', 'text')
      .addColumn('CreadoEn', 'bigint', (c) => c.notNull())
      .addColumn('ExpiraEn', 'bigint', (c) => c.notNull())
      .addColumn('UsadoEn', 'bigint'),
  );
  await table(ACCESS_TABLES.markedDay, (t) =>
    t
      .addColumn('IdPersona', 'integer', (c) => c.notNull())
      .addColumn('Fecha', 'text', (c) => c.notNull())
      .addColumn('IdCliente', 'integer', (c) => c.notNull())
      .addColumn('Version', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('pk_access_marked_day', ['IdPersona', 'Fecha']),
  );
  const index = (name: string, on: string, columns: string[], unique = false) => {
    let builder = db.schema.createIndex(name).ifNotExists().on(on).columns(columns);
    if (unique) builder = builder.unique();
    return builder.execute();
  };
  await index('ix_access_device_key_idequipo', ACCESS_TABLES.deviceKey, ['IdEquipo']);
  await index('ix_access_presence_division_funcion', ACCESS_TABLES.presence, ['IdDivision', 'Funcion']);
  await index('ux_access_marking_device', ACCESS_TABLES.marking, ['IdEquipo', 'IdMarcaDispositivo'], true);
  await index('ix_access_marked_day_client', ACCESS_TABLES.markedDay, ['IdCliente']);
}

/**
 * Notes the local days of newly written allowed markings of people (in the marking's transaction):
 * each (person, day) once, its version moved on if already there.
 */
export async function noteMarkedDays(
  trx: Db,
  rows: Array<{ IdPersona?: unknown; Fecha?: unknown; IdCliente?: unknown; Resultado?: unknown }>,
): Promise<void> {
  const days = new Map<string, { IdPersona: number; Fecha: string; IdCliente: number }>();
  for (const row of rows) {
    if (row.Resultado !== 'P' || row.IdPersona == null || !row.Fecha) continue;
    const IdPersona = Number(row.IdPersona);
    const Fecha = String(row.Fecha).slice(0, 10);
    days.set(`${IdPersona}|${Fecha}`, { IdPersona, Fecha, IdCliente: Number(row.IdCliente) });
  }
  if (!days.size) return;
  // In a stable order, so two transactions never wait on each other's rows the other way round.
  const sorted = [...days.values()].sort(
    (a, b) => a.IdPersona - b.IdPersona || a.Fecha.localeCompare(b.Fecha),
  );
  for (let i = 0; i < sorted.length; i += 200)
    await trx
      .insertInto(ACCESS_TABLES.markedDay)
      .values(sorted.slice(i, i + 200).map((d) => ({ ...d, Version: 1 })))
      .onConflict((oc) =>
        oc
          .columns(['IdPersona', 'Fecha'])
          .doUpdateSet({ Version: sql`${sql.ref(`${ACCESS_TABLES.markedDay}.Version`)} + 1` }),
      )
      .execute();
}
