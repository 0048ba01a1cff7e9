import { assignmentOn } from '../../../shared/attendance.js';
import { addDays } from '../../../shared/dates.js';
import { rosterMove, type TripDirection, type Unplaced } from '../../../shared/transport.js';
import type { Db } from '../../db/connection.js';
import { guardCycles } from '../../services/guards.js';
import { type Bookable, type Books, bookable, bookIn, settled } from './bookings.js';
import type { TransportOffice } from './office.js';
import { day, inChunks, type Row, type TransportTables, text } from './tables.js';
import { refusal, type TripRow, tripOfRow, tripsQuery } from './trips.js';

/** A person a change day moves, and where. */
interface Mover extends Bookable {
  Sentido: 'S' | 'B';
  IdRuta?: number;
}

/**
 * The people a day moves by their rosters: those with a cycle schedule (14×7, 7×7…) in force, or
 * else a guard (its cycle's start and its regime's days), whose first day of work (up, S) or first
 * day of rest (down, B) it is, and accredited in the division.
 */
async function movers(db: Db, t: TransportTables, office: TransportOffice, on: string): Promise<Mover[]> {
  const rows = (await db
    .selectFrom(`${t.assignment} as a`)
    .innerJoin(`${t.scheduleType} as s`, 's.IdTipoHorario', 'a.IdTipoHorario')
    .select([
      'a.IdPersona',
      'a.FechaInicio',
      'a.FechaFin',
      'a.FechaAncla',
      's.Tipo',
      's.DiasTrabajo',
      's.DiasDescanso',
    ])
    .where('a.IdCliente', '=', office.clientId)
    .where('a.Activo', '=', 'S')
    .where('a.FechaInicio', '<=', on)
    .where((eb) => eb.or([eb('a.FechaFin', 'is', null), eb('a.FechaFin', '>=', addDays(on, -1))]))
    .execute()) as Row[];
  const byPerson = new Map<number, Row[]>();
  for (const r of rows) byPerson.set(Number(r.IdPersona), [...(byPerson.get(Number(r.IdPersona)) ?? []), r]);
  const moves = new Map<number, 'S' | 'B'>();
  // Without a roster of their own in force, people rotate with their guard (its start, its regime's days).
  for (const [person, guard] of await guardCycles(db, t, { clientId: office.clientId })) {
    if (byPerson.has(person)) continue;
    const move = rosterMove(guard.start, on, guard.on, guard.off);
    if (move) moves.set(person, move);
  }
  const guards = await guardCycles(db, t, { clientId: office.clientId, ids: [...byPerson.keys()] });
  for (const [person, list] of byPerson) {
    const assignments = list.map((r) => ({
      Tipo: text(r.Tipo),
      FechaAncla: r.FechaAncla ? day(r.FechaAncla) : null,
      DiasTrabajo: Number(r.DiasTrabajo ?? 0),
      DiasDescanso: Number(r.DiasDescanso ?? 0),
      IdTipoHorario: 0,
      FechaInicio: day(r.FechaInicio),
      FechaFin: r.FechaFin ? day(r.FechaFin) : undefined,
    }));
    const a = assignmentOn(assignments, on) ?? assignmentOn(assignments, addDays(on, -1));
    if (a?.Tipo !== 'C') continue;
    // A roster without its own first day counts from the person's guard's, else from its start.
    const anchor = a.FechaAncla ?? guards.get(person)?.start ?? a.FechaInicio;
    const move = rosterMove(anchor, on, a.DiasTrabajo, a.DiasDescanso);
    if (move) moves.set(person, move);
  }
  const people = await bookable(db, t, office, on, [...moves.keys()]);
  return [...people.values()].map((p) => ({ ...p, Sentido: moves.get(p.IdPersona) as 'S' | 'B' }));
}

/** Each mover's route: the active route of the department or region they live in, else the default one. */
async function routed(db: Db, t: TransportTables, office: TransportOffice, people: Mover[]) {
  const routes = (await db
    .selectFrom(t.route)
    .select(['IdRuta', 'IdUbigeoOrigen', 'PorDefecto'])
    .where('IdCliente', '=', office.clientId)
    .where('IdDivision', '=', office.divisionId)
    .where('Activo', '=', 'S')
    .execute()) as Row[];
  const fallback = routes.find((r) => r.PorDefecto === 'S');
  const homes = new Map<number, string>();
  const rows = (await inChunks(
    people.map((p) => p.IdPersona),
    (chunk) =>
      db
        .selectFrom(t.person)
        .select(['IdPersona', 'IdUbigeoResidencia'])
        .where('IdPersona', 'in', chunk)
        .execute(),
  )) as Row[];
  for (const r of rows) homes.set(Number(r.IdPersona), text(r.IdUbigeoResidencia));
  const origins = routes
    .filter((r) => r.IdUbigeoOrigen)
    .sort((a, b) => text(b.IdUbigeoOrigen).length - text(a.IdUbigeoOrigen).length);
  for (const p of people) {
    const home = homes.get(p.IdPersona) ?? '';
    const route = origins.find((r) => home?.startsWith(text(r.IdUbigeoOrigen))) ?? fallback;
    if (route) p.IdRuta = Number(route.IdRuta);
  }
  return people;
}

/** Who of these people holds a live seat that day in that direction already. */
async function alreadyBooked(db: Db, t: TransportTables, office: TransportOffice, on: string) {
  const rows = (await db
    .selectFrom(t.booking)
    .select(['IdPersona', 'Sentido'])
    .where('IdCliente', '=', office.clientId)
    .where('Fecha', '=', on)
    .where('Estado', 'in', ['R', 'A'])
    .execute()) as Row[];
  return new Set(rows.map((r) => `${r.IdPersona}|${r.Sentido}`));
}

/**
 * The manifests a change day proposes: its movers (rosters and accreditations), each on the route of
 * their home in their direction, filling that day's scheduled trips of the route in their order up to
 * their free seats; those already booked are left as they are, the rest are listed with why they have no seat.
 */
export async function propose(db: Db, t: TransportTables, office: TransportOffice, on: string) {
  const people = await routed(db, t, office, await movers(db, t, office, on));
  const booked = await alreadyBooked(db, t, office, on);
  const trips = (
    (await tripsQuery(db, t, office)
      .where('v.Fecha', '=', on)
      .where('v.Estado', 'in', ['P', 'E'])
      .orderBy('v.Hora')
      .orderBy('v.IdViaje')
      .execute()) as Row[]
  ).map(tripOfRow);
  const plan = trips.map((trip) => ({
    trip,
    free: trip.Asientos - trip.Reservados,
    propuestos: [] as Bookable[],
  }));
  const unplaced: Array<Bookable & { Sentido: TripDirection; motivo: Unplaced }> = [];
  let already = 0;
  for (const p of people.sort((a, b) => a.Persona.localeCompare(b.Persona))) {
    if (booked.has(`${p.IdPersona}|${p.Sentido}`)) {
      already++;
      continue;
    }
    const { Sentido, IdRuta, ...person } = p;
    if (IdRuta === undefined) {
      unplaced.push({ ...person, Sentido, motivo: 'NO_ROUTE' });
      continue;
    }
    const mine = plan.filter((x) => x.trip.IdRuta === IdRuta && x.trip.Sentido === Sentido);
    const slot = mine.find((x) => x.free > 0);
    if (!slot) {
      unplaced.push({ ...person, Sentido, motivo: mine.length ? 'NO_SEAT' : 'NO_TRIP' });
      continue;
    }
    slot.free--;
    slot.propuestos.push(person);
  }
  return {
    Fecha: on,
    viajes: plan.map(({ trip, propuestos }) => ({ ...trip, propuestos })),
    sinAsiento: unplaced,
    yaReservados: already,
  };
}

/** The manifests a coordinator confirms: every trip's people booked in one transaction, all or none. */
export async function confirm(
  books: Books,
  office: TransportOffice,
  manifests: Array<{ IdViaje: number; IdPersonas: number[] }>,
  at: { now: number; today: string },
) {
  const ordered = [...manifests].filter((m) => m.IdPersonas.length).sort((a, b) => a.IdViaje - b.IdViaje);
  if (!ordered.length) throw refusal('nobody');
  return settled(books.registry, () =>
    books.db.transaction().execute(async (trx) => {
      const done: Array<{ trip: TripRow; booked: number }> = [];
      for (const m of ordered) {
        const { trip, booked } = await bookIn(trx, books.t, office, m.IdViaje, m.IdPersonas, at);
        done.push({ trip, booked: booked.length });
      }
      return {
        viajes: done.map((d) => ({ IdViaje: d.trip.IdViaje, reservados: d.booked })),
        total: done.reduce((s, d) => s + d.booked, 0),
      };
    }),
  );
}
