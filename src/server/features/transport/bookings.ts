import { addDays } from '../../../shared/dates.js';
import { BOOKING_MAX, spansMeet, type Traveller, tripSpan } from '../../../shared/transport.js';
import type { Db } from '../../db/connection.js';
import { brokenUniqueWhen, uniqueWhenRefusal } from '../../db/errors.js';
import { ApiError } from '../../errors.js';
import type { Registry } from '../../registry.js';
import { routeMinutesOf } from './fleet.js';
import type { TransportOffice } from './office.js';
import { accreditedOn, day, inChunks, nameOf, type Row, type TransportTables, text } from './tables.js';
import { refusal, requireOpen, type TripRow, tripOf } from './trips.js';

/** What the booking calls work with. */
export interface Books {
  db: Db;
  t: TransportTables;
  registry: Registry;
}

/** A person who may be booked on a trip: accredited in its division on its date. */
export type Bookable = Traveller;

/**
 * The people among `ids` with an accreditation in force in the trip's division on its date (a
 * visit's too, within its dates), of the requester's company when a requester asks.
 */
export async function bookable(
  db: Db,
  t: TransportTables,
  office: TransportOffice,
  on: string,
  ids: readonly number[],
): Promise<Map<number, Bookable>> {
  const rows = (await inChunks([...new Set(ids)], (chunk) =>
    accreditedOn(db, t, office, on)
      .select(['g.IdPersona', 'g.IdCompania', 'p.Documento', 'p.Apellido', 'p.Nombre', 'm.Alias'])
      .where('g.IdPersona', 'in', chunk)
      .execute(),
  )) as Row[];
  const out = new Map<number, Bookable>();
  for (const r of rows)
    if (!out.has(Number(r.IdPersona)))
      out.set(Number(r.IdPersona), {
        IdPersona: Number(r.IdPersona),
        Persona: nameOf(r),
        Documento: text(r.Documento),
        IdCompania: Number(r.IdCompania),
        Compania: text(r.Alias),
      });
  return out;
}

/** Refuses people already booked on a live trip whose time meets this one's. */
async function refuseOverlapping(
  db: Db,
  t: TransportTables,
  office: TransportOffice,
  trip: TripRow,
  people: Bookable[],
) {
  const rows = (await inChunks(
    people.map((p) => p.IdPersona),
    (chunk) =>
      db
        .selectFrom(`${t.booking} as b`)
        .innerJoin(`${t.trip} as v`, 'v.IdViaje', 'b.IdViaje')
        .select(['b.IdPersona', 'v.IdViaje', 'v.IdRuta', 'v.Fecha', 'v.Hora'])
        .where('b.IdCliente', '=', office.clientId)
        .where('b.Estado', 'in', ['R', 'A'])
        .where('b.Fecha', '>=', addDays(trip.Fecha, -1))
        .where('b.Fecha', '<=', addDays(trip.Fecha, 1))
        .where('b.IdPersona', 'in', chunk)
        .execute(),
  )) as Row[];
  if (!rows.length) return;
  const minutes = await routeMinutesOf(db, t, office);
  const mine = tripSpan(trip.Fecha, trip.Hora, minutes.get(trip.IdRuta) ?? 0);
  for (const r of rows) {
    const same = Number(r.IdViaje) === trip.IdViaje;
    const span = tripSpan(day(r.Fecha), text(r.Hora), minutes.get(Number(r.IdRuta)) ?? 0);
    if (!same && !spansMeet(mine, span)) continue;
    const person = people.find((p) => p.IdPersona === Number(r.IdPersona));
    throw refusal(same ? 'alreadyBooked' : 'overlapping', {
      name: person?.Persona ?? '',
      date: day(r.Fecha),
      time: text(r.Hora),
    });
  }
}

/**
 * Books people on a trip, all or none: each must be accredited in its division on its date (of the
 * requester's company for a requester) and on no other trip at that time. The seats are taken by
 * one conditional update of the trip's count (which also holds the trip's row until the end, so
 * bookings of one trip take their turn), then the lowest free seats are given; partial unique
 * indexes keep one passenger per seat and one seat per person.
 */
export async function book(
  { db, t, registry }: Books,
  office: TransportOffice,
  tripId: number,
  ids: number[],
  at: { now: number; today: string },
) {
  if (!ids.length) throw refusal('nobody');
  if (ids.length > BOOKING_MAX) throw refusal('tooMany', { max: BOOKING_MAX });
  return settled(registry, () => db.transaction().execute((trx) => bookIn(trx, t, office, tripId, ids, at)));
}

/** A write whose partial unique index refused a row, answered with the index's message. */
export async function settled<T>(registry: Registry, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    const rule = brokenUniqueWhen(registry, error);
    if (rule) throw uniqueWhenRefusal(rule);
    throw error;
  }
}

/** Books people on a trip inside the caller's transaction (see book). */
export async function bookIn(
  trx: Db,
  t: TransportTables,
  office: TransportOffice,
  tripId: number,
  ids: number[],
  at: { now: number; today: string },
) {
  const trip = await tripOf(trx, t, office, tripId);
  requireOpen(trip, at.today);
  const people = await bookable(trx, t, office, trip.Fecha, ids);
  const missing = ids.find((id) => !people.has(id));
  if (missing !== undefined) throw refusal('notEligible', { id: missing, date: trip.Fecha });
  await refuseOverlapping(trx, t, office, trip, [...people.values()]);
  await takeSeats(trx, t, trip, ids.length);
  return { trip, booked: await seat(trx, t, office, trip, [...people.values()], at.now) };
}

/** Raises the trip's booked count by n while it stays within its seats, or refuses (full, or closed meanwhile). */
export async function takeSeats(db: Db, t: TransportTables, trip: TripRow, n: number) {
  const taken = await db
    .updateTable(t.trip)
    .set((eb) => ({ Reservados: eb(eb.fn.coalesce('Reservados', eb.lit(0)), '+', n) }))
    .where('IdViaje', '=', trip.IdViaje)
    .where('Estado', 'in', ['P', 'E'])
    .where((eb) => eb(eb(eb.fn.coalesce('Reservados', eb.lit(0)), '+', n), '<=', eb.ref('Asientos')))
    .executeTakeFirst();
  if (Number(taken.numUpdatedRows)) return;
  const now = (await db
    .selectFrom(t.trip)
    .select(['Reservados', 'Asientos', 'Estado'])
    .where('IdViaje', '=', trip.IdViaje)
    .executeTakeFirst()) as Row;
  if (!['P', 'E'].includes(text(now.Estado))) throw refusal('tripDeparted');
  throw new ApiError('CONFLICT', {
    messageKey: 'transport.refusals.full',
    params: { seats: Math.max(0, Number(now.Asientos) - Number(now.Reservados ?? 0)), asked: n },
  });
}

/** Writes the bookings on the lowest free seats (the trip's row is held by takeSeats). */
async function seat(
  db: Db,
  t: TransportTables,
  office: TransportOffice,
  trip: TripRow,
  people: Bookable[],
  now: number,
) {
  const free = await freeSeats(db, t, trip, people.length);
  const at = new Date(now).toISOString();
  const rows = people.map((p, i) => ({
    IdCliente: trip.IdCliente,
    IdDivision: trip.IdDivision,
    IdViaje: trip.IdViaje,
    IdPersona: p.IdPersona,
    IdCompania: p.IdCompania,
    Fecha: trip.Fecha,
    Sentido: trip.Sentido,
    Asiento: free[i],
    Estado: 'R',
    Excepcion: 'N',
    FechaReserva: at,
    IdUsuarioReserva: office.userId,
  }));
  const ids: number[] = [];
  for (let i = 0; i < rows.length; i += 100) {
    const written = await db
      .insertInto(t.booking)
      .values(rows.slice(i, i + 100))
      .returning('IdReserva')
      .execute();
    ids.push(...written.map((w: Row) => Number(w.IdReserva)));
  }
  return people.map((p, i) => ({ ...p, IdReserva: ids[i], Asiento: free[i] }));
}

/** The lowest `n` seats of a trip no live booking holds (its row held by the caller's count update). */
export async function freeSeats(db: Db, t: TransportTables, trip: TripRow, n: number) {
  const rows = (await db
    .selectFrom(t.booking)
    .select('Asiento')
    .where('IdViaje', '=', trip.IdViaje)
    .where('Estado', 'in', ['R', 'A'])
    .execute()) as Row[];
  const taken = new Set(rows.map((r) => Number(r.Asiento)));
  const free: number[] = [];
  for (let s = 1; s <= trip.Asientos && free.length < n; s++) if (!taken.has(s)) free.push(s);
  return free;
}

/** Releases live bookings (state R) by id with a reason, giving their seats back to their trips. */
export async function release(db: Db, t: TransportTables, bookingIds: number[], reason: string) {
  if (!bookingIds.length) return 0;
  const rows = (await inChunks(bookingIds, (chunk) =>
    db
      .selectFrom(t.booking)
      .select(['IdReserva', 'IdViaje'])
      .where('IdReserva', 'in', chunk)
      .where('Estado', '=', 'R')
      .execute(),
  )) as Row[];
  const perTrip = new Map<number, number>();
  for (const r of rows) perTrip.set(Number(r.IdViaje), (perTrip.get(Number(r.IdViaje)) ?? 0) + 1);
  await inChunks(
    rows.map((r) => Number(r.IdReserva)),
    async (chunk) => {
      await db
        .updateTable(t.booking)
        .set({ Estado: 'L', Motivo: reason })
        .where('IdReserva', 'in', chunk)
        .execute();
      return [];
    },
  );
  for (const [trip, n] of perTrip)
    await db
      .updateTable(t.trip)
      .set((eb) => ({ Reservados: eb('Reservados', '-', n) }))
      .where('IdViaje', '=', trip)
      .execute();
  return rows.length;
}

/** Cancels a booking of the office (a requester's: of its company) on an open trip, freeing its seat. */
export async function cancelBooking(
  db: Db,
  t: TransportTables,
  office: TransportOffice,
  id: number,
  today: string,
) {
  return db.transaction().execute(async (trx) => {
    let q = trx
      .selectFrom(t.booking)
      .select(['IdReserva', 'IdViaje', 'Estado'])
      .where('IdReserva', '=', id)
      .where('IdCliente', '=', office.clientId)
      .where('IdDivision', '=', office.divisionId);
    if (office.companyId !== undefined) q = q.where('IdCompania', '=', office.companyId);
    const row = (await q.executeTakeFirst()) as Row | undefined;
    if (!row) throw new ApiError('NOT_FOUND', { params: { resource: 'trip-booking', id } });
    requireOpen(await tripOf(trx, t, office, Number(row.IdViaje)), today);
    if (row.Estado !== 'R') throw refusal('bookingNotOpen');
    await release(trx, t, [id], 'CANCELADA');
    return { IdReserva: id, Estado: 'L' };
  });
}

/** The people the office may book on a day (accredited in the division then), found by name or document: 200 at most. */
export async function candidates(
  db: Db,
  t: TransportTables,
  office: TransportOffice,
  on: string,
  search = '',
) {
  const words = search.trim().toUpperCase();
  let q = accreditedOn(db, t, office, on).select('g.IdPersona');
  if (words)
    q = q.where((eb) =>
      eb.or([
        eb('p.Documento', 'like', `%${words}%`),
        eb('p.Apellido', 'like', `%${words}%`),
        eb('p.Nombre', 'like', `%${words}%`),
      ]),
    );
  const ids = ((await q.limit(400).execute()) as Row[]).map((r) => Number(r.IdPersona));
  const people = [...(await bookable(db, t, office, on, ids)).values()];
  return people.sort((a, b) => a.Persona.localeCompare(b.Persona)).slice(0, 200);
}

/** The seats released in a period (who lost a seat and why: a demobilisation, a cancelled trip or booking). */
export async function released(
  db: Db,
  t: TransportTables,
  office: TransportOffice,
  from: string,
  to: string,
) {
  const rows = (await db
    .selectFrom(`${t.booking} as b`)
    .innerJoin(`${t.trip} as v`, 'v.IdViaje', 'b.IdViaje')
    .innerJoin(`${t.route} as r`, 'r.IdRuta', 'v.IdRuta')
    .innerJoin(`${t.person} as p`, 'p.IdPersona', 'b.IdPersona')
    .leftJoin(`${t.company} as m`, 'm.IdCompania', 'b.IdCompania')
    .select([
      'b.IdReserva',
      'b.IdViaje',
      'b.IdPersona',
      'b.Asiento',
      'b.Motivo',
      'v.Fecha',
      'v.Hora',
      'r.Codigo',
      'p.Documento',
      'p.Apellido',
      'p.Nombre',
      'm.Alias',
    ])
    .where('b.IdCliente', '=', office.clientId)
    .where('b.IdDivision', '=', office.divisionId)
    .where('b.Estado', '=', 'L')
    .where('b.Fecha', '>=', from)
    .where('b.Fecha', '<=', to)
    .orderBy('v.Fecha')
    .orderBy('v.Hora')
    .limit(1000)
    .execute()) as Row[];
  return rows.map((r) => ({
    IdReserva: Number(r.IdReserva),
    IdViaje: Number(r.IdViaje),
    IdPersona: Number(r.IdPersona),
    Persona: nameOf(r),
    Documento: text(r.Documento),
    Compania: text(r.Alias),
    Fecha: day(r.Fecha),
    Hora: text(r.Hora),
    Ruta: text(r.Codigo),
    Asiento: Number(r.Asiento),
    Motivo: text(r.Motivo),
  }));
}

/** Cancels a trip not yet departed: its live bookings released (the reason VIAJE_CANCELADO). */
export async function cancelTrip(db: Db, t: TransportTables, office: TransportOffice, id: number) {
  return db.transaction().execute(async (trx) => {
    const trip = await tripOf(trx, t, office, id);
    if (trip.Estado !== 'P' && trip.Estado !== 'E') throw refusal('tripNotScheduled');
    const rows = (await trx
      .selectFrom(t.booking)
      .select('IdReserva')
      .where('IdViaje', '=', id)
      .where('Estado', '=', 'R')
      .execute()) as Row[];
    const n = await release(
      trx,
      t,
      rows.map((r) => Number(r.IdReserva)),
      'VIAJE_CANCELADO',
    );
    await trx.updateTable(t.trip).set({ Estado: 'X' }).where('IdViaje', '=', id).execute();
    return { IdViaje: id, Estado: 'X', liberadas: n };
  });
}
