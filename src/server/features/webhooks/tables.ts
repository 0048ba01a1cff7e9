import type { Database } from '../../db/connection.js';

/**
 * Each endpoint's signing secret, sealed (AES-256-GCM under the server's secret, bound to the
 * endpoint): kept apart from the endpoint's record, so no read, export or form of it can carry it.
 */
export const WEBHOOK_SECRET_TABLE = 'webhook_secret';

export async function ensureWebhookTables(database: Database): Promise<void> {
  await database.db.schema
    .createTable(WEBHOOK_SECRET_TABLE)
    .ifNotExists()
    .addColumn('IdDestino', 'integer', (c) => c.primaryKey())
    .addColumn('Secreto', 'text', (c) => c.notNull())
    .execute();
}
