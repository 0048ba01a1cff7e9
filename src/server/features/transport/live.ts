import type { OnTheRoad } from '../../../shared/transport.js';
import type { Db } from '../../db/connection.js';
import type { Whereabouts } from '../../whereabouts.js';
import type { FeatureContext } from '../feature.js';
import type { Site } from './fleet.js';
import { inChunks, nameOf, type Row, type TransportTables, text, transportTables } from './tables.js';
import { tripOfRow, tripsQuery } from './trips.js';

/**
 * The live board of a day: every trip of the division with its bus, driver and seats (booked,
 * boarded, free), and who is on the road now: the people boarded on the trips that left and have
 * not arrived, by bus.
 */
export async function liveBoard(db: Db, t: TransportTables, site: Site, on: string) {
  const rows = (await tripsQuery(db, t, site)
    .innerJoin(`${t.bus} as b`, 'b.IdBus', 'v.IdBus')
    .innerJoin(`${t.vehicle} as h`, 'h.IdVehiculo', 'b.IdVehiculo')
    .innerJoin(`${t.person} as d`, 'd.IdPersona', 'v.IdConductor')
    .select(['h.Placa', 'd.Apellido', 'd.Nombre'])
    .where('v.Fecha', '=', on)
    .orderBy('v.Hora')
    .orderBy('v.IdViaje')
    .execute()) as Row[];
  const trips = rows.map((r) => {
    const trip = tripOfRow(r);
    return {
      ...trip,
      Placa: text(r.Placa),
      Conductor: nameOf(r),
      Libres: Math.max(0, trip.Asientos - trip.Reservados),
    };
  });
  const moving = trips.filter((v) => v.Estado === 'S').map((v) => v.IdViaje);
  return { Fecha: on, viajes: trips, enRuta: await onTheRoad(db, t, moving, trips) };
}

/** The people boarded on these trips, with their bus. */
async function onTheRoad(
  db: Db,
  t: TransportTables,
  tripIds: number[],
  trips: Array<{ IdViaje: number; Placa: string; Ruta: string }>,
): Promise<OnTheRoad[]> {
  const rows = (await inChunks(tripIds, (chunk) =>
    db
      .selectFrom(`${t.booking} as b`)
      .innerJoin(`${t.person} as p`, 'p.IdPersona', 'b.IdPersona')
      .leftJoin(`${t.company} as m`, 'm.IdCompania', 'b.IdCompania')
      .select(['b.IdViaje', 'b.IdPersona', 'b.Asiento', 'p.Documento', 'p.Apellido', 'p.Nombre', 'm.Alias'])
      .where('b.IdViaje', 'in', chunk)
      .where('b.Estado', '=', 'A')
      .execute(),
  )) as Row[];
  const byTrip = new Map(trips.map((v) => [v.IdViaje, v]));
  return rows
    .map((r) => ({
      IdPersona: Number(r.IdPersona),
      Persona: nameOf(r),
      Documento: text(r.Documento),
      Compania: text(r.Alias),
      IdViaje: Number(r.IdViaje),
      Placa: byTrip.get(Number(r.IdViaje))?.Placa ?? '',
      Ruta: byTrip.get(Number(r.IdViaje))?.Ruta ?? '',
      Asiento: Number(r.Asiento),
    }))
    .sort((a, b) => a.Placa.localeCompare(b.Placa) || a.Asiento - b.Asiento);
}

/** The people on the road now (boarded on a trip that left and has not arrived), of a division or a company's. */
export function transportWhereabouts({ registry }: FeatureContext): Whereabouts {
  const t = transportTables(registry);
  return {
    async away(db, scope) {
      let q = db
        .selectFrom(`${t.booking} as b`)
        .innerJoin(`${t.trip} as v`, 'v.IdViaje', 'b.IdViaje')
        .innerJoin(`${t.route} as r`, 'r.IdRuta', 'v.IdRuta')
        .innerJoin(`${t.bus} as u`, 'u.IdBus', 'v.IdBus')
        .innerJoin(`${t.vehicle} as h`, 'h.IdVehiculo', 'u.IdVehiculo')
        .innerJoin(`${t.person} as p`, 'p.IdPersona', 'b.IdPersona')
        .leftJoin(`${t.company} as m`, 'm.IdCompania', 'b.IdCompania')
        .select([
          'b.IdPersona',
          'p.Documento',
          'p.Apellido',
          'p.Nombre',
          'm.Compania',
          'h.Placa',
          'r.Codigo',
          'v.Salida',
        ])
        .where('v.IdCliente', '=', scope.clientId)
        .where('v.IdDivision', '=', scope.divisionId)
        .where('v.Estado', '=', 'S')
        .where('b.Estado', '=', 'A');
      if (scope.companyId !== undefined) q = q.where('b.IdCompania', '=', scope.companyId);
      return ((await q.orderBy('h.Placa').execute()) as Row[]).map((r) => ({
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
