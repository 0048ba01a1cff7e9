import type { ColumnDefinitionBuilder, CreateTableBuilder } from 'kysely';
import type { Database } from '../../db/connection.js';

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
 * Instants are epoch milliseconds, compared alike on both dialects.
 */
export const ACCESS_TABLES = {
  deviceKey: 'access_device_key',
  presence: 'access_presence',
  marking: 'access_marking',
  signingKey: 'access_signing_key',
  allowList: 'access_allow_list',
  enrolment: 'access_enrolment_code',
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
  const index = (name: string, on: string, columns: string[], unique = false) => {
    let builder = db.schema.createIndex(name).ifNotExists().on(on).columns(columns);
    if (unique) builder = builder.unique();
    return builder.execute();
  };
  await index('ix_access_device_key_idequipo', ACCESS_TABLES.deviceKey, ['IdEquipo']);
  await index('ix_access_presence_division_funcion', ACCESS_TABLES.presence, ['IdDivision', 'Funcion']);
  await index('ux_access_marking_device', ACCESS_TABLES.marking, ['IdEquipo', 'IdMarcaDispositivo'], true);
}
