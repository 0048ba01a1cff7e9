import { randomBytes } from 'node:crypto';
import type { ColumnDefinitionBuilder, CreateTableBuilder } from 'kysely';
import type { Database, Db } from '../db/connection.js';

/**
 * The session machinery's own tables, beside the entity tables: password hashes and history,
 * lock counters, sessions and refresh tokens, one-time codes, throttle windows, the secret that
 * keys the codes and the keys that sign access tokens. Instants are epoch milliseconds, so both dialects compare them alike. Created when
 * missing, like the entity tables; a user's rows go with the user.
 */
export const AUTH_TABLES = {
  secret: 'auth_secret',
  signingKey: 'auth_signing_key',
  spentChallenge: 'auth_challenge_spent',
  password: 'auth_password',
  history: 'auth_password_history',
  state: 'auth_user_state',
  session: 'auth_session',
  refresh: 'auth_refresh_token',
  code: 'auth_code',
  throttle: 'auth_throttle',
  totp: 'auth_totp',
  totpRecovery: 'auth_totp_recovery',
} as const;

const USER = 'security_user.IdUsuario';
const cascade = (col: ColumnDefinitionBuilder) => col.references(USER).onDelete('cascade').notNull();

export async function ensureAuthTables(database: Database): Promise<void> {
  const { db, dialect } = database;
  const serial = (col: ColumnDefinitionBuilder) =>
    dialect === 'postgres'
      ? col.primaryKey().generatedByDefaultAsIdentity()
      : col.primaryKey().autoIncrement();
  type Builder = CreateTableBuilder<string, string>;
  const table = (name: string, build: (t: Builder) => Builder) =>
    build(db.schema.createTable(name).ifNotExists() as Builder).execute();

  await table(AUTH_TABLES.secret, (t) =>
    t.addColumn('Id', 'integer', (c) => c.primaryKey()).addColumn('Secreto', 'text', (c) => c.notNull()),
  );
  await table(AUTH_TABLES.signingKey, (t) =>
    t
      .addColumn('Kid', 'text', (c) => c.primaryKey())
      .addColumn('Privada', 'text', (c) => c.notNull())
      .addColumn('Publica', 'text', (c) => c.notNull())
      .addColumn('CreadaEn', 'bigint', (c) => c.notNull())
      .addColumn('RetiradaEn', 'bigint'),
  );
  await table(AUTH_TABLES.spentChallenge, (t) =>
    t.addColumn('Firma', 'text', (c) => c.primaryKey()).addColumn('ExpiraEn', 'bigint', (c) => c.notNull()),
  );
  await table(AUTH_TABLES.password, (t) =>
    t
      .addColumn('IdUsuario', 'text', (c) => cascade(c).primaryKey())
      .addColumn('Hash', 'text', (c) => c.notNull())
      .addColumn('FechaCambio', 'bigint', (c) => c.notNull()),
  );
  await table(AUTH_TABLES.history, (t) =>
    t
      .addColumn('Id', 'integer', serial)
      .addColumn('IdUsuario', 'text', cascade)
      .addColumn('Hash', 'text', (c) => c.notNull())
      .addColumn('Fecha', 'bigint', (c) => c.notNull()),
  );
  await table(AUTH_TABLES.state, (t) =>
    t
      .addColumn('IdUsuario', 'text', (c) => cascade(c).primaryKey())
      .addColumn('IntentosFallidos', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('IntentosCodigo', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('BloqueadoHasta', 'bigint')
      .addColumn('Motivo', 'text'),
  );
  await table(AUTH_TABLES.session, (t) =>
    t
      .addColumn('Id', 'text', (c) => c.primaryKey())
      .addColumn('IdUsuario', 'text', cascade)
      .addColumn('Etapa', 'text', (c) => c.notNull())
      .addColumn('IdUsuarioPerfil', 'integer')
      .addColumn('IdPerfil', 'integer')
      .addColumn('IdCliente', 'integer')
      .addColumn('IdDivision', 'integer')
      .addColumn('IdCompania', 'integer')
      .addColumn('CreadoEn', 'bigint', (c) => c.notNull())
      .addColumn('ExpiraEn', 'bigint', (c) => c.notNull())
      .addColumn('RevocadoEn', 'bigint')
      .addColumn('Motivo', 'text'),
  );
  await table(AUTH_TABLES.refresh, (t) =>
    t
      .addColumn('Hash', 'text', (c) => c.primaryKey())
      .addColumn('IdSesion', 'text', (c) =>
        c.references(`${AUTH_TABLES.session}.Id`).onDelete('cascade').notNull(),
      )
      .addColumn('ExpiraEn', 'bigint', (c) => c.notNull())
      .addColumn('UsadoEn', 'bigint')
      .addColumn('CreadoEn', 'bigint', (c) => c.notNull()),
  );
  await table(AUTH_TABLES.code, (t) =>
    t
      .addColumn('Id', 'integer', serial)
      .addColumn('IdUsuario', 'text', cascade)
      .addColumn('Proposito', 'text', (c) => c.notNull())
      .addColumn('Hash', 'text', (c) => c.notNull())
      .addColumn('ExpiraEn', 'bigint', (c) => c.notNull())
      .addColumn('Intentos', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('UsadoEn', 'bigint')
      .addColumn('CreadoEn', 'bigint', (c) => c.notNull()),
  );
  await table(AUTH_TABLES.throttle, (t) =>
    t
      .addColumn('Clave', 'text', (c) => c.primaryKey())
      .addColumn('Ventana', 'bigint', (c) => c.notNull())
      .addColumn('Cuenta', 'integer', (c) => c.notNull()),
  );
  await table(AUTH_TABLES.totp, (t) =>
    t
      .addColumn('IdUsuario', 'text', (c) => cascade(c).primaryKey())
      // The secret, encrypted (AES-256-GCM); set once the user confirmed it with a code.
      .addColumn('Secreto', 'text')
      .addColumn('ActivadoEn', 'bigint')
      // The last time step whose code was accepted: no code of it or before it works again.
      .addColumn('UltimoPaso', 'bigint')
      // A secret offered and not confirmed yet, encrypted.
      .addColumn('Pendiente', 'text')
      // Until when this sign-in may give the app's code (the password was just proven).
      .addColumn('PasoHasta', 'bigint')
      // The ticket of an enrolment required at sign-in (a keyed hash) and its expiry.
      .addColumn('Ticket', 'text')
      .addColumn('TicketHasta', 'bigint'),
  );
  await table(AUTH_TABLES.totpRecovery, (t) =>
    t
      .addColumn('Id', 'integer', serial)
      .addColumn('IdUsuario', 'text', cascade)
      .addColumn('Hash', 'text', (c) => c.notNull())
      .addColumn('UsadoEn', 'bigint'),
  );
  for (const [table, column] of [
    [AUTH_TABLES.session, 'IdUsuario'],
    [AUTH_TABLES.refresh, 'IdSesion'],
    [AUTH_TABLES.code, 'IdUsuario'],
    [AUTH_TABLES.history, 'IdUsuario'],
    [AUTH_TABLES.totpRecovery, 'IdUsuario'],
    [AUTH_TABLES.spentChallenge, 'ExpiraEn'],
  ]) {
    await db.schema
      .createIndex(`ix_${table}_${column.toLowerCase()}`)
      .ifNotExists()
      .on(table)
      .column(column)
      .execute();
  }
}

/** The secret that keys the one-time codes' hashes: AUTH_SECRET, or one made once and kept in the database. */
export async function signingSecret(db: Db, configured?: string): Promise<Uint8Array> {
  if (configured) return new TextEncoder().encode(configured);
  await db
    .insertInto(AUTH_TABLES.secret)
    .values({ Id: 1, Secreto: randomBytes(48).toString('base64url') })
    .onConflict((oc) => oc.column('Id').doNothing())
    .execute();
  const row = (await db
    .selectFrom(AUTH_TABLES.secret)
    .select('Secreto')
    .where('Id', '=', 1)
    .executeTakeFirstOrThrow()) as {
    Secreto: string;
  };
  return new TextEncoder().encode(row.Secreto);
}
