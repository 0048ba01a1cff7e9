import { sql } from 'kysely';
import type { Db } from '../db/connection.js';
import { AUTH_TABLES } from './tables.js';

export interface ThrottleLimits {
  /** Sign-in attempts one user name may get per window. */
  perUser: number;
  /** Sign-in attempts one client address may make per window. */
  perAddress: number;
  windowMs: number;
}

export const DEFAULT_THROTTLE: ThrottleLimits = { perUser: 10, perAddress: 30, windowMs: 60_000 };

/**
 * Counts a try against a key in a fixed window kept in the database (so every server process
 * shares it); false once the key is over its limit. Runs before any password hash is computed.
 */
export async function allow(
  db: Db,
  key: string,
  limit: number,
  windowMs: number,
  now: number,
): Promise<boolean> {
  const t = AUTH_TABLES.throttle;
  const stale = now - windowMs;
  const row = (await db
    .insertInto(t)
    .values({ Clave: key, Ventana: now, Cuenta: 1 })
    .onConflict((oc) =>
      oc.column('Clave').doUpdateSet({
        Cuenta: sql`case when ${sql.ref(`${t}.Ventana`)} <= ${stale} then 1 else ${sql.ref(`${t}.Cuenta`)} + 1 end`,
        Ventana: sql`case when ${sql.ref(`${t}.Ventana`)} <= ${stale} then ${now} else ${sql.ref(`${t}.Ventana`)} end`,
      }),
    )
    .returning('Cuenta')
    .executeTakeFirstOrThrow()) as { Cuenta: number };
  return Number(row.Cuenta) <= limit;
}
