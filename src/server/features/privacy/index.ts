import type { Feature } from '../feature.js';
import { ensurePrivacyTables } from './tables.js';

/**
 * Personal-data protection (Ley 29733, Ley 21.719). The generic reads mask health and
 * criminal-record data for profiles whose settings do not allow them and log every read of them
 * (src/server/services/privacy.ts); this area keeps the log append-only in the database.
 */
export const privacy: Feature = {
  name: 'privacy',
  tables: ensurePrivacyTables,
};
