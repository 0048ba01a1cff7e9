import type { Database } from './db/connection.js';
import { prepareStore } from './db/prepare.js';
import type { SyncReport } from './db/sync.js';
import { FEATURES } from './features/index.js';
import type { Registry } from './registry.js';

/** Brings a database up to the schemas and to every feature's own tables (see db/prepare.ts). */
export function prepareDatabase(database: Database, registry: Registry): Promise<SyncReport> {
  return prepareStore(
    database,
    registry,
    FEATURES.flatMap((f) => (f.tables ? [f.tables] : [])),
  );
}
