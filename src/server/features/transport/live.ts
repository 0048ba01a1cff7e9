import type { OnTheRoad } from '../../../shared/transport.js';
import type { Db } from '../../db/connection.js';
import type { Whereabouts } from '../../whereabouts.js';
import type { FeatureContext } from '../feature.js';
import type { Site } from './fleet.js';
import { nameOf, type Row, type TransportTables, text, transportTables } from './tables.js';
import { tripOfRow, tripsQuery } from './trips.js';

/** A day's trips of the division with their bus's plate, driver and free seats, in their order. */
export async function dayTrips(db: Db, t: TransportTables, site: Site, on: string) {
  const rows = (await tripsQuery(db, t, site)
    .innerJoin(`${t.bus} as b`, 'b.IdBus', 'v.IdBus')
    .innerJoin(`${t.vehicle} as h`, 'h.IdVehiculo', 'b.IdVehiculo')
    .innerJoin(`${t.person} as d`, 'd.IdPersona', 'v.IdConductor')
    .select(['h.Placa', 'd.Apellido', 'd.Nombre'])
    .where('v.Fecha', '=', on)
    .orderBy('v.Hora')
    .orderBy('v.IdViaje')
    .execute()) as Row[];
  return rows.map((r) => {
    const trip = tripOfRow(r);
    return {
      ...trip,
      Placa: text(r.Placa),
      Conductor: nameOf(r),
      Libres: Math.max(0, trip.Asientos - trip.Reservados),
    };
  });
}

/**
 * The live board of a day: every trip of the division with its bus, driver and seats (booked,
 * boarded, free), and who is on the road now: the people boarded on that day's trips that left and
 * have not arrived, by bus.
 */
export async function liveBoard(db: Db, t: TransportTables, site: Site, on: string) {
  const riders = (await riding(db, t, site, on)).map(
    (r): OnTheRoad => ({
      IdPersona: Number(r.IdPersona),
      Persona: nameOf(r),
      Documento: text(r.Documento),
      Compania: text(r.Alias),
      IdViaje: Number(r.IdViaje),
      Placa: text(r.Placa),
      Ruta: text(r.Ruta),
      Asiento: Number(r.Asiento),
    }),
  );
  return { Fecha: on, viajes: await dayTrips(db, t, site, on), enRuta: riders };
}

/**
 * The people boarded on the division's trips that left and have not arrived (of a day's only, when
 * `on` is given; of a company's only, for a contractor), with their trip's bus and route: the live
 * board's road and the roll call's people away read the same rows.
 */
async function riding(
  db: Db,
  t: TransportTables,
  scope: { clientId: number; divisionId: number; companyId?: number },
  on?: string,
) {
  let q = db
    .selectFrom(`${t.booking} as b`)
    .innerJoin(`${t.trip} as v`, 'v.IdViaje', 'b.IdViaje')
    .innerJoin(`${t.route} as r`, 'r.IdRuta', 'v.IdRuta')
    .innerJoin(`${t.bus} as u`, 'u.IdBus', 'v.IdBus')
    .innerJoin(`${t.vehicle} as h`, 'h.IdVehiculo', 'u.IdVehiculo')
    .innerJoin(`${t.person} as p`, 'p.IdPersona', 'b.IdPersona')
    .leftJoin(`${t.company} as m`, 'm.IdCompania', 'b.IdCompania')
    .select([
      'b.IdViaje',
      'b.IdPersona',
      'b.Asiento',
      'p.Documento',
      'p.Apellido',
      'p.Nombre',
      'm.Alias',
      'm.Compania',
      'h.Placa',
      'r.Codigo',
      'r.Descripcion as Ruta',
      'v.Salida',
    ])
    .where('v.IdCliente', '=', scope.clientId)
    .where('v.IdDivision', '=', scope.divisionId)
    .where('v.Estado', '=', 'S')
    .where('b.Estado', '=', 'A');
  if (on !== undefined) q = q.where('v.Fecha', '=', on);
  if (scope.companyId !== undefined) q = q.where('b.IdCompania', '=', scope.companyId);
  return (await q.orderBy('h.Placa').orderBy('b.Asiento').execute()) as Row[];
}

/** The people on the road now (boarded on a trip that left and has not arrived), of a division or a company's. */
export function transportWhereabouts({ registry }: FeatureContext): Whereabouts {
  const t = transportTables(registry);
  return {
    async away(db, scope) {
      return (await riding(db, t, scope)).map((r) => ({
        IdPersona: Number(r.IdPersona),
        Documento: r.Documento == null ? null : text(r.Documento),
        NombreCompleto: nameOf(r),
        Compania: r.Compania == null ? null : text(r.Compania),
        Donde: `${text(r.Placa)} · ${text(r.Codigo)}`,
        Desde: r.Salida ? text(r.Salida) : null,
      }));
    },
  };
}
