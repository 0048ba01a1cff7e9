import type { Language } from '../../../shared/constants.js';
import type { RouteOccupancy, SeatsOfDay } from '../../../shared/transport.js';
import type { Db } from '../../db/connection.js';
import { t as say } from '../../i18n.js';
import { columnMaker, workbookBase64 } from '../../services/excel.js';
import type { Site } from './fleet.js';
import { inChunks, nameOf, type Row, type TransportTables, text } from './tables.js';
import { type TripRow, tripsBetween } from './trips.js';

const pct = (part: number, whole: number) => (whole ? Math.round((part / whole) * 1000) / 10 : 0);

/**
 * A period's transport (at most 62 days): occupancy per route (trips, seats, booked, boarded, no-shows,
 * the share of seats used) and the seats used per day (booked and boarded, for the chart).
 */
export async function transportReport(db: Db, t: TransportTables, site: Site, from: string, to: string) {
  const trips = (await tripsBetween(db, t, site, from, to)).filter((v) => v.Estado !== 'X');
  const noShows = await noShowsOf(db, t, trips);
  const routes = new Map<number, Omit<RouteOccupancy, 'ocupacion'>>();
  const days = new Map<string, SeatsOfDay>();
  for (const v of trips) {
    const r = routes.get(v.IdRuta) ?? {
      IdRuta: v.IdRuta,
      Ruta: `${v.RutaCodigo} · ${v.Ruta}`,
      viajes: 0,
      asientos: 0,
      reservados: 0,
      abordados: 0,
      noPresentados: 0,
    };
    r.viajes++;
    r.asientos += v.Asientos;
    r.reservados += v.Reservados;
    r.abordados += v.Abordados;
    r.noPresentados += noShows.get(v.IdViaje) ?? 0;
    routes.set(v.IdRuta, r);
    const d = days.get(v.Fecha) ?? { Fecha: v.Fecha, asientos: 0, reservados: 0, abordados: 0 };
    d.asientos += v.Asientos;
    d.reservados += v.Reservados;
    d.abordados += v.Abordados;
    days.set(v.Fecha, d);
  }
  return {
    desde: from,
    hasta: to,
    rutas: [...routes.values()].map((r) => ({ ...r, ocupacion: pct(r.reservados, r.asientos) })),
    dias: [...days.values()].sort((a, b) => a.Fecha.localeCompare(b.Fecha)),
  };
}

/** The no-shows of each trip. */
async function noShowsOf(db: Db, t: TransportTables, trips: TripRow[]) {
  const rows = (await inChunks(
    trips.map((v) => v.IdViaje),
    (chunk) =>
      db
        .selectFrom(t.booking)
        .select(['IdViaje'])
        .where('IdViaje', 'in', chunk)
        .where('Estado', '=', 'N')
        .execute(),
  )) as Row[];
  const out = new Map<number, number>();
  for (const r of rows) out.set(Number(r.IdViaje), (out.get(Number(r.IdViaje)) ?? 0) + 1);
  return out;
}

/** Every trip of a period with its bus, driver and seats as an Excel workbook, in the reader's language. */
export async function tripsWorkbook(
  db: Db,
  t: TransportTables,
  site: Site,
  from: string,
  to: string,
  language: Language,
) {
  const trips = await tripsBetween(db, t, site, from, to);
  const crews = (await inChunks(
    trips.map((v) => v.IdViaje),
    (chunk) =>
      db
        .selectFrom(`${t.trip} as v`)
        .innerJoin(`${t.bus} as b`, 'b.IdBus', 'v.IdBus')
        .innerJoin(`${t.vehicle} as h`, 'h.IdVehiculo', 'b.IdVehiculo')
        .innerJoin(`${t.person} as d`, 'd.IdPersona', 'v.IdConductor')
        .select(['v.IdViaje', 'h.Placa', 'd.Apellido', 'd.Nombre'])
        .where('v.IdViaje', 'in', chunk)
        .execute(),
  )) as Row[];
  const crew = new Map(crews.map((r) => [Number(r.IdViaje), r]));
  const col = columnMaker(language, 'transport.report.columns');
  const columns = [
    col('Fecha', 'date', 12),
    col('Hora', 'text', 8),
    col('Ruta', 'text', 36, (r) => `${r.RutaCodigo} · ${r.Ruta}`),
    col('Sentido', 'text', 10, (r) => say(language, `enums.tripDirection.${r.Sentido}`)),
    col('Placa', 'text', 10, (r) => text(crew.get(Number(r.IdViaje))?.Placa)),
    col('Conductor', 'text', 30, (r) => nameOf(crew.get(Number(r.IdViaje)) ?? {})),
    col('Asientos', 'number', 9),
    col('Reservados', 'number', 10),
    col('Abordados', 'number', 10),
    col('Estado', 'text', 12, (r) => say(language, `enums.tripState.${r.Estado}`)),
  ];
  return {
    fileBase64: await workbookBase64(columns, trips as unknown as Row[], `${from} – ${to}`),
    fileName: `viajes ${from} ${to}.xlsx`,
  };
}
