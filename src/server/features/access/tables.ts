import type { ColumnDefinitionBuilder, CreateTableBuilder } from 'kysely';
import type { Database } from '../../db/connection.js';
import { ACCESS_TABLES } from '../../services/site/tables.js';

/** Makes site access's own tables (named and described in services/site/tables.ts) if missing. */
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
