import { siteDate, timeZoneOf } from '../shared/dates.js';
import type { Db } from './db/connection.js';
import type { Registry } from './registry.js';

/** The date at a division's site now (its country's time zone): what "today" means for its rules. */
export async function divisionToday(
  db: Db,
  registry: Registry,
  divisionId: number,
  now: number,
): Promise<string> {
  const division = (await db
    .selectFrom(registry.require('division').table)
    .select('IdPais')
    .where('IdDivision', '=', divisionId)
    .executeTakeFirst()) as { IdPais: string | null } | undefined;
  return siteDate(division?.IdPais, now);
}

/** The time zone of a division's site (its country's), for the times its exports write. */
export async function divisionTimeZone(
  db: Db,
  registry: Registry,
  divisionId: number | undefined,
): Promise<string> {
  if (divisionId === undefined) return timeZoneOf(undefined);
  const division = (await db
    .selectFrom(registry.require('division').table)
    .select('IdPais')
    .where('IdDivision', '=', divisionId)
    .executeTakeFirst()) as { IdPais: string | null } | undefined;
  return timeZoneOf(division?.IdPais);
}
