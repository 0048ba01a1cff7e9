import type { CreateTableBuilder } from 'kysely';
import type { Database } from '../db/connection.js';

/**
 * The directory sign-in's own tables. A flow is one trip to the issuer: the hash of its state
 * (the key the callback brings back), the nonce and PKCE verifier that stay on the server, the
 * hash of the browser binding (a cookie of the popup) and when it expires or was used. A ticket
 * is what the callback hands the console for POST /api/UsuarioAD/authenticateAzureAD: its hash,
 * the client and the directory's name for the user. Both are single use and expire within
 * minutes; instants are epoch milliseconds, as in the other auth tables. Nothing references a user:
 * the user is found only when the ticket is spent.
 */
export const DIRECTORY_TABLES = {
  flow: 'auth_directory_flow',
  ticket: 'auth_directory_ticket',
} as const;

export async function ensureDirectoryTables(database: Database): Promise<void> {
  const { db } = database;
  type Builder = CreateTableBuilder<string, string>;
  const table = (name: string, build: (t: Builder) => Builder) =>
    build(db.schema.createTable(name).ifNotExists() as Builder).execute();

  await table(DIRECTORY_TABLES.flow, (t) =>
    t
      .addColumn('Hash', 'text', (c) => c.primaryKey())
      .addColumn('IdCliente', 'integer', (c) => c.notNull())
      .addColumn('Nonce', 'text', (c) => c.notNull())
      .addColumn('Verificador', 'text', (c) => c.notNull())
      .addColumn('Vinculo', 'text', (c) => c.notNull())
      .addColumn('RedirectUri', 'text', (c) => c.notNull())
      .addColumn('ExpiraEn', 'bigint', (c) => c.notNull())
      .addColumn('UsadoEn', 'bigint')
      .addColumn('CreadoEn', 'bigint', (c) => c.notNull()),
  );
  await table(DIRECTORY_TABLES.ticket, (t) =>
    t
      .addColumn('Hash', 'text', (c) => c.primaryKey())
      .addColumn('IdCliente', 'integer', (c) => c.notNull())
      .addColumn('Identidad', 'text', (c) => c.notNull())
      .addColumn('ExpiraEn', 'bigint', (c) => c.notNull())
      .addColumn('UsadoEn', 'bigint')
      .addColumn('CreadoEn', 'bigint', (c) => c.notNull()),
  );
  for (const name of Object.values(DIRECTORY_TABLES)) {
    await db.schema.createIndex(`ix_${name}_expira`).ifNotExists().on(name).column('ExpiraEn').execute();
  }
}
