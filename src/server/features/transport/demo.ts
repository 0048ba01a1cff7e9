/**
 * The demo's buses: in each division, its routes with their stops (the city of most of its people to
 * the site, another city, camp to plant), the contractor's accredited buses, and today's trips: one
 * up on the road with its passengers boarded, one boarding, one down in the afternoon, and tomorrow's.
 * Deterministic, like the rest of the demo.
 */
import { addDays, siteDate } from '../../../shared/dates.js';
import { licenceHolds } from '../../../shared/transport.js';
import { divisionCountry } from '../../site.js';
import type { DemoContext } from '../feature.js';
import { type Row, type TransportTables, text, transportTables } from './tables.js';

interface PlannedRoute {
  Codigo: string;
  Descripcion: string;
  origin: string | null;
  fallback?: true;
  stops: Array<[string, number]>;
}

const ROUTES: Record<'PE' | 'CH', PlannedRoute[]> = {
  PE: [
    {
      Codigo: 'AQP-UM',
      Descripcion: 'AREQUIPA – UNIDAD MINERA',
      origin: 'PE04',
      stops: [
        ['TERMINAL TERRESTRE AREQUIPA', 0],
        ['YURA', 35],
        ['PAMPA CAÑAHUAS', 70],
        ['IMATA', 55],
        ['GARITA PRINCIPAL', 95],
      ],
    },
    {
      Codigo: 'LIM-UM',
      Descripcion: 'LIMA (AEROPUERTO) – UNIDAD MINERA',
      origin: 'PE15',
      stops: [
        ['AEROPUERTO JORGE CHÁVEZ', 0],
        ['AEROPUERTO AREQUIPA', 95],
        ['GARITA PRINCIPAL', 260],
      ],
    },
    {
      Codigo: 'MOQ-UM',
      Descripcion: 'MOQUEGUA – UNIDAD MINERA',
      origin: null,
      fallback: true,
      stops: [
        ['PLAZA DE ARMAS MOQUEGUA', 0],
        ['TORATA', 40],
        ['GARITA PRINCIPAL', 150],
      ],
    },
    {
      Codigo: 'CAMP-PLT',
      Descripcion: 'CAMPAMENTO – PLANTA CONCENTRADORA',
      origin: null,
      stops: [
        ['CAMPAMENTO', 0],
        ['TALLERES', 10],
        ['PLANTA CONCENTRADORA', 15],
      ],
    },
  ],
  CH: [
    {
      Codigo: 'CAL-FAE',
      Descripcion: 'CALAMA – FAENA',
      origin: null,
      fallback: true,
      stops: [
        ['TERMINAL CALAMA', 0],
        ['CHIU CHIU', 35],
        ['PORTERÍA FAENA', 70],
      ],
    },
  ],
};

/** The class a bus (20 seats or more) or a van needs in each country. */
const BUS_LICENCE = { PE: 'A-IIIA', CH: 'A3' } as const;
const VAN_LICENCE = { PE: 'A-IIA', CH: 'A2' } as const;
const classOf = (seats: number, country: 'PE' | 'CH') => (seats >= 20 ? BUS_LICENCE : VAN_LICENCE)[country];

async function seedRoutes(ctx: DemoContext, t: TransportTables, divisionId: number, country: 'PE' | 'CH') {
  const ids: number[] = [];
  for (const r of ROUTES[country]) {
    const route = (await ctx.trx
      .insertInto(t.route)
      .values({
        IdCliente: ctx.clientId,
        IdDivision: divisionId,
        Codigo: r.Codigo,
        Descripcion: r.Descripcion,
        IdUbigeoOrigen: r.origin,
        PorDefecto: r.fallback ? 'S' : 'N',
        Activo: 'S',
      })
      .returning('IdRuta')
      .executeTakeFirstOrThrow()) as Row;
    ids.push(Number(route.IdRuta));
    for (const [i, [name, minutes]] of r.stops.entries())
      await ctx.trx
        .insertInto(t.stop)
        .values({
          IdCliente: ctx.clientId,
          IdDivision: divisionId,
          IdRuta: route.IdRuta,
          Orden: i + 1,
          Descripcion: name,
          MinutosDesdeAnterior: minutes,
        })
        .execute();
  }
  return ids;
}

/** The division's accredited buses and vans (4 seats or more), with the licence class each needs. */
async function seedBuses(ctx: DemoContext, t: TransportTables, divisionId: number, country: 'PE' | 'CH') {
  const classes = (await ctx.trx
    .selectFrom(t.licence)
    .select(['IdLicenciaConducir', 'Categoria'])
    .where('IdPais', '=', country)
    .execute()) as Row[];
  const licenceOf = (seats: number) =>
    classes.find((c) => c.Categoria === classOf(seats, country))?.IdLicenciaConducir;
  const vehicles = (await ctx.trx
    .selectFrom(`${t.vehicle} as h`)
    .innerJoin(`${t.accreditation} as g`, 'g.IdVehiculo', 'h.IdVehiculo')
    .select(['h.IdVehiculo', 'h.NumeroPasajeros'])
    .distinct()
    .where('g.IdCliente', '=', ctx.clientId)
    .where('g.IdDivision', '=', divisionId)
    .where('g.Estado', '=', 'A')
    .where('g.FechaFin', '>=', addDays(siteDate(country, ctx.now), 1))
    .where('h.NumeroPasajeros', '>=', 4)
    .orderBy('h.NumeroPasajeros', 'desc')
    .orderBy('h.IdVehiculo')
    .execute()) as Row[];
  const buses: Array<{ IdBus: number; Asientos: number }> = [];
  for (const v of vehicles) {
    const licence = licenceOf(Number(v.NumeroPasajeros));
    if (!licence) continue;
    const bus = (await ctx.trx
      .insertInto(t.bus)
      .values({
        IdCliente: ctx.clientId,
        IdDivision: divisionId,
        IdVehiculo: v.IdVehiculo,
        Asientos: Number(v.NumeroPasajeros),
        IdLicenciaConducir: licence,
        Activo: 'S',
      })
      .returning('IdBus')
      .executeTakeFirstOrThrow()) as Row;
    buses.push({ IdBus: Number(bus.IdBus), Asientos: Number(v.NumeroPasajeros) });
  }
  return buses;
}

/** The division's accredited people in a stable order, and those whose licence drives a vehicle of `seats`. */
async function crew(
  ctx: DemoContext,
  t: TransportTables,
  divisionId: number,
  country: 'PE' | 'CH',
  seats: number,
) {
  const rows = (await ctx.trx
    .selectFrom(`${t.accreditation} as g`)
    .innerJoin(`${t.person} as p`, 'p.IdPersona', 'g.IdPersona')
    .leftJoin(`${t.licence} as l`, 'l.IdLicenciaConducir', 'p.IdLicenciaConducir')
    .select(['g.IdPersona', 'g.IdCompania', 'l.Categoria'])
    .distinct()
    .where('g.IdCliente', '=', ctx.clientId)
    .where('g.IdDivision', '=', divisionId)
    .where('g.Estado', '=', 'A')
    .where('g.FechaFin', '>=', addDays(siteDate(country, ctx.now), 1))
    .orderBy('g.IdPersona')
    .execute()) as Row[];
  const drivers = rows.filter((r) =>
    licenceHolds(r.Categoria ? text(r.Categoria) : null, classOf(seats, country)),
  );
  const driverIds = new Set(drivers.map((d) => Number(d.IdPersona)));
  return { drivers, passengers: rows.filter((r) => !driverIds.has(Number(r.IdPersona))) };
}

interface PlannedTrip {
  route: number;
  days: number;
  Hora: string;
  Sentido: 'S' | 'B' | 'I';
  Estado: 'P' | 'E' | 'S';
  /** How many passengers, from which of the division's people. */
  take: [number, number];
}

/** A division with no bus runs a van between the camp and the plant. */
const SHUTTLES: PlannedTrip[] = [
  { route: 3, days: 0, Hora: '06:30', Sentido: 'I', Estado: 'E', take: [0, 3] },
  { route: 3, days: 1, Hora: '06:30', Sentido: 'I', Estado: 'P', take: [1, 2] },
];

const TRIPS: PlannedTrip[] = [
  { route: 0, days: 0, Hora: '05:30', Sentido: 'S', Estado: 'S', take: [0, 4] },
  { route: 2, days: 0, Hora: '06:00', Sentido: 'S', Estado: 'E', take: [4, 3] },
  { route: 0, days: 0, Hora: '15:00', Sentido: 'B', Estado: 'P', take: [4, 2] },
  { route: 0, days: 1, Hora: '05:30', Sentido: 'S', Estado: 'P', take: [0, 2] },
];

async function seedTrip(
  ctx: DemoContext,
  t: TransportTables,
  divisionId: number,
  today: string,
  plan: PlannedTrip,
  bus: { IdBus: number; Asientos: number },
  driver: number,
  routes: number[],
  people: Row[],
) {
  const aboard = people.slice(plan.take[0], plan.take[0] + Math.min(plan.take[1], bus.Asientos));
  const boarded =
    plan.Estado === 'S' ? aboard.length : plan.Estado === 'E' ? Math.floor(aboard.length / 2) : 0;
  const Fecha = addDays(today, plan.days);
  const at = new Date(ctx.now - 3 * 86_400_000).toISOString();
  const trip = (await ctx.trx
    .insertInto(t.trip)
    .values({
      IdCliente: ctx.clientId,
      IdDivision: divisionId,
      IdRuta: routes[plan.route] ?? routes[0],
      Fecha,
      Hora: plan.Hora,
      Sentido: plan.Sentido,
      IdBus: bus.IdBus,
      IdConductor: driver,
      Asientos: bus.Asientos,
      Reservados: aboard.length,
      Abordados: boarded,
      Estado: plan.Estado,
      Salida: plan.Estado === 'S' ? new Date(ctx.now - 2 * 3_600_000).toISOString() : null,
      IdUsuarioCreacion: 'TRANSPORTE',
      FechaCreacion: at,
    })
    .returning('IdViaje')
    .executeTakeFirstOrThrow()) as Row;
  for (const [i, p] of aboard.entries())
    await ctx.trx
      .insertInto(t.booking)
      .values({
        IdCliente: ctx.clientId,
        IdDivision: divisionId,
        IdViaje: trip.IdViaje,
        IdPersona: p.IdPersona,
        IdCompania: p.IdCompania,
        Fecha,
        Sentido: plan.Sentido,
        Asiento: i + 1,
        Estado: i < boarded ? 'A' : 'R',
        Excepcion: 'N',
        FechaReserva: at,
        IdUsuarioReserva: 'TRANSPORTE',
        FechaAbordaje: i < boarded ? new Date(ctx.now - 2.2 * 3_600_000).toISOString() : null,
      })
      .execute();
  return 1;
}

/** Routes, stops, buses and today's trips in each division. */
export async function seedDemoTransport(ctx: DemoContext): Promise<Record<string, number>> {
  const t = transportTables(ctx.registry);
  const divisions = (await ctx.trx
    .selectFrom('system_division')
    .select('IdDivision')
    .where('IdCliente', '=', ctx.clientId)
    .orderBy('IdDivision')
    .execute()) as Row[];
  let trips = 0;
  for (const { IdDivision } of divisions) {
    const divisionId = Number(IdDivision);
    const country = (await divisionCountry(ctx.trx, ctx.registry, divisionId)) === 'CH' ? 'CH' : 'PE';
    const routes = await seedRoutes(ctx, t, divisionId, country);
    const all = await seedBuses(ctx, t, divisionId, country);
    const big = all.filter((b) => b.Asientos >= 20);
    const buses = big.length ? big : all.slice(0, 1);
    const { drivers, passengers } = await crew(ctx, t, divisionId, country, buses[0]?.Asientos ?? 45);
    const today = siteDate(country, ctx.now);
    for (const [i, plan] of (big.length ? TRIPS : SHUTTLES).entries()) {
      const bus = buses[i % Math.max(1, buses.length)];
      const driver = drivers[i % Math.max(1, drivers.length)];
      // The boarding trip leaves with the one on the road: it needs a second bus and driver.
      if (!bus || !driver || (big.length && i === 1 && (buses.length < 2 || drivers.length < 2))) continue;
      trips += await seedTrip(
        ctx,
        t,
        divisionId,
        today,
        plan,
        bus,
        Number(driver.IdPersona),
        routes,
        passengers,
      );
    }
  }
  return { trip: trips };
}
