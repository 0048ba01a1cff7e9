import { addDays } from '../../../shared/dates.js';
import type { TripDirection, TripFields, TripState } from '../../../shared/transport.js';
import type { Db } from '../../db/connection.js';
import { ApiError } from '../../errors.js';
import type { Site } from './fleet.js';
import { day, type Row, type TransportTables, text } from './tables.js';

/** A trip as the calls read it, with its route's code and name, and where it runs. */
export interface TripRow extends TripFields {
  IdCliente: number;
  IdDivision: number;
}

export const refusal = (key: string, params: Record<string, string | number> = {}) =>
  new ApiError('BUSINESS_RULE', { messageKey: `transport.refusals.${key}`, params });

/** The trips of a division as one select (its route joined), narrowed by the caller. */
export function tripsQuery(db: Db, t: TransportTables, site: Site) {
  return db
    .selectFrom(`${t.trip} as v`)
    .innerJoin(`${t.route} as r`, 'r.IdRuta', 'v.IdRuta')
    .select([
      'v.IdViaje',
      'v.IdCliente',
      'v.IdDivision',
      'v.IdRuta',
      'r.Descripcion as Ruta',
      'r.Codigo as RutaCodigo',
      'v.Fecha',
      'v.Hora',
      'v.Sentido',
      'v.IdBus',
      'v.IdConductor',
      'v.Asientos',
      'v.Reservados',
      'v.Abordados',
      'v.Estado',
      'v.Salida',
      'v.Llegada',
    ])
    .where('v.IdCliente', '=', site.clientId)
    .where('v.IdDivision', '=', site.divisionId);
}

export const tripOfRow = (r: Row): TripRow => ({
  IdViaje: Number(r.IdViaje),
  IdCliente: Number(r.IdCliente),
  IdDivision: Number(r.IdDivision),
  IdRuta: Number(r.IdRuta),
  Ruta: text(r.Ruta),
  RutaCodigo: text(r.RutaCodigo),
  Fecha: day(r.Fecha),
  Hora: text(r.Hora),
  Sentido: text(r.Sentido) as TripDirection,
  IdBus: Number(r.IdBus),
  IdConductor: Number(r.IdConductor),
  Asientos: Number(r.Asientos ?? 0),
  Reservados: Number(r.Reservados ?? 0),
  Abordados: Number(r.Abordados ?? 0),
  Estado: text(r.Estado) as TripState,
  Salida: r.Salida ? text(r.Salida) : null,
  Llegada: r.Llegada ? text(r.Llegada) : null,
});

/** The division's trip, or 404. */
export async function tripOf(db: Db, t: TransportTables, site: Site, id: number): Promise<TripRow> {
  const row = (await tripsQuery(db, t, site).where('v.IdViaje', '=', id).executeTakeFirst()) as
    | Row
    | undefined;
  if (!row) throw new ApiError('NOT_FOUND', { params: { resource: 'trip', id } });
  return tripOfRow(row);
}

/** The division's trips of a period (at most 62 days), oldest first. */
export async function tripsBetween(db: Db, t: TransportTables, site: Site, from: string, to: string) {
  if (to < from || to > addDays(from, 62)) throw refusal('periodTooLong', { days: 62 });
  const rows = (await tripsQuery(db, t, site)
    .where('v.Fecha', '>=', from)
    .where('v.Fecha', '<=', to)
    .orderBy('v.Fecha')
    .orderBy('v.Hora')
    .execute()) as Row[];
  return rows.map(tripOfRow);
}

/** Refuses booking on a trip that is not open to it (departed, arrived, cancelled, or in the past). */
export function requireOpen(trip: TripRow, today: string) {
  if (trip.Estado === 'X') throw refusal('tripCancelled');
  if (trip.Estado === 'S' || trip.Estado === 'L') throw refusal('tripDeparted');
  if (trip.Fecha < today) throw refusal('tripPast');
}
