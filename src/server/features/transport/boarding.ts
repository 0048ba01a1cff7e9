import { sign } from 'node:crypto';
import { addDays } from '../../../shared/dates.js';
import {
  type BoardingReason,
  decideBoarding,
  type ManifestPassenger,
  type SignedManifest,
} from '../../../shared/transport.js';
import type { Db } from '../../db/connection.js';
import { uniqueViolation } from '../../db/errors.js';
import { signingKeys } from '../../services/site/signing-keys.js';
import { bookable, freeSeats } from './bookings.js';
import type { Site } from './fleet.js';
import { accreditedOn, day, inChunks, nameOf, type Row, type TransportTables, text } from './tables.js';
import { refusal, type TripRow, tripOf } from './trips.js';

/** How far back a demobilisation still turns a badge away by name at the door of a bus. */
const ENDED_DAYS = 90;

/** Every active credential number of these people, by person. */
async function credentialsOf(db: Db, t: TransportTables, site: Site, ids: number[]) {
  const rows = (await inChunks(ids, (chunk) =>
    db
      .selectFrom(t.credential)
      .select(['IdPersona', 'Numero'])
      .where('IdCliente', '=', site.clientId)
      .where('Activo', '=', 'S')
      .where('IdPersona', 'in', chunk)
      .execute(),
  )) as Row[];
  const out = new Map<number, string[]>();
  for (const r of rows)
    out.set(Number(r.IdPersona), [...(out.get(Number(r.IdPersona)) ?? []), text(r.Numero)]);
  return out;
}

/** The people accredited in the division on a day, with the last day it holds. */
async function accreditedPeople(db: Db, t: TransportTables, site: Site, on: string) {
  return (await accreditedOn(db, t, site, on)
    .select(['g.IdPersona', 'g.FechaFin', 'p.Documento', 'p.Apellido', 'p.Nombre', 'm.Alias'])
    .execute()) as Row[];
}

/** The trip's live bookings (booked or boarded) by person, with their seat. */
async function seatsOf(db: Db, t: TransportTables, tripId: number) {
  const rows = (await db
    .selectFrom(t.booking)
    .select(['IdReserva', 'IdPersona', 'Asiento', 'Estado'])
    .where('IdViaje', '=', tripId)
    .where('Estado', 'in', ['R', 'A'])
    .execute()) as Row[];
  return new Map(rows.map((r) => [Number(r.IdPersona), r]));
}

/**
 * A trip's manifest for the door of the bus, signed with the server's Ed25519 key (the badges' and
 * allow-lists' key): its booked passengers with their seats and credentials, the division's other
 * accredited people (boarded only as an exception), and the credentials of those demobilised lately.
 */
export async function signedManifest(db: Db, t: TransportTables, site: Site, tripId: number, now: number) {
  const trip = await tripOf(db, t, site, tripId);
  const manifest = await manifestOf(db, t, site, trip, now);
  const payload = JSON.stringify(manifest);
  const signature = sign(null, Buffer.from(payload), (await signingKeys(db)).signer).toString('base64');
  return { payload, signature, algorithm: 'Ed25519' };
}

async function manifestOf(
  db: Db,
  t: TransportTables,
  site: Site,
  trip: TripRow,
  now: number,
): Promise<SignedManifest> {
  const people = await accreditedPeople(db, t, site, trip.Fecha);
  const seats = await seatsOf(db, t, trip.IdViaje);
  const credentials = await credentialsOf(
    db,
    t,
    site,
    people.map((p) => Number(p.IdPersona)),
  );
  const pasajeros: ManifestPassenger[] = [];
  const acreditados: ManifestPassenger[] = [];
  const seen = new Set<number>();
  for (const p of people) {
    const id = Number(p.IdPersona);
    if (seen.has(id)) continue;
    seen.add(id);
    const seat = seats.get(id);
    const entry: ManifestPassenger = {
      IdPersona: id,
      Nombre: nameOf(p),
      Documento: text(p.Documento),
      Compania: text(p.Alias),
      Credenciales: credentials.get(id) ?? [],
      Hasta: p.FechaFin ? day(p.FechaFin) : '9999-12-31',
      ...(seat && { Asiento: Number(seat.Asiento) }),
    };
    (seat ? pasajeros : acreditados).push(entry);
  }
  return {
    IdViaje: trip.IdViaje,
    IdCliente: trip.IdCliente,
    IdDivision: trip.IdDivision,
    Ruta: trip.Ruta,
    Fecha: trip.Fecha,
    Hora: trip.Hora,
    Asientos: trip.Asientos,
    Estado: trip.Estado,
    emitido: new Date(now).toISOString(),
    pasajeros: pasajeros.sort((a, b) => Number(a.Asiento) - Number(b.Asiento)),
    acreditados,
    terminados: await endedOf(db, t, site, trip.Fecha, seen),
  };
}

/** People of the division whose accreditation ended or was suspended in the last 90 days and who hold none now (`still`), with their credential numbers. */
async function endedOf(db: Db, t: TransportTables, site: Site, on: string, still: ReadonlySet<number>) {
  const rows = (await db
    .selectFrom(`${t.accreditation} as g`)
    .innerJoin(`${t.person} as p`, 'p.IdPersona', 'g.IdPersona')
    .select(['g.IdPersona', 'p.Apellido', 'p.Nombre'])
    .where('g.IdCliente', '=', site.clientId)
    .where('g.IdDivision', '=', site.divisionId)
    .where('g.Estado', 'in', ['T', 'S'])
    .where((eb) => eb.or([eb('g.FechaFin', 'is', null), eb('g.FechaFin', '>=', addDays(on, -ENDED_DAYS))]))
    .execute()) as Row[];
  const ended = rows.filter((r) => !still.has(Number(r.IdPersona)));
  const rowsOf = await inChunks(
    ended.map((r) => Number(r.IdPersona)),
    (chunk) =>
      db
        .selectFrom(t.credential)
        .select(['IdPersona', 'Numero'])
        .where('IdCliente', '=', site.clientId)
        .where('IdPersona', 'in', chunk)
        .execute(),
  );
  const numbers = new Map<number, string[]>();
  for (const r of rowsOf as Row[])
    numbers.set(Number(r.IdPersona), [...(numbers.get(Number(r.IdPersona)) ?? []), text(r.Numero)]);
  const out = new Map<number, { Nombre: string; Credenciales: string[] }>();
  for (const r of ended)
    out.set(Number(r.IdPersona), { Nombre: nameOf(r), Credenciales: numbers.get(Number(r.IdPersona)) ?? [] });
  return [...out.values()].filter((e) => e.Credenciales.length);
}

/** A reading at the door of the bus, as a device or the console sends it. */
export interface BoardingMark {
  IdMarca: string;
  Credencial: string;
  FechaHora: string;
  /** The guard's reason to board someone not booked (an exception). */
  Excepcion?: string;
  /** What a device decided offline (its markings synced later): kept as it was, the person was let on or not. */
  Resultado?: 'P' | 'D';
  Motivo?: BoardingReason;
}

/** What boarding at a trip's door works with, in its transaction. */
interface Door {
  trx: Db;
  t: TransportTables;
  site: Site;
  trip: TripRow;
  manifest: SignedManifest;
  /** Who boarded already (the trip's seats boarded, and those boarded in this call). */
  boarded: Set<number>;
  who: string;
  now: number;
}

/** A reading's answer: boarded or not and why, the person's name and seat; `repeated`, sent before. */
export interface DoorAnswer {
  IdMarca: string;
  allow: boolean;
  reason: BoardingReason;
  repeated?: true;
  Nombre?: string;
  Asiento?: number;
}

/**
 * Boards readings at the door of a trip, each once (its IdMarca: a sync sent again writes nothing
 * more): the decision is the shared one (decideBoarding) from the manifest as the server holds it now,
 * or, for a device's reading decided offline, what the device decided (the person was let on or not);
 * a booked passenger's seat becomes boarded, an exception takes a free seat with its reason, and every
 * reading is kept with its result. Answers each reading's decision.
 */
export async function board(
  db: Db,
  t: TransportTables,
  site: Site,
  tripId: number,
  marks: BoardingMark[],
  who: string,
  now: number,
) {
  return db.transaction().execute(async (trx) => {
    const trip = await tripOf(trx, t, site, tripId);
    if (trip.Estado === 'X' || trip.Estado === 'L')
      throw refusal(trip.Estado === 'X' ? 'tripCancelled' : 'tripArrived');
    const known = await keptMarks(trx, t, marks);
    const manifest = await manifestOf(trx, t, site, { ...trip, Estado: 'E' }, now);
    const door: Door = { trx, t, site, trip, manifest, boarded: await boardedOn(trx, t, tripId), who, now };
    const answers: DoorAnswer[] = [];
    for (const mark of marks) {
      const repeated = known.has(mark.IdMarca);
      known.add(mark.IdMarca);
      answers.push(
        repeated
          ? { IdMarca: mark.IdMarca, allow: false, reason: 'ALREADY_BOARDED', repeated: true }
          : await readAtDoor(door, mark),
      );
    }
    await trx
      .updateTable(t.trip)
      .set({ Abordados: door.boarded.size, ...(trip.Estado === 'P' && { Estado: 'E' }) })
      .where('IdViaje', '=', tripId)
      .execute();
    return answers;
  });
}

/** The readings of these ids kept already. */
async function keptMarks(trx: Db, t: TransportTables, marks: BoardingMark[]) {
  const rows = (await inChunks(
    marks.map((m) => m.IdMarca),
    (chunk) => trx.selectFrom(t.boarding).select('IdMarca').where('IdMarca', 'in', chunk).execute(),
  )) as Row[];
  return new Set(rows.map((r) => text(r.IdMarca)));
}

/** Who boarded the trip already. */
async function boardedOn(trx: Db, t: TransportTables, tripId: number) {
  const rows = (await trx
    .selectFrom(t.booking)
    .select('IdPersona')
    .where('IdViaje', '=', tripId)
    .where('Estado', '=', 'A')
    .execute()) as Row[];
  return new Set(rows.map((r) => Number(r.IdPersona)));
}

/** One reading decided (or as a device decided it), its seat boarded and the reading kept. */
async function readAtDoor(door: Door, mark: BoardingMark): Promise<DoorAnswer> {
  const { site, manifest, boarded, now } = door;
  const read = { Numero: mark.Credencial, IdCliente: site.clientId, IdDivision: site.divisionId };
  const exception = mark.Excepcion ? { reason: mark.Excepcion } : undefined;
  const at = new Date(now);
  const decision = decideBoarding({ ...manifest, emitido: at.toISOString() }, read, at, boarded, exception);
  const person = decision.passenger?.IdPersona || undefined;
  const allow = mark.Resultado ? mark.Resultado === 'P' : decision.allow;
  const reason = mark.Resultado ? (mark.Motivo ?? decision.reason) : decision.reason;
  if (allow && person && !boarded.has(person)) {
    boarded.add(person);
    if (manifest.pasajeros.some((p) => p.IdPersona === person)) await seatBoarded(door, person, mark);
    else await exceptionSeat(door, person, mark);
  }
  await keep(door, mark, allow, reason, person);
  return {
    IdMarca: mark.IdMarca,
    allow,
    reason,
    Nombre: decision.passenger?.Nombre,
    Asiento: decision.passenger?.Asiento,
  };
}

/** Takes one seat of the trip if one is free (the trip's count, in its own statement). */
async function seatFree(trx: Db, t: TransportTables, trip: TripRow) {
  const taken = await trx
    .updateTable(t.trip)
    .set((eb) => ({ Reservados: eb(eb.fn.coalesce('Reservados', eb.lit(0)), '+', 1) }))
    .where('IdViaje', '=', trip.IdViaje)
    .where((eb) => eb(eb(eb.fn.coalesce('Reservados', eb.lit(0)), '+', 1), '<=', eb.ref('Asientos')))
    .executeTakeFirst();
  return Number(taken.numUpdatedRows) > 0;
}

/** A booked passenger's seat, boarded. */
async function seatBoarded({ trx, t, trip }: Door, person: number, mark: BoardingMark) {
  await trx
    .updateTable(t.booking)
    .set({ Estado: 'A', FechaAbordaje: mark.FechaHora })
    .where('IdViaje', '=', trip.IdViaje)
    .where('IdPersona', '=', person)
    .where('Estado', '=', 'R')
    .execute();
}

/** An exception's seat: a free one (the trip's count first), boarded with the guard's reason. */
async function exceptionSeat({ trx, t, site, trip, who }: Door, person: number, mark: BoardingMark) {
  const [p] = [...(await bookable(trx, t, { ...site, userId: who }, trip.Fecha, [person])).values()];
  // A device let them on offline while the last seats went meanwhile: the reading says so, no seat is made.
  if (!p || !(await seatFree(trx, t, trip))) return;
  const [seat] = await freeSeats(trx, t, trip, 1);
  await trx
    .insertInto(t.booking)
    .values({
      IdCliente: site.clientId,
      IdDivision: site.divisionId,
      IdViaje: trip.IdViaje,
      IdPersona: person,
      IdCompania: p.IdCompania,
      Fecha: trip.Fecha,
      Sentido: trip.Sentido,
      Asiento: seat,
      Estado: 'A',
      Excepcion: 'S',
      Motivo: mark.Excepcion?.trim().slice(0, 300),
      FechaReserva: mark.FechaHora,
      IdUsuarioReserva: who,
      FechaAbordaje: mark.FechaHora,
    })
    .execute();
}

/** The reading kept with its result (once: its IdMarca is unique). */
async function keep(
  { trx, t, site, trip, who, now }: Door,
  mark: BoardingMark,
  allow: boolean,
  reason: string,
  person: number | undefined,
) {
  try {
    await trx
      .insertInto(t.boarding)
      .values({
        IdCliente: site.clientId,
        IdDivision: site.divisionId,
        IdViaje: trip.IdViaje,
        IdPersona: person ?? null,
        Credencial: mark.Credencial.slice(0, 30),
        IdMarca: mark.IdMarca,
        FechaHora: mark.FechaHora,
        Resultado: allow ? 'P' : 'D',
        Motivo: reason,
        MotivoExcepcion: mark.Excepcion?.trim().slice(0, 300) ?? null,
        IdUsuario: who.slice(0, 20),
        Recibido: new Date(now).toISOString(),
      })
      .execute();
  } catch (error) {
    if (uniqueViolation(error)) throw refusal('markRepeated');
    throw error;
  }
}

/** The trip departs: its state S with the hour, and its booked who did not board become no-shows (listed). */
export async function depart(db: Db, t: TransportTables, site: Site, tripId: number, now: number) {
  return db.transaction().execute(async (trx) => {
    const trip = await tripOf(trx, t, site, tripId);
    if (trip.Estado !== 'P' && trip.Estado !== 'E') throw refusal('tripNotBoarding');
    const changed = await trx
      .updateTable(t.trip)
      .set({ Estado: 'S', Salida: new Date(now).toISOString() })
      .where('IdViaje', '=', tripId)
      .where('Estado', 'in', ['P', 'E'])
      .executeTakeFirst();
    if (!Number(changed.numUpdatedRows)) throw refusal('tripNotBoarding');
    const noShows = (await trx
      .selectFrom(`${t.booking} as b`)
      .innerJoin(`${t.person} as p`, 'p.IdPersona', 'b.IdPersona')
      .leftJoin(`${t.company} as m`, 'm.IdCompania', 'b.IdCompania')
      .select(['b.IdReserva', 'b.IdPersona', 'b.Asiento', 'p.Documento', 'p.Apellido', 'p.Nombre', 'm.Alias'])
      .where('b.IdViaje', '=', tripId)
      .where('b.Estado', '=', 'R')
      .orderBy('b.Asiento')
      .execute()) as Row[];
    await trx
      .updateTable(t.booking)
      .set({ Estado: 'N' })
      .where('IdViaje', '=', tripId)
      .where('Estado', '=', 'R')
      .execute();
    return {
      IdViaje: tripId,
      Estado: 'S',
      noPresentados: noShows.map((r) => ({
        IdPersona: Number(r.IdPersona),
        Persona: nameOf(r),
        Documento: text(r.Documento),
        Compania: text(r.Alias),
        Asiento: Number(r.Asiento),
      })),
    };
  });
}

/** The trip arrived: its state L with the hour (it leaves the road). */
export async function arrive(db: Db, t: TransportTables, site: Site, tripId: number, now: number) {
  const trip = await tripOf(db, t, site, tripId);
  const changed = await db
    .updateTable(t.trip)
    .set({ Estado: 'L', Llegada: new Date(now).toISOString() })
    .where('IdViaje', '=', trip.IdViaje)
    .where('Estado', '=', 'S')
    .executeTakeFirst();
  if (!Number(changed.numUpdatedRows)) throw refusal('tripNotOnRoad');
  return { IdViaje: tripId, Estado: 'L' };
}
