import type { Migration } from 'kysely';

/**
 * Frozen, explicit migrations for what the additive schema sync must not do on its own:
 * renaming or dropping columns and tables, changing types, moving data. Each entry is named
 * `<yyyymmdd>_<what>` and never edited once released; they run in name order before the sync.
 */
export const migrations: Record<string, Migration> = {};
