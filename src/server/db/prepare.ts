import { ensureDirectoryTables } from '../auth/directory-tables.js';
import { ensureAuthTables } from '../auth/tables.js';
import type { Registry } from '../registry.js';
import { ensureFileTables } from '../storage/files.js';
import type { Database } from './connection.js';
import { runMigrations } from './migrate.js';
import { type SyncReport, syncSchema } from './sync.js';

/** Makes a feature's tables that are not an entity's (kept by the feature itself), if missing. */
export type TableMaker = (database: Database) => Promise<void>;

/**
 * Brings a database up to the schemas: frozen migrations first, then the additive sync, the
 * product's own tables (sign-in, directory, files), then the tables each feature declares
 * (`src/server/prepare.ts` hands them in: this layer knows no feature).
 */
export async function prepareStore(
  database: Database,
  registry: Registry,
  featureTables: readonly TableMaker[],
): Promise<SyncReport> {
  await runMigrations(database.db);
  const report = await syncSchema(database, registry);
  await ensureAuthTables(database);
  await ensureDirectoryTables(database);
  for (const make of featureTables) await make(database);
  await ensureFileTables(database);
  return report;
}
