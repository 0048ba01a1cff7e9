import type { AccreditationListeners } from '../../events.js';
import type { Registry } from '../../registry.js';
import { divisionToday } from '../../site.js';
import { endStays } from './releases.js';

/**
 * Lodging's part of an ended accreditation: a worker with no other active accreditation in the
 * division is checked out of the division's camps, and what was still to come is released.
 */
export function hotelListeners(registry: Registry, now: () => number): AccreditationListeners {
  return {
    async ended(trx, event) {
      const { accreditation } = event;
      if (!event.lastInDivision || accreditation.IdPersona === null) return [];
      const stays = await endStays(trx, registry, {
        clientId: accreditation.IdCliente,
        divisionId: accreditation.IdDivision,
        personId: accreditation.IdPersona,
        userId: event.principal.userId,
        today: await divisionToday(trx, registry, accreditation.IdDivision, now()),
        at: event.at,
      });
      return stays.map((stay) => ({
        resource: 'reservation',
        id: stay.IdReserva,
        description: stay.Descripcion,
      }));
    },
  };
}
