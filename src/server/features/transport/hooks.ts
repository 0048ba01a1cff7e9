import type { HookMap, Row } from '../../crud/types.js';
import type { Db } from '../../db/connection.js';
import { ApiError } from '../../errors.js';
import type { Registry } from '../../registry.js';
import { divisionToday } from '../../site.js';
import type { FeatureContext } from '../feature.js';
import { checkBus, checkDriver, checkFree, routeOf, type Site } from './fleet.js';
import { day, type TransportTables, text, transportTables } from './tables.js';

const invalid = (field: string, key: string, params: Record<string, string | number> = {}) =>
  new ApiError('VALIDATION_FAILED', {
    fields: { [field]: { messageKey: `transport.rules.${key}`, params } },
  });

/** What of a trip its bookings carry (their date and direction): fixed once a seat is booked. */
const BOOKED_FIELDS = ['IdRuta', 'Fecha', 'Sentido'] as const;

/**
 * A trip as it may be written: not in the past, on an active route, with a bus that may run that day
 * (accredited, its SOAT and inspection in force) and a driver accredited with the licence the bus
 * needs, neither on another trip at that time; its seats are the bus's and never fewer than booked.
 */
export async function checkTrip(
  db: Db,
  registry: Registry,
  t: TransportTables,
  data: Row,
  existing: Row | undefined,
  now: number,
) {
  const site: Site = {
    clientId: Number(data.IdCliente ?? existing?.IdCliente),
    divisionId: Number(data.IdDivision ?? existing?.IdDivision),
  };
  const on = text(data.Fecha).slice(0, 10);
  const moved = !existing || on !== day(existing.Fecha) || text(data.Hora) !== text(existing.Hora);
  if (moved && on < (await divisionToday(db, registry, site.divisionId, now)))
    throw invalid('Fecha', 'tripPast');
  const booked = Number(existing?.Reservados ?? 0);
  if (existing && booked > 0)
    for (const f of BOOKED_FIELDS)
      if (text(data[f]).slice(0, 10) !== text(existing[f]).slice(0, 10))
        throw invalid(f, 'tripBooked', { booked });
  const route = await routeOf(db, t, site, Number(data.IdRuta));
  if (route.Activo !== 'S') throw invalid('IdRuta', 'routeInactive');
  const bus = await checkBus(db, t, site, Number(data.IdBus), on);
  if (bus.Asientos < booked) throw invalid('IdBus', 'busSmall', { seats: bus.Asientos, booked });
  await checkDriver(db, t, site, Number(data.IdConductor), text(bus.Categoria), on);
  await checkFree(db, t, site, {
    Fecha: on,
    Hora: text(data.Hora),
    IdBus: Number(data.IdBus),
    IdConductor: Number(data.IdConductor),
    minutes: route.minutes,
    self: existing ? Number(existing.IdViaje) : undefined,
  });
  return bus;
}

/** A trip's rules beyond its schema (checkTrip); a cancelled or departed trip is changed by its calls only. */
export function transportHooks({ registry, now }: FeatureContext): HookMap {
  const t = transportTables(registry);
  return {
    trip: {
      async beforeWrite({ db, data, existing, operation }) {
        if (existing && existing.Estado !== 'P')
          throw new ApiError('BUSINESS_RULE', { messageKey: 'transport.refusals.tripNotScheduled' });
        const bus = await checkTrip(db, registry, t, data, existing, now());
        data.Asientos = bus.Asientos;
        if (operation === 'create') Object.assign(data, { Reservados: 0, Abordados: 0, Estado: 'P' });
      },
    },
  };
}
