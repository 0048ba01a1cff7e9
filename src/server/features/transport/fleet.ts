import { addDays } from '../../../shared/dates.js';
import { licenceHolds, routeMinutes, spansMeet, tripSpan } from '../../../shared/transport.js';
import type { Db } from '../../db/connection.js';
import { ApiError } from '../../errors.js';
import { day, nameOf, type Row, type TransportTables, text } from './tables.js';

/** Where a trip runs: the client's division. */
export interface Site {
  clientId: number;
  divisionId: number;
}

const invalid = (field: string, key: string, params: Record<string, string | number> = {}) =>
  new ApiError('VALIDATION_FAILED', {
    fields: { [field]: { messageKey: `transport.rules.${key}`, params } },
  });

/** The accreditation of a person or vehicle in force in the division on a day, or undefined. */
export async function holderAccredited(
  db: Db,
  t: TransportTables,
  site: Site,
  holder: { IdPersona: number } | { IdVehiculo: number },
  on: string,
) {
  const [column, id] =
    'IdPersona' in holder ? ['IdPersona', holder.IdPersona] : ['IdVehiculo', holder.IdVehiculo];
  return (await db
    .selectFrom(t.accreditation)
    .select(['IdAcreditacion', 'IdCompania', 'FechaInicio', 'FechaFin'])
    .where('IdCliente', '=', site.clientId)
    .where('IdDivision', '=', site.divisionId)
    .where(column, '=', id)
    .where('Estado', '=', 'A')
    .where('FechaInicio', '<=', on)
    .where((eb) => eb.or([eb('FechaFin', 'is', null), eb('FechaFin', '>=', on)]))
    .orderBy('FechaFin', 'desc')
    .executeTakeFirst()) as Row | undefined;
}

/** A bus of the division with its vehicle's plate and the licence class it needs, or a field error. */
export async function busOf(db: Db, t: TransportTables, site: Site, busId: number) {
  const bus = (await db
    .selectFrom(`${t.bus} as b`)
    .innerJoin(`${t.vehicle} as v`, 'v.IdVehiculo', 'b.IdVehiculo')
    .leftJoin(`${t.licence} as l`, 'l.IdLicenciaConducir', 'b.IdLicenciaConducir')
    .select(['b.IdBus', 'b.IdVehiculo', 'b.Asientos', 'b.Activo', 'v.Placa', 'l.Categoria'])
    .where('b.IdBus', '=', busId)
    .where('b.IdCliente', '=', site.clientId)
    .where('b.IdDivision', '=', site.divisionId)
    .executeTakeFirst()) as Row | undefined;
  if (!bus) throw invalid('IdBus', 'busUnknown');
  return {
    IdVehiculo: Number(bus.IdVehiculo),
    Asientos: Number(bus.Asientos),
    Placa: text(bus.Placa),
    Activo: text(bus.Activo),
    Categoria: text(bus.Categoria),
  };
}

/**
 * Refuses a bus a trip on `on` cannot take: inactive, its vehicle not accredited in the division that
 * day, or one of its accredited requirements (SOAT, technical inspection) expired by then.
 */
export async function checkBus(db: Db, t: TransportTables, site: Site, busId: number, on: string) {
  const bus = await busOf(db, t, site, busId);
  if (bus.Activo !== 'S') throw invalid('IdBus', 'busInactive', { plate: bus.Placa });
  if (!(await holderAccredited(db, t, site, { IdVehiculo: bus.IdVehiculo }, on)))
    throw invalid('IdBus', 'busNotAccredited', { plate: bus.Placa, date: on });
  const expired = await expiredRequirement(db, t, site, bus.IdVehiculo, on);
  if (expired) throw invalid('IdBus', 'busRequirementExpired', { plate: bus.Placa, ...expired });
  return bus;
}

/** The first of a vehicle's requirements whose latest approved value expired before `on`. */
async function expiredRequirement(db: Db, t: TransportTables, site: Site, vehicleId: number, on: string) {
  const rows = (await db
    .selectFrom(`${t.accredited} as a`)
    .innerJoin(`${t.requirement} as r`, 'r.IdRequisito', 'a.IdRequisito')
    .select(['a.IdRequisito', 'a.FechaVencimiento', 'r.Requisito'])
    .where('a.IdCliente', '=', site.clientId)
    .where('a.IdVehiculo', '=', vehicleId)
    .execute()) as Row[];
  const latest = new Map<number, { requirement: string; until: string | null }>();
  for (const r of rows) {
    const until = r.FechaVencimiento ? day(r.FechaVencimiento) : null;
    const before = latest.get(Number(r.IdRequisito));
    if (!before || (before.until !== null && (until === null || until > before.until)))
      latest.set(Number(r.IdRequisito), { requirement: text(r.Requisito), until });
  }
  const expired = [...latest.values()]
    .filter((r) => r.until !== null && r.until < on)
    .sort((a, b) => String(a.until).localeCompare(String(b.until)))[0];
  return expired ? { requirement: expired.requirement, expired: String(expired.until) } : undefined;
}

/** Refuses a driver not accredited in the division on `on`, or whose licence class does not hold the bus's. */
export async function checkDriver(
  db: Db,
  t: TransportTables,
  site: Site,
  personId: number,
  needed: string,
  on: string,
) {
  const person = (await db
    .selectFrom(`${t.person} as p`)
    .leftJoin(`${t.licence} as l`, 'l.IdLicenciaConducir', 'p.IdLicenciaConducir')
    .select(['p.IdPersona', 'p.Apellido', 'p.Nombre', 'l.Categoria'])
    .where('p.IdPersona', '=', personId)
    .where('p.IdCliente', '=', site.clientId)
    .executeTakeFirst()) as Row | undefined;
  if (!person) throw invalid('IdConductor', 'driverUnknown');
  const name = nameOf(person);
  if (!(await holderAccredited(db, t, site, { IdPersona: personId }, on)))
    throw invalid('IdConductor', 'driverNotAccredited', { name, date: on });
  const held = person.Categoria ? text(person.Categoria) : null;
  if (!licenceHolds(held, needed))
    throw invalid('IdConductor', 'driverLicence', { name, needed, held: held ?? '—' });
}

/** A route of the division with its planned minutes, or a field error. */
export async function routeOf(db: Db, t: TransportTables, site: Site, routeId: number) {
  const route = (await db
    .selectFrom(t.route)
    .select(['IdRuta', 'Codigo', 'Descripcion', 'Activo'])
    .where('IdRuta', '=', routeId)
    .where('IdCliente', '=', site.clientId)
    .where('IdDivision', '=', site.divisionId)
    .executeTakeFirst()) as Row | undefined;
  if (!route) throw invalid('IdRuta', 'routeUnknown');
  const stops = (await db
    .selectFrom(t.stop)
    .select(['MinutosDesdeAnterior'])
    .where('IdRuta', '=', routeId)
    .execute()) as Array<{ MinutosDesdeAnterior: number }>;
  return { Activo: text(route.Activo), minutes: routeMinutes(stops) };
}

/** The planned minutes of every route of the division, by route. */
export async function routeMinutesOf(db: Db, t: TransportTables, site: Site): Promise<Map<number, number>> {
  const stops = (await db
    .selectFrom(t.stop)
    .select(['IdRuta', 'MinutosDesdeAnterior'])
    .where('IdCliente', '=', site.clientId)
    .where('IdDivision', '=', site.divisionId)
    .execute()) as Row[];
  const minutes = new Map<number, number>();
  for (const s of stops)
    minutes.set(Number(s.IdRuta), (minutes.get(Number(s.IdRuta)) ?? 0) + Number(s.MinutosDesdeAnterior ?? 0));
  return minutes;
}

/** Refuses a bus or driver already on a live trip whose time meets this one's (another trip than `self`). */
export async function checkFree(
  db: Db,
  t: TransportTables,
  site: Site,
  trip: { Fecha: string; Hora: string; IdBus: number; IdConductor: number; minutes: number; self?: number },
) {
  let query = db
    .selectFrom(t.trip)
    .select(['IdViaje', 'IdRuta', 'Fecha', 'Hora', 'IdBus', 'IdConductor'])
    .where('IdCliente', '=', site.clientId)
    .where('Fecha', '>=', addDays(trip.Fecha, -1))
    .where('Fecha', '<=', addDays(trip.Fecha, 1))
    .where('Estado', 'in', ['P', 'E', 'S'])
    .where((eb) => eb.or([eb('IdBus', '=', trip.IdBus), eb('IdConductor', '=', trip.IdConductor)]));
  if (trip.self !== undefined) query = query.where('IdViaje', '<>', trip.self);
  const others = (await query.execute()) as Row[];
  if (!others.length) return;
  const minutes = await routeMinutesOf(db, t, site);
  const mine = tripSpan(trip.Fecha, trip.Hora, trip.minutes);
  for (const o of others) {
    const span = tripSpan(day(o.Fecha), text(o.Hora), minutes.get(Number(o.IdRuta)) ?? 0);
    if (!spansMeet(mine, span)) continue;
    const field = Number(o.IdBus) === trip.IdBus ? 'IdBus' : 'IdConductor';
    throw invalid(field, field === 'IdBus' ? 'busBusy' : 'driverBusy', {
      date: day(o.Fecha),
      time: text(o.Hora),
    });
  }
}
