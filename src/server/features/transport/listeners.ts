import type { AccreditationListeners, Revocation } from '../../events.js';
import type { FeatureContext } from '../feature.js';
import { release } from './bookings.js';
import { type Row, transportTables } from './tables.js';

/** The reason a released seat carries when its passenger was demobilised. */
export const DEMOBILISED = 'DESMOVILIZACION';

/**
 * A person's accreditation ended: their seats on trips of the division after the day it ends that have
 * not left yet are released (the coordinator sees who lost a seat and why), in the deciding transaction.
 */
export function transportListeners({ registry }: FeatureContext): AccreditationListeners {
  const t = transportTables(registry);
  return {
    async ended(trx, { accreditation, date, lastInDivision }): Promise<Revocation[]> {
      if (accreditation.IdPersona === null || !lastInDivision) return [];
      const rows = (await trx
        .selectFrom(`${t.booking} as b`)
        .innerJoin(`${t.trip} as v`, 'v.IdViaje', 'b.IdViaje')
        .select(['b.IdReserva', 'v.Fecha', 'v.Hora'])
        .where('b.IdCliente', '=', accreditation.IdCliente)
        .where('b.IdDivision', '=', accreditation.IdDivision)
        .where('b.IdPersona', '=', accreditation.IdPersona)
        .where('b.Estado', '=', 'R')
        .where('b.Fecha', '>', date)
        .where('v.Estado', 'in', ['P', 'E'])
        .execute()) as Row[];
      await release(
        trx,
        t,
        rows.map((r) => Number(r.IdReserva)),
        DEMOBILISED,
      );
      return rows.map((r) => ({
        resource: 'trip-booking',
        id: Number(r.IdReserva),
        description: `${String(r.Fecha).slice(0, 10)} ${String(r.Hora)}`,
      }));
    },
  };
}
