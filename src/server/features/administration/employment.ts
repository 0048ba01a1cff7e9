/**
 * A person's employments (`person-employment`): a person is registered once per client and
 * document, and works for one company at a time, after others. The rows are written here, in the
 * person's own write's transaction, as its company and condition change:
 * - a person registered opens an employment with its company (unless registered ceased or free);
 * - ceased (Condicion C) or freed (L), the open employment ends on the cessation date;
 * - registered again by another company once ceased or free (the create is a move: `claimOf`),
 *   or given another company, the open one ends and one with the new company opens;
 * - reinstated by the same company, a new one opens.
 * People registered before employments were kept get theirs when a server starts (`backfill`).
 */

import { sql } from 'kysely';
import type { Row } from '../../crud/types.js';
import type { Database, Db } from '../../db/connection.js';
import { ApiError } from '../../errors.js';
import type { Principal } from '../../principal.js';
import type { Registry } from '../../registry.js';
import { divisionToday } from '../../site.js';

/** Conditions of a person who works for no company now: ceased, free. */
const UNEMPLOYED = new Set(['C', 'L']);

const todayOf = (db: Db, registry: Registry, principal: Principal) =>
  principal.divisionId === undefined
    ? Promise.resolve(new Date().toISOString().slice(0, 10))
    : divisionToday(db, registry, principal.divisionId, Date.now());

/**
 * The person a create takes over: one of the client with the same document, registered by
 * another company, ceased or free now. Nothing when there is none, or it is the company's own
 * (the uniqueness rule answers that); refused, without a word of what the other company
 * recorded, when the person still works for another company.
 */
export async function claimOf(db: Db, registry: Registry, data: Row): Promise<number | undefined> {
  if (data.IdCliente === undefined || data.IdTipoDocumento === undefined || data.Documento === undefined)
    return undefined;
  const found = (await db
    .selectFrom(registry.require('person').table)
    .select(['IdPersona', 'IdCompania', 'Condicion'])
    .where('IdCliente', '=', data.IdCliente as number)
    .where('IdTipoDocumento', '=', data.IdTipoDocumento as number)
    .where('Documento', '=', data.Documento as string)
    .executeTakeFirst()) as { IdPersona: number; IdCompania: number; Condicion: string } | undefined;
  if (!found || found.IdCompania === data.IdCompania) return undefined;
  if (!UNEMPLOYED.has(found.Condicion))
    throw new ApiError('BUSINESS_RULE', {
      messageKey: 'rules.personEmployedElsewhere',
      fields: { Documento: { messageKey: 'rules.personEmployedElsewhere' } },
    });
  return found.IdPersona;
}

/** The employment rows a person's write makes: `existing` before it (none for a new person), `row` after. */
export async function recordEmployment(
  db: Db,
  registry: Registry,
  principal: Principal,
  row: Row,
  existing?: Row,
): Promise<void> {
  const table = registry.require('person-employment').table;
  const employed = (person?: Row) => person !== undefined && !UNEMPLOYED.has(String(person.Condicion));
  const moved = existing !== undefined && existing.IdCompania !== row.IdCompania;
  const was = employed(existing) && !moved;
  const is = employed(row);
  if (was === is && !moved) return;
  const now = new Date().toISOString();
  // A new person has no employment yet; one written before has its open one, if any.
  const open = existing
    ? ((await db
        .selectFrom(table)
        .select(['IdEmpleo', 'FechaInicio'])
        .where('IdPersona', '=', row.IdPersona as number)
        .where('Vigente', '=', 'S')
        .executeTakeFirst()) as { IdEmpleo: number; FechaInicio: string } | undefined)
    : undefined;
  // The open employment ends: on the cessation date when there is one, else today.
  if (open && (!is || moved)) {
    const ceased = typeof existing?.FechaCese === 'string' ? existing.FechaCese : undefined;
    const end = [ceased ?? (await todayOf(db, registry, principal)), open.FechaInicio].sort()[1];
    await db
      .updateTable(table)
      .set({ Vigente: 'N', FechaFin: end, IdUsuarioModificacion: principal.userId, FechaModificacion: now })
      .where('IdEmpleo', '=', open.IdEmpleo)
      .execute();
  }
  if (is && (moved || !was || !open))
    await db
      .insertInto(table)
      .values({
        IdCliente: row.IdCliente,
        IdPersona: row.IdPersona,
        IdCompania: row.IdCompania,
        // A new person's employment starts on their start date; a move or a reinstatement today.
        FechaInicio:
          !existing && typeof row.FechaInicio === 'string'
            ? row.FechaInicio
            : await todayOf(db, registry, principal),
        Vigente: 'S',
        IdUsuarioCreacion: principal.userId,
        FechaCreacion: now,
      })
      .execute();
}

/**
 * Gives every person who has no employment row one (people registered before employments were
 * kept): from their start date (else their registration's), open unless they are ceased or free,
 * then ended on their cessation date. In one transaction; on PostgreSQL under a lock, so that
 * servers starting together on one database write each row once.
 */
export async function backfill(database: Database, registry: Registry): Promise<void> {
  const people = registry.require('person').table;
  const table = registry.require('person-employment').table;
  await database.db.transaction().execute(async (trx) => {
    if (database.dialect === 'postgres')
      await sql`select pg_advisory_xact_lock(${BACKFILL_LOCK})`.execute(trx);
    const missing = (await trx
      .selectFrom(`${people} as p`)
      .select([
        'p.IdPersona',
        'p.IdCliente',
        'p.IdCompania',
        'p.Condicion',
        'p.FechaInicio',
        'p.FechaCese',
        'p.FechaCreacion',
      ])
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom(`${table} as e`).select('e.IdEmpleo').whereRef('e.IdPersona', '=', 'p.IdPersona'),
          ),
        ),
      )
      .execute()) as Row[];
    const now = new Date().toISOString();
    const day = (value: unknown) =>
      (value instanceof Date ? value.toISOString() : String(value)).slice(0, 10);
    // A thousand a statement: a database of a hundred thousand people is ready in seconds.
    const rows = missing.map((person) => {
      const start = day(person.FechaInicio ?? person.FechaCreacion ?? now);
      const open = !UNEMPLOYED.has(String(person.Condicion));
      return {
        IdCliente: person.IdCliente,
        IdPersona: person.IdPersona,
        IdCompania: person.IdCompania,
        FechaInicio: start,
        FechaFin: open ? null : [day(person.FechaCese ?? now), start].sort()[1],
        Vigente: open ? 'S' : 'N',
        IdUsuarioCreacion: 'SISTEMA',
        FechaCreacion: now,
      };
    });
    for (let i = 0; i < rows.length; i += 1000)
      await trx
        .insertInto(table)
        .values(rows.slice(i, i + 1000))
        .execute();
  });
}

/** The PostgreSQL advisory lock the backfill holds (any number no other lock of the product uses). */
const BACKFILL_LOCK = 7_301_001;
