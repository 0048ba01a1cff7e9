import type { FastifyInstance } from 'fastify';
import { addDays, siteDate } from '../../../shared/dates.js';
import { departureOn } from '../../../shared/hotel.js';
import { dmy } from '../../../shared/request-dates.js';
import type { Db } from '../../db/connection.js';
import { pollEachClient } from '../../jobs/poller.js';
import type { Registry } from '../../registry.js';

/** The release's name in the lease table. */
export const RELEASE_JOB = 'LIBERAR_RESERVAS';

type Row = Record<string, unknown>;

/**
 * Releases the reservations of a client nobody checked in in time (spec section 3 Hotel/camp:
 * release reservation flag, days to release): in a camp whose flag is on, a reservation still
 * reserved after its first day plus the camp's days to release (at the camp's division's date) is
 * released, its nights freed. Answers how many were released.
 */
export async function releaseLapsed(
  db: Db,
  registry: Registry,
  clientId: number,
  now: number,
): Promise<number> {
  const table = (name: string) => registry.require(name).table;
  const camps = (await db
    .selectFrom(`${table('camp')} as c`)
    .innerJoin(`${table('division')} as d`, 'd.IdDivision', 'c.IdDivision')
    .select(['c.IdCampamento', 'c.DiasLiberarReserva', 'd.IdPais'])
    .where('c.IdCliente', '=', clientId)
    .where('c.LiberarReserva', '=', 'S')
    .where('c.DiasLiberarReserva', '>', 0)
    .execute()) as Row[];
  let released = 0;
  for (const camp of camps) {
    // Reserved for a first day on or before this one, and not checked in: the release is due.
    const lastFirstDay = addDays(
      siteDate(camp.IdPais as string | null, now),
      -Number(camp.DiasLiberarReserva) - 1,
    );
    released += await db.transaction().execute(async (trx) => {
      const due = (await trx
        .selectFrom(table('reservation'))
        .select('IdReserva')
        .where('IdCampamento', '=', Number(camp.IdCampamento))
        .where('Estado', '=', 'R')
        .where('FechaInicio', '<=', lastFirstDay)
        .execute()) as Array<{ IdReserva: number }>;
      if (!due.length) return 0;
      const ids = due.map((d) => Number(d.IdReserva));
      for (let i = 0; i < ids.length; i += 500) {
        const chunk = ids.slice(i, i + 500);
        await trx.deleteFrom(table('bed-night')).where('IdReserva', 'in', chunk).execute();
        await trx
          .updateTable(table('reservation'))
          .set({
            Estado: 'L',
            IdUsuarioModificacion: 'SISTEMA',
            FechaModificacion: new Date(now).toISOString(),
          })
          .where('IdReserva', 'in', chunk)
          .where('Estado', '=', 'R')
          .execute();
      }
      return ids.length;
    });
  }
  return released;
}

/**
 * The release in the background: every poll, each client's release is run by whichever process
 * takes its lease (jobs/leases.ts), so with several processes on one database it runs once at a time.
 */
export function releaseSchedule(fastify: FastifyInstance, now: () => number = Date.now): void {
  pollEachClient(
    fastify,
    RELEASE_JOB,
    (client) => releaseLapsed(fastify.database.db, fastify.registry, client, now()),
    'lapsed reservations released',
  );
}

/** A stay a demobilisation ended, for its revocation record. */
export interface EndedStay {
  IdReserva: number;
  Descripcion: string;
}

/**
 * What a demobilisation's approval does to a person's lodging in the division, in its
 * transaction: a stay checked in is checked out today, and every reservation still to come is
 * cancelled, their nights from today on freed. Answers each reservation ended.
 */
export async function endStays(
  trx: Db,
  registry: Registry,
  who: { clientId: number; divisionId: number; personId: number; userId: string; today: string; at: string },
): Promise<EndedStay[]> {
  const table = (name: string) => registry.require(name).table;
  const rows = (await trx
    .selectFrom(`${table('reservation')} as s`)
    .innerJoin(`${table('bed')} as b`, 'b.IdCama', 's.IdCama')
    .innerJoin(`${table('camp')} as c`, 'c.IdCampamento', 's.IdCampamento')
    .select([
      's.IdReserva',
      's.Estado',
      's.FechaInicio',
      's.FechaFin',
      'b.Codigo',
      'c.Descripcion as Campamento',
    ])
    .where('s.IdCliente', '=', who.clientId)
    .where('s.IdDivision', '=', who.divisionId)
    .where('s.IdPersona', '=', who.personId)
    .where('s.Estado', 'in', ['R', 'I'])
    .orderBy('s.IdReserva')
    .execute()) as Row[];
  const ended: EndedStay[] = [];
  for (const row of rows) {
    const id = Number(row.IdReserva);
    const from = String(row.FechaInicio).slice(0, 10);
    const to = String(row.FechaFin).slice(0, 10);
    await trx
      .deleteFrom(table('bed-night'))
      .where('IdReserva', '=', id)
      .where('Fecha', '>=', who.today)
      .execute();
    const change: Row =
      row.Estado === 'I'
        ? {
            Estado: 'S',
            FechaSalidaReal: who.at,
            FechaFin: departureOn(from, to, who.today),
          }
        : { Estado: 'A' };
    await trx
      .updateTable(table('reservation'))
      .set({ ...change, IdUsuarioModificacion: who.userId, FechaModificacion: who.at })
      .where('IdReserva', '=', id)
      .execute();
    ended.push({ IdReserva: id, Descripcion: `${row.Campamento} ${row.Codigo} ${dmy(from)}–${dmy(to)}` });
  }
  return ended;
}
