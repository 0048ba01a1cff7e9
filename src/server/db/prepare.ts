import { ensureDirectoryTables } from '../auth/directory-tables.js';
import { ensureAuthTables } from '../auth/tables.js';
import { ensureAccessTables } from '../features/access/tables.js';
import { ensureAttendanceTables } from '../features/attendance/tables.js';
import { ensureDiningTables } from '../features/dining/tables.js';
import type { Registry } from '../registry.js';
import { ensureFileTables } from '../storage/files.js';
import type { Database } from './connection.js';
import { runMigrations } from './migrate.js';
import { type SyncReport, syncSchema } from './sync.js';

/** Brings a database up to the schemas: frozen migrations first, then the additive sync. */
export async function prepareDatabase(database: Database, registry: Registry): Promise<SyncReport> {
  await runMigrations(database.db);
  const report = await syncSchema(database, registry);
  await ensureAuthTables(database);
  await ensureDirectoryTables(database);
  await ensureAccessTables(database);
  await ensureAttendanceTables(database);
  await ensureDiningTables(database);
  await ensureFileTables(database);
  return report;
}
