import {
  departureOn,
  halvesOf,
  type LodgingTurn,
  nightsOf,
  noBedReason,
  type PlacementPerson,
  placePeople,
  type ReservationState,
} from '../../../shared/hotel.js';
import { dmy } from '../../../shared/request-dates.js';
import type { Db } from '../../db/connection.js';
import { uniqueViolation } from '../../db/errors.js';
import { ApiError } from '../../errors.js';
import type { Registry } from '../../registry.js';
import { divisionToday } from '../../site.js';
import { type CampBed, campBeds, heldNights, holdOverstays, roomTypeName } from './beds.js';
import { type Camp, isRefusal, type Lodger, lodgers, type Refusal } from './eligibility.js';
import { type CampOffice, requireCamp } from './office.js';

type Row = Record<string, unknown>;

/** A stay asked for: a person, the nights, the turn, and the bed or the room type to place it in. */
export interface Booking {
  IdPersona: number;
  IdCama?: number;
  IdTipoHabitacion?: number;
  FechaInicio: string;
  FechaFin: string;
  Turno?: LodgingTurn;
  Observacion?: string;
}

/** How a booking came: one at a time (I), a mass reservation (M), or a walk-in checked in at once (W). */
type Origin = 'I' | 'M' | 'W';

const refuse = (messageKey: string, params: Record<string, string | number> = {}) =>
  new ApiError('CONFLICT', { messageKey: `hotel.refusals.${messageKey}`, params });
const refusalError = (r: Refusal) => new ApiError('CONFLICT', { messageKey: r.messageKey, params: r.params });

/** A placed stay, ready to be written. */
export interface Placed {
  lodger: Lodger;
  bed: CampBed;
  turn: LodgingTurn;
  from: string;
  to: string;
  observation?: string;
}

/**
 * Lodging in a division's camps (spec section 2 Hotel: assignment, mass reservation): reserving a
 * bed for a person from an arrival to a departure date, checking in, checking out, moving to
 * another bed, cancelling; releasing the reservations nobody checked in in time; and, when a
 * demobilisation is approved, checking the person out and releasing what was still to come.
 *
 * A reservation holds its nights as rows of the bed-night table, one per bed, night and half,
 * whose unique keys (bed, night, half) and (person, night, half) the database keeps: two offices
 * reserving the same bed-night at once, on either database, get one reservation and one refusal,
 * never two. Each change of a reservation and its nights is one transaction.
 */
export class Stays {
  constructor(
    private readonly db: Db,
    private readonly registry: Registry,
    private readonly now: () => number = Date.now,
  ) {}

  private table(name: string) {
    return this.registry.require(name).table;
  }

  today(office: CampOffice): Promise<string> {
    return divisionToday(this.db, this.registry, office.divisionId, this.now());
  }

  /** A camp of the office's, active, as lodging reads it. */
  /** The server's instant now, as stored. */
  at(): string {
    return new Date(this.now()).toISOString();
  }

  async camp(office: CampOffice, id: number, db: Db = this.db): Promise<Camp> {
    requireCamp(office, id);
    const camp = (await db
      .selectFrom(this.table('camp'))
      .select([
        'IdCampamento',
        'Descripcion',
        'DiasMaximoEstadia',
        'LiberarReserva',
        'DiasLiberarReserva',
        'HoraSalida',
      ])
      .where('IdCampamento', '=', id)
      .where('IdCliente', '=', office.clientId)
      .where('IdDivision', '=', office.divisionId)
      .executeTakeFirst()) as Camp | undefined;
    if (!camp) throw new ApiError('NOT_FOUND', { params: { resource: 'camp', id } });
    return camp;
  }

  /**
   * Reserves one stay: in the bed asked for, or in a free bed of the room type (the person's
   * profile's when none is asked) the product assigns. Refuses a person who may not stay, dates
   * in the past or reversed, a bed out of service or in a block that does not house the person,
   * and a bed or a person already taken for one of the nights.
   */
  async reserve(office: CampOffice, campId: number, booking: Booking, origin: Origin = 'I'): Promise<Row> {
    const today = await this.today(office);
    return this.db.transaction().execute(async (trx) => {
      const [placed] = await this.place(trx, office, campId, [booking], today, origin === 'W');
      const [row] = await this.write(trx, office, campId, [placed], origin);
      return row;
    });
  }

  /**
   * The stays asked for, checked and placed (not written): each person's grounds, the dates, and
   * a bed — the one asked for, free all its nights, or one placement finds. All share a camp.
   */
  private async place(
    db: Db,
    office: CampOffice,
    campId: number,
    bookings: readonly Booking[],
    today: string,
    walkIn = false,
  ): Promise<Placed[]> {
    const camp = await this.camp(office, campId, db);
    const at = new Date(this.now()).toISOString();
    await holdOverstays(db, this.registry, office.clientId, [campId], today, at);
    const beds = await campBeds(db, this.registry, office.clientId, [campId]);
    const byId = new Map(beds.map((b) => [b.IdCama, b]));
    const out: Placed[] = [];
    for (const booking of bookings) {
      const { FechaInicio: from, FechaFin: to } = booking;
      if (!(to > from)) throw refuse('badDates');
      if (from < today) throw refuse('pastStart', { date: dmy(today) });
      if (walkIn && from !== today) throw refuse('badDates');
      const found = (await lodgers(db, this.registry, office, camp, [booking.IdPersona], from, to)).get(
        booking.IdPersona,
      );
      if (!found || isRefusal(found)) throw refusalError(found as Refusal);
      const turn = booking.Turno ?? 'C';
      const nights = nightsOf(from, to);
      const personTaken = await this.personNight(db, office, booking.IdPersona, from, to);
      if (personTaken) throw refuse('personOverlap', { name: found.Persona, date: dmy(personTaken.date) });
      let bed: CampBed | undefined;
      if (booking.IdCama !== undefined) {
        bed = byId.get(booking.IdCama);
        if (!bed?.EnServicio) throw refuse('bedUnavailable');
        if (bed.Genero !== 'X' && bed.Genero !== found.Sexo)
          throw refuse('bedBlock', { bed: bed.Codigo, name: found.Persona });
        if (
          office.companyId !== undefined &&
          found.IdTipoHabitacion !== null &&
          bed.IdTipoHabitacion !== found.IdTipoHabitacion
        )
          throw refuse('roomType', { bed: bed.Codigo });
        const held = await this.bedNight(db, office, bed.IdCama, from, to, halvesOf(turn, bed.Exclusiva));
        if (held) throw refuse('overlap', { bed: bed.Codigo, from: dmy(from), to: dmy(to) });
      } else {
        const type = booking.IdTipoHabitacion ?? found.IdTipoHabitacion;
        const taken = await heldNights(db, this.registry, office.clientId, [campId], from, to);
        const person: PlacementPerson = {
          IdPersona: found.IdPersona,
          Sexo: found.Sexo,
          IdTipoHabitacion: type,
          Turno: turn,
        };
        const chosen = placePeople(
          beds.filter((b) => b.EnServicio),
          [person],
          nights,
          taken,
        ).get(found.IdPersona);
        bed = chosen === undefined ? undefined : byId.get(chosen);
        if (!bed) {
          const why = noBedReason(beds, person, found.Persona, await roomTypeName(db, this.registry, type));
          throw new ApiError('CONFLICT', why);
        }
      }
      out.push({ lodger: found, bed, turn, from, to, observation: booking.Observacion });
    }
    return out;
  }

  /** A night a person already holds between two dates, if any. */
  private async personNight(db: Db, office: CampOffice, personId: number, from: string, to: string) {
    const row = (await db
      .selectFrom(this.table('bed-night'))
      .select('Fecha')
      .where('IdCliente', '=', office.clientId)
      .where('IdPersona', '=', personId)
      .where('Fecha', '>=', from)
      .where('Fecha', '<', to)
      .orderBy('Fecha')
      .limit(1)
      .executeTakeFirst()) as { Fecha: unknown } | undefined;
    return row ? { date: String(row.Fecha).slice(0, 10) } : undefined;
  }

  /** Whether a bed's halves are held on a night between two dates. */
  private async bedNight(
    db: Db,
    office: CampOffice,
    bedId: number,
    from: string,
    to: string,
    halves: string[],
  ): Promise<boolean> {
    const row = await db
      .selectFrom(this.table('bed-night'))
      .select('IdCamaNoche')
      .where('IdCliente', '=', office.clientId)
      .where('IdCama', '=', bedId)
      .where('Fecha', '>=', from)
      .where('Fecha', '<', to)
      .where('Mitad', 'in', halves)
      .limit(1)
      .executeTakeFirst();
    return row !== undefined;
  }

  /**
   * Writes placed stays and their nights in the caller's transaction. A night another writer took
   * meanwhile breaks a unique key: the whole transaction is undone and the booking refused.
   */
  async write(
    trx: Db,
    office: CampOffice,
    campId: number,
    placed: readonly Placed[],
    origin: Origin,
    batch?: string,
  ): Promise<Row[]> {
    const at = new Date(this.now()).toISOString();
    const rows: Row[] = [];
    try {
      for (const p of placed) {
        const row = (await trx
          .insertInto(this.table('reservation'))
          .values({
            IdCliente: office.clientId,
            IdDivision: office.divisionId,
            IdCampamento: campId,
            IdCama: p.bed.IdCama,
            IdPersona: p.lodger.IdPersona,
            IdCompania: p.lodger.IdCompania,
            IdAcreditacion: p.lodger.IdAcreditacion,
            IdSolicitud: p.lodger.IdSolicitud,
            IdTipoHabitacion: p.bed.IdTipoHabitacion,
            FechaInicio: p.from,
            FechaFin: p.to,
            Turno: p.turn,
            Estado: origin === 'W' ? 'I' : 'R',
            Origen: origin,
            Lote: batch ?? null,
            FechaIngreso: origin === 'W' ? at : null,
            Observacion: p.observation ?? null,
            IdUsuarioCreacion: office.userId,
            FechaCreacion: at,
          })
          .returningAll()
          .executeTakeFirstOrThrow()) as Row;
        rows.push(row);
      }
      await this.holdNights(
        trx,
        office.clientId,
        placed.map((p, i) => ({
          IdReserva: Number(rows[i].IdReserva),
          IdCama: p.bed.IdCama,
          IdPersona: p.lodger.IdPersona,
          halves: halvesOf(p.turn, p.bed.Exclusiva),
          from: p.from,
          to: p.to,
        })),
        office.userId,
        at,
      );
    } catch (error) {
      if (!uniqueViolation(error)) throw error;
      throw placed.length === 1
        ? refuse('overlap', { bed: placed[0].bed.Codigo, from: dmy(placed[0].from), to: dmy(placed[0].to) })
        : refuse('massOverlap');
    }
    return rows;
  }

  /** Inserts the nights of some stays, a few hundred rows a statement. */
  private async holdNights(
    trx: Db,
    clientId: number,
    stays: Array<{
      IdReserva: number;
      IdCama: number;
      IdPersona: number;
      halves: string[];
      from: string;
      to: string;
    }>,
    userId: string,
    at: string,
  ) {
    const rows: Row[] = [];
    for (const s of stays)
      for (const night of nightsOf(s.from, s.to))
        for (const half of s.halves)
          rows.push({
            IdCliente: clientId,
            IdCama: s.IdCama,
            Fecha: night,
            Mitad: half,
            IdReserva: s.IdReserva,
            IdPersona: s.IdPersona,
            IdUsuarioCreacion: userId,
            FechaCreacion: at,
          });
    for (let i = 0; i < rows.length; i += 400)
      await trx
        .insertInto(this.table('bed-night'))
        .values(rows.slice(i, i + 400))
        .execute();
  }

  /** A reservation of one of the office's camps (a requester's: of its company), for a change. */
  private async reservation(trx: Db, office: CampOffice, id: number): Promise<Row> {
    let query = trx
      .selectFrom(this.table('reservation'))
      .selectAll()
      .where('IdReserva', '=', id)
      .where('IdCliente', '=', office.clientId)
      .where('IdDivision', '=', office.divisionId);
    if (office.companyId !== undefined) query = query.where('IdCompania', '=', office.companyId);
    const row = (await query.executeTakeFirst()) as Row | undefined;
    if (!row || !office.camps.has(Number(row.IdCampamento)))
      throw new ApiError('NOT_FOUND', { params: { resource: 'reservation', id } });
    return row;
  }

  private async setState(trx: Db, id: number, change: Row, office: CampOffice) {
    await trx
      .updateTable(this.table('reservation'))
      .set({
        ...change,
        IdUsuarioModificacion: office.userId,
        FechaModificacion: new Date(this.now()).toISOString(),
      })
      .where('IdReserva', '=', id)
      .execute();
  }

  /** Frees a reservation's nights from a date on. */
  private async freeNights(trx: Db, id: number, from?: string) {
    let query = trx.deleteFrom(this.table('bed-night')).where('IdReserva', '=', id);
    if (from) query = query.where('Fecha', '>=', from);
    await query.execute();
  }

  private expect(row: Row, states: ReservationState[]) {
    if (!states.includes(row.Estado as ReservationState))
      throw refuse('badState', { id: Number(row.IdReserva) });
  }

  /** Cancels a reservation not checked in yet: its nights are free again. */
  async cancel(office: CampOffice, id: number, observation?: string): Promise<Row> {
    return this.db.transaction().execute(async (trx) => {
      const row = await this.reservation(trx, office, id);
      this.expect(row, ['R']);
      await this.freeNights(trx, id);
      const change = { Estado: 'A', Observacion: observation ?? row.Observacion ?? null };
      await this.setState(trx, id, change, office);
      return { ...row, ...change };
    });
  }

  /**
   * Checks a reservation in, from its first day to the day before its departure: the person must
   * be accredited in force in the division today (a demobilised or suspended person is not taken
   * in). With `IdCama`, the person sleeps in that bed instead of the reserved one.
   */
  async checkIn(office: CampOffice, id: number, bedId?: number): Promise<Row> {
    if (office.companyId !== undefined) throw new ApiError('FORBIDDEN');
    const today = await this.today(office);
    return this.db.transaction().execute(async (trx) => {
      const row = await this.reservation(trx, office, id);
      this.expect(row, ['R']);
      const from = String(row.FechaInicio).slice(0, 10);
      const to = String(row.FechaFin).slice(0, 10);
      if (today < from) throw refuse('notYet', { date: dmy(from) });
      if (today >= to) throw refuse('stayOver', { date: dmy(to) });
      const accreditation = await this.accreditationToday(trx, office, Number(row.IdPersona), today);
      const change: Row = {
        Estado: 'I',
        FechaIngreso: new Date(this.now()).toISOString(),
        IdAcreditacion: accreditation,
      };
      if (bedId !== undefined && bedId !== Number(row.IdCama))
        Object.assign(
          change,
          await this.rebed(trx, office, row, bedId, today, row.Turno as LodgingTurn, today),
        );
      await this.setState(trx, id, change, office);
      return { ...row, ...change };
    });
  }

  /**
   * Puts a reservation not checked in yet in another bed from `start` to its departure: its nights
   * freed and held again in the new bed (refused, naming the bed, when another holds one of them).
   * Answers the reservation's change.
   */
  private async rebed(
    trx: Db,
    office: CampOffice,
    row: Row,
    bedId: number,
    start: string,
    turn: LodgingTurn,
    today: string,
  ): Promise<Row> {
    const id = Number(row.IdReserva);
    const to = String(row.FechaFin).slice(0, 10);
    await this.freeNights(trx, id);
    const [placed] = await this.place(
      trx,
      office,
      Number(row.IdCampamento),
      [{ IdPersona: Number(row.IdPersona), IdCama: bedId, FechaInicio: start, FechaFin: to, Turno: turn }],
      today,
    );
    const stay = {
      IdReserva: id,
      IdCama: bedId,
      IdPersona: Number(row.IdPersona),
      halves: halvesOf(placed.turn, placed.bed.Exclusiva),
      from: start,
      to,
    };
    await this.holdNights(
      trx,
      office.clientId,
      [stay],
      office.userId,
      new Date(this.now()).toISOString(),
    ).catch((error) => {
      throw uniqueViolation(error)
        ? refuse('overlap', { bed: placed.bed.Codigo, from: dmy(start), to: dmy(to) })
        : error;
    });
    return { IdCama: bedId, Turno: placed.turn, FechaInicio: start };
  }

  /**
   * The accreditation in force today of a person in the division; a demobilised, suspended or
   * unaccredited person is refused.
   */
  private async accreditationToday(trx: Db, office: CampOffice, personId: number, today: string) {
    const rows = (await trx
      .selectFrom(this.table('accreditation'))
      .select(['IdAcreditacion', 'Estado', 'FechaInicio', 'FechaFin'])
      .where('IdCliente', '=', office.clientId)
      .where('IdDivision', '=', office.divisionId)
      .where('IdPersona', '=', personId)
      .orderBy('FechaFin', 'desc')
      .execute()) as Row[];
    const inForce = rows.find(
      (r) => r.Estado === 'A' && String(r.FechaInicio) <= today && today <= String(r.FechaFin).slice(0, 10),
    );
    if (inForce) return Number(inForce.IdAcreditacion);
    const person = (await trx
      .selectFrom(this.table('person'))
      .select(['Apellido', 'Nombre'])
      .where('IdPersona', '=', personId)
      .executeTakeFirst()) as Row | undefined;
    const name = person ? `${person.Apellido} ${person.Nombre}` : String(personId);
    if (rows.some((r) => r.Estado === 'S')) throw refuse('suspended', { name });
    if (rows.some((r) => r.Estado === 'T')) throw refuse('demobilised', { name });
    throw refuse('notAccredited', { name });
  }

  /**
   * Walks in someone accredited with no reservation: a stay from today, reserved and checked in
   * at once, in the bed chosen or one of the room type.
   */
  async walkIn(office: CampOffice, campId: number, booking: Omit<Booking, 'FechaInicio'>): Promise<Row> {
    if (office.companyId !== undefined) throw new ApiError('FORBIDDEN');
    const today = await this.today(office);
    return this.db.transaction().execute(async (trx) => {
      const accreditation = await this.accreditationToday(trx, office, booking.IdPersona, today);
      const [placed] = await this.place(
        trx,
        office,
        campId,
        [{ ...booking, FechaInicio: today }],
        today,
        true,
      );
      placed.lodger = { ...placed.lodger, IdAcreditacion: accreditation, IdSolicitud: null };
      const [row] = await this.write(trx, office, campId, [placed], 'W');
      return row;
    });
  }

  /**
   * Checks a person out: the stay ends today (its nights from today on are free for whoever
   * comes next, after the camp's checkout time) and the real departure is recorded.
   */
  async checkOut(office: CampOffice, id: number): Promise<Row> {
    if (office.companyId !== undefined) throw new ApiError('FORBIDDEN');
    const today = await this.today(office);
    return this.db.transaction().execute(async (trx) => {
      const row = await this.reservation(trx, office, id);
      this.expect(row, ['I']);
      await this.freeNights(trx, id, today);
      const end = String(row.FechaFin).slice(0, 10);
      const change: Row = {
        Estado: 'S',
        FechaSalidaReal: new Date(this.now()).toISOString(),
        FechaFin: departureOn(String(row.FechaInicio).slice(0, 10), end, today),
      };
      await this.setState(trx, id, change, office);
      return { ...row, ...change };
    });
  }

  /**
   * Moves a stay to another bed. A reservation not checked in just changes bed; a person checked
   * in keeps the history: the stay so far ends today in state M, and a new one, naming it as its
   * previous, goes on in the new bed from today to the same departure.
   */
  async move(office: CampOffice, id: number, bedId: number, turn?: LodgingTurn): Promise<Row> {
    if (office.companyId !== undefined) throw new ApiError('FORBIDDEN');
    const today = await this.today(office);
    return this.db.transaction().execute(async (trx) => {
      const row = await this.reservation(trx, office, id);
      this.expect(row, ['R', 'I']);
      const campId = Number(row.IdCampamento);
      const from = String(row.FechaInicio).slice(0, 10);
      const to = String(row.FechaFin).slice(0, 10);
      const checkedIn = row.Estado === 'I';
      const start = checkedIn || from < today ? today : from;
      if (start >= to) throw refuse('stayOver', { date: dmy(to) });
      const nextTurn = turn ?? (row.Turno as LodgingTurn);
      if (!checkedIn) {
        const change = await this.rebed(trx, office, row, bedId, start, nextTurn, today);
        await this.setState(trx, id, change, office);
        return { ...row, ...change };
      }
      await this.freeNights(trx, id, start);
      const [placed] = await this.place(
        trx,
        office,
        campId,
        [
          {
            IdPersona: Number(row.IdPersona),
            IdCama: bedId,
            FechaInicio: start,
            FechaFin: to,
            Turno: nextTurn,
          },
        ],
        today,
      );
      await this.setState(trx, id, { Estado: 'M', FechaFin: departureOn(from, to, today) }, office);
      placed.lodger = {
        ...placed.lodger,
        IdAcreditacion: row.IdAcreditacion == null ? null : Number(row.IdAcreditacion),
        IdSolicitud: row.IdSolicitud == null ? null : Number(row.IdSolicitud),
      };
      const [next] = await this.write(trx, office, campId, [placed], 'I');
      const change = {
        Estado: 'I',
        Origen: row.Origen,
        IdReservaAnterior: id,
        FechaIngreso: new Date(this.now()).toISOString(),
      };
      await this.setState(trx, Number(next.IdReserva), change, office);
      return { ...next, ...change };
    });
  }
}
