import { sql } from 'kysely';
import type { Creator, Db } from '../../db/connection.js';

/**
 * Site access's own tables beside the entity tables:
 * - device keys: one row per key issued to an equipment, only its SHA-256 hash kept; a rotated or
 *   revoked key keeps its row with the instant it stopped working;
 * - presence: the last allowed marking of each person or vehicle in each division (holder "P:<id>" or
 *   "V:<id>"), moved in the marking's transaction, so headcount reads one row per holder instead of
 *   scanning markings;
 * - the Ed25519 key pair that signs the offline allow-lists (made once, like the auth secret), and the
 *   allow-list versions each control point has been served, so a gate asks only for the changes;
 * - enrolment codes: one-time codes an equipment's screen shows in a QR, exchanged by the gate app for
 *   a device key; only their SHA-256 hash kept, with when they expire and when they were used;
 * - the marking's device identity (equipment + the device's own sequence or UUID) is unique, which
 *   makes a resent batch add nothing.
 * - marked days: each person's local days with a new allowed marking, a version moved on by each one,
 *   written in the marking's transaction; what derives from markings (attendance) takes them from
 *   there, recomputes, and removes a day only at the version it read (so a marking that arrived
 *   meanwhile is never lost).
 * Instants are epoch milliseconds, compared alike on both dialects.
 */
export const ACCESS_TABLES = {
  deviceKey: 'access_device_key',
  presence: 'access_presence',
  marking: 'access_marking',
  signingKey: 'access_signing_key',
  allowList: 'access_allow_list',
  enrolment: 'access_enrolment_code',
  markedDay: 'access_marked_day',
} as const;

/**
 * Notes the local days of newly written allowed markings of people (in the marking's transaction):
 * each (person, day) once, its version moved on if already there.
 */
export async function noteMarkedDays(
  trx: Db,
  rows: Array<{ IdPersona?: unknown; Fecha?: unknown; IdCliente?: unknown; Resultado?: unknown }>,
): Promise<void> {
  const sorted = markedDays(rows);
  for (let i = 0; i < sorted.length; i += 200)
    await markedDaysUpsert(trx, sorted.slice(i, i + 200)).execute();
}

export type MarkedDay = { IdPersona: number; Fecha: string; IdCliente: number };

/**
 * The days these markings mark (a person let through), once each, in a stable order: two
 * transactions never wait on each other's rows the other way round.
 */
export function markedDays(
  rows: Array<{ IdPersona?: unknown; Fecha?: unknown; IdCliente?: unknown; Resultado?: unknown }>,
): MarkedDay[] {
  const days = new Map<string, MarkedDay>();
  for (const row of rows) {
    if (row.Resultado !== 'P' || row.IdPersona == null || !row.Fecha) continue;
    const IdPersona = Number(row.IdPersona);
    const Fecha = String(row.Fecha).slice(0, 10);
    days.set(`${IdPersona}|${Fecha}`, { IdPersona, Fecha, IdCliente: Number(row.IdCliente) });
  }
  return [...days.values()].sort((a, b) => a.IdPersona - b.IdPersona || a.Fecha.localeCompare(b.Fecha));
}

/** The upsert that notes marked days (a new version of a day already noted), on a database or in a `with`. */
export function markedDaysUpsert(qc: Creator, days: MarkedDay[]) {
  return qc
    .insertInto(ACCESS_TABLES.markedDay)
    .values(days.map((d) => ({ ...d, Version: 1 })))
    .onConflict((oc) =>
      oc
        .columns(['IdPersona', 'Fecha'])
        .doUpdateSet({ Version: sql`${sql.ref(`${ACCESS_TABLES.markedDay}.Version`)} + 1` }),
    );
}
