import { type Migration, type MigrationResultSet, Migrator } from 'kysely';
import type { Db } from './connection.js';
import { migrations as released } from './migrations/index.js';

export async function runMigrations(
  db: Db,
  migrations: Record<string, Migration> = released,
): Promise<MigrationResultSet> {
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
  const result = await migrator.migrateToLatest();
  if (result.error) {
    const failed = result.results?.find((r) => r.status === 'Error')?.migrationName ?? 'unknown';
    throw new Error(`migration ${failed} failed: ${(result.error as Error).message ?? result.error}`);
  }
  return result;
}
