import { siteDate, timeZoneOf } from '../shared/dates.js';
import type { Db } from './db/connection.js';
import { type TtlCache, ttlCache } from './db/ttl-cache.js';
import type { Registry } from './registry.js';

/** Divisions' countries by registry (one per app), kept a minute: a site does not move. */
const countries = new WeakMap<Registry, TtlCache<[number, Db], string | null>>();
const COUNTRY_KEPT_MS = 60_000;

/**
 * The country of a division's site (its time zone follows it). Read once a minute per division:
 * the writes that need the site's date (a person's employment, a decision) do not read it again;
 * a division given another country is seen within the minute.
 */
export function divisionCountry(db: Db, registry: Registry, divisionId: number): Promise<string | null> {
  let kept = countries.get(registry);
  if (!kept) {
    kept = ttlCache(
      (id: number, reader: Db) => readCountry(reader, registry, id),
      COUNTRY_KEPT_MS,
      Date.now,
      (id) => String(id),
    );
    countries.set(registry, kept);
  }
  return kept(divisionId, db);
}

async function readCountry(db: Db, registry: Registry, divisionId: number): Promise<string | null> {
  const division = (await db
    .selectFrom(registry.require('division').table)
    .select('IdPais')
    .where('IdDivision', '=', divisionId)
    .executeTakeFirst()) as { IdPais: string | null } | undefined;
  return division?.IdPais ?? null;
}

/** The date at a division's site now (its country's time zone): what "today" means for its rules. */
export async function divisionToday(
  db: Db,
  registry: Registry,
  divisionId: number,
  now: number,
): Promise<string> {
  return siteDate(await divisionCountry(db, registry, divisionId), now);
}

/** A client's day at its sites now (its first division's country): when its daily jobs run. */
export async function clientToday(
  db: Db,
  registry: Registry,
  clientId: number,
  now: number,
): Promise<string> {
  const division = (await db
    .selectFrom(registry.require('division').table)
    .select('IdPais')
    .where('IdCliente', '=', clientId)
    .orderBy('IdDivision')
    .executeTakeFirst()) as { IdPais: string | null } | undefined;
  return siteDate(division?.IdPais, now);
}

/** The time zone of a division's site (its country's), for the times its exports write. */
export async function divisionTimeZone(
  db: Db,
  registry: Registry,
  divisionId: number | undefined,
): Promise<string> {
  return timeZoneOf(divisionId === undefined ? undefined : await divisionCountry(db, registry, divisionId));
}

/** A client's currency as its amounts are shown: the ISO code, the symbol and the decimals. */
export interface Currency {
  IdMoneda: string;
  Simbolo: string;
  Decimales: number;
}

/** The client's currency (System > Clients, Currency), or undefined when it names none. */
export async function clientCurrency(
  db: Db,
  registry: Registry,
  clientId: number,
): Promise<Currency | undefined> {
  const row = (await db
    .selectFrom(`${registry.require('client').table} as c`)
    .innerJoin(`${registry.require('currency').table} as m`, 'm.IdMoneda', 'c.IdMoneda')
    .select(['m.IdMoneda', 'm.Simbolo', 'm.Decimales'])
    .where('c.IdCliente', '=', clientId)
    .executeTakeFirst()) as { IdMoneda: string; Simbolo: string; Decimales: number } | undefined;
  return row && { IdMoneda: row.IdMoneda, Simbolo: row.Simbolo, Decimales: Number(row.Decimales) };
}
