import { localTime } from '../../../shared/access/decision.js';
import { addDays, daysBetween, timeZoneOf } from '../../../shared/dates.js';
import {
  type AvailabilityGrid,
  type CampToday,
  GRID_MAX_DAYS,
  type GridStay,
  type LodgingDashboard,
  type StayLine,
} from '../../../shared/hotel.js';
import type { Db } from '../../db/connection.js';
import { ApiError, badQuery } from '../../errors.js';
import type { Registry } from '../../registry.js';
import { campBeds, keptCampBeds } from './beds.js';
import { type CampOffice, requireCamp } from './office.js';
import { stayOf, stayRows } from './queries.js';

type Row = Record<string, unknown>;
const day = (v: unknown) => String(v).slice(0, 10);

/** The occupancy of a range: per night, and per company (the nights it is charged for). */
export interface OccupancyReport {
  desde: string;
  hasta: string;
  dias: Array<{ fecha: string; camas: number; ocupadas: number; reservadas: number }>;
  companias: Array<{ IdCompania: number; Compania: string; noches: number; personas: number }>;
}

/**
 * What the hotel administrator watches (spec section 2 Hotel: bed availability, dashboard,
 * reports and queries): the grid of beds by night, the camps' figures today, the arrivals,
 * departures and overstays, the occupancy of a range per night and per company, a person's stays.
 */
export class LodgingBoard {
  constructor(
    private readonly db: Db,
    private readonly registry: Registry,
    private readonly now: () => number = Date.now,
  ) {}

  private table(name: string) {
    return this.registry.require(name).table;
  }

  private camps(office: CampOffice, campId?: number): number[] {
    if (campId === undefined) return [...office.camps];
    requireCamp(office, campId);
    return [campId];
  }

  /**
   * The availability grid: the beds of the office's camps (or one camp, block or room type), and
   * the stays (reserved or checked in) on them from `desde` for `dias` nights (at most 31).
   */
  async grid(
    office: CampOffice,
    query: {
      desde: string;
      dias?: number;
      IdCampamento?: number;
      IdModuloHotel?: number;
      IdTipoHabitacion?: number;
    },
  ): Promise<AvailabilityGrid> {
    const days = query.dias ?? 14;
    if (!(days >= 1 && days <= GRID_MAX_DAYS))
      throw badQuery('dias', 'hotel.refusals.gridRange', { max: GRID_MAX_DAYS });
    const camps = this.camps(office, query.IdCampamento);
    const to = addDays(query.desde, days);
    const beds = await keptCampBeds(this.db, this.registry, office.clientId, camps, query);
    const today = (await this.siteNow(office)).date;
    const stays = await this.staysOn(office, camps, today, query.desde, to, query);
    return {
      desde: query.desde,
      hasta: to,
      dias: Array.from({ length: days }, (_, i) => addDays(query.desde, i)),
      // The beds as kept (their block's sex and room type ride along): not copied for each grid.
      camas: beds,
      estadias: stays,
    };
  }

  /** The stays reserved or checked in that cross a range, with who they are for. */
  private async staysOn(
    office: CampOffice,
    camps: number[],
    /** The site's today: a stay checked in past its departure day holds its bed through it. */
    today: string,
    from: string,
    to: string,
    filter: { IdModuloHotel?: number; IdTipoHabitacion?: number } = {},
  ): Promise<GridStay[]> {
    // A guest checked in past the departure day holds the bed until checking out (an overstay).
    let query = stayRows(this.db, this.registry, office.clientId, camps, true)
      .where('s.Estado', 'in', ['R', 'I'])
      .where('s.FechaInicio', '<', to)
      .where((eb) =>
        eb.or([
          eb('s.FechaFin', '>', from),
          eb.and([eb('s.Estado', '=', 'I'), eb('s.FechaFin', '<=', today)]),
        ]),
      );
    if (filter.IdModuloHotel !== undefined || filter.IdTipoHabitacion !== undefined)
      query = query
        .innerJoin(`${this.table('bed')} as b`, 'b.IdCama', 's.IdCama')
        .innerJoin(`${this.table('room')} as r`, 'r.IdHabitacion', 'b.IdHabitacion');
    if (filter.IdModuloHotel !== undefined) query = query.where('r.IdModuloHotel', '=', filter.IdModuloHotel);
    if (filter.IdTipoHabitacion !== undefined)
      query = query.where('r.IdTipoHabitacion', '=', filter.IdTipoHabitacion);
    const rows = (await query.orderBy('s.FechaInicio').execute()) as Row[];
    const suspended = await this.accredited(office, ['S']);
    // Built directly: a grid reads thousands of stays.
    const overstay = addDays(today, 1);
    return rows.flatMap((r) => {
      const end = String(r.FechaFin).slice(0, 10);
      const over = r.Estado === 'I' && end <= today;
      if (over && !(from < overstay)) return [];
      return [this.gridStay(r, end, suspended, over ? overstay : undefined)];
    });
  }

  private gridStay(r: Row, end: string, suspended: Set<number>, overstay?: string): GridStay {
    return {
      ...(overstay ? { Excedida: true, Hasta: overstay } : {}),
      IdReserva: Number(r.IdReserva),
      IdCama: Number(r.IdCama),
      FechaInicio: String(r.FechaInicio).slice(0, 10),
      FechaFin: end,
      Turno: r.Turno as GridStay['Turno'],
      Estado: r.Estado as GridStay['Estado'],
      IdPersona: Number(r.IdPersona),
      Persona: `${r.Apellido} ${r.Nombre}`,
      Documento: String(r.Documento),
      Compania: (r.Compania as string | null) ?? null,
      Suspendida: suspended.has(Number(r.IdPersona)),
    };
  }

  /**
   * The people of the division with an accreditation in one of some states (ending on or after a
   * date when given): read once for a whole grid or dashboard rather than per stay.
   */
  private async accredited(office: CampOffice, states: string[], endingFrom?: string): Promise<Set<number>> {
    let query = this.db
      .selectFrom(this.table('accreditation'))
      .select('IdPersona')
      .where('IdCliente', '=', office.clientId)
      .where('IdDivision', '=', office.divisionId)
      .where('IdPersona', 'is not', null)
      .where('Estado', 'in', states);
    if (endingFrom) query = query.where('FechaFin', '>=', endingFrom);
    const rows = (await query.execute()) as Array<{ IdPersona: number }>;
    return new Set(rows.map((r) => Number(r.IdPersona)));
  }

  /** The division's site: today's date and the wall clock's minute now. */
  private async siteNow(office: CampOffice) {
    const division = (await this.db
      .selectFrom(this.table('division'))
      .select('IdPais')
      .where('IdDivision', '=', office.divisionId)
      .executeTakeFirst()) as { IdPais: string | null } | undefined;
    return localTime(new Date(this.now()), timeZoneOf(division?.IdPais));
  }

  /** Each camp's figures tonight, the arrivals and departures today and tomorrow, the overstays. */
  async dashboard(office: CampOffice): Promise<LodgingDashboard> {
    const clock = await this.siteNow(office);
    const today = clock.date;
    const tomorrow = addDays(today, 1);
    const camps = [...office.camps];
    const beds = await campBeds(this.db, this.registry, office.clientId, camps);
    const tonight = await this.staysOn(office, camps, today, today, tomorrow);
    const bedCamp = new Map(beds.map((b) => [b.IdCama, b]));
    const figures = new Map<number, CampToday>();
    for (const b of beds) {
      const f = figures.get(b.IdCampamento) ?? {
        IdCampamento: b.IdCampamento,
        Campamento: b.Campamento,
        camas: 0,
        ocupadas: 0,
        reservadas: 0,
        libres: 0,
        fueraServicio: 0,
        ocupacion: 0,
      };
      f.camas++;
      const on = tonight.filter((s) => s.IdCama === b.IdCama);
      if (!b.EnServicio) f.fueraServicio++;
      else if (on.some((s) => s.Estado === 'I')) f.ocupadas++;
      else if (on.length) f.reservadas++;
      else f.libres++;
      figures.set(b.IdCampamento, f);
    }
    for (const f of figures.values()) {
      const inService = f.camas - f.fueraServicio;
      f.ocupacion = inService ? Math.round((f.ocupadas / inService) * 1000) / 10 : 0;
    }
    const lines = await this.lines(office, camps, today, tomorrow);
    const strip = (l: (typeof lines)[number]): StayLine => ({
      IdReserva: l.IdReserva,
      IdCampamento: l.IdCampamento,
      Cama: bedCamp.get(l.IdCama)?.Codigo ?? '',
      Persona: l.Persona,
      Documento: l.Documento,
      Compania: l.Compania,
      FechaInicio: l.FechaInicio,
      FechaFin: l.FechaFin,
      Estado: l.Estado,
    });
    const checkout = (l: (typeof lines)[number]) => String(l.HoraSalida ?? '12:00');
    const minute = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));
    const overstays = lines
      .filter((l) => l.Estado === 'I')
      .flatMap((l) => {
        const past = l.FechaFin < today || (l.FechaFin === today && clock.minute > minute(checkout(l)));
        const unaccredited = !l.Acreditada;
        return past || unaccredited ? [{ ...strip(l), Motivo: past ? ('R' as const) : ('A' as const) }] : [];
      });
    return {
      hoy: today,
      campamentos: [...figures.values()].sort((a, b) => a.Campamento.localeCompare(b.Campamento)),
      llegadas: {
        hoy: lines.filter((l) => l.Estado === 'R' && l.FechaInicio === today).map(strip),
        manana: lines.filter((l) => l.Estado === 'R' && l.FechaInicio === tomorrow).map(strip),
      },
      salidas: {
        hoy: lines.filter((l) => l.Estado === 'I' && l.FechaFin === today).map(strip),
        manana: lines.filter((l) => l.Estado === 'I' && l.FechaFin === tomorrow).map(strip),
      },
      excedidos: overstays,
    };
  }

  /**
   * The stays the dashboard lists: arriving today or tomorrow, leaving today or tomorrow, and every
   * stay checked in (for the overstays), each with whether its accreditation is in force today.
   */
  private async lines(office: CampOffice, camps: number[], today: string, tomorrow: string) {
    const rows = (await stayRows(this.db, this.registry, office.clientId, camps)
      .where((eb) =>
        eb.or([
          eb('s.Estado', '=', 'I'),
          eb.and([eb('s.Estado', '=', 'R'), eb('s.FechaInicio', 'in', [today, tomorrow])]),
        ]),
      )
      .orderBy('p.Apellido')
      .execute()) as Row[];
    const inForce = await this.accredited(office, ['A', 'S'], today);
    return rows.map(stayOf).map((r) => ({ ...r, Acreditada: inForce.has(r.IdPersona) }));
  }

  /**
   * The occupancy of a range (at most a year): per night the beds in service, those occupied
   * (someone checked in, or who was) and those reserved; per company the nights its people
   * stayed and how many people (what the contractor is charged for).
   */
  async occupancy(
    office: CampOffice,
    query: { desde: string; hasta: string; IdCampamento?: number },
  ): Promise<OccupancyReport> {
    const { desde: from, hasta: to } = query;
    const days = daysBetween(from, to) + 1;
    if (!(days >= 1 && days <= 366)) throw badQuery('hasta', 'hotel.refusals.reportRange');
    const camps = this.camps(office, query.IdCampamento);
    const end = addDays(to, 1);
    const beds = (await campBeds(this.db, this.registry, office.clientId, camps)).filter((b) => b.EnServicio);
    const rows = (await this.db
      .selectFrom(`${this.table('reservation')} as s`)
      .innerJoin(`${this.table('bed')} as b`, 'b.IdCama', 's.IdCama')
      .leftJoin(`${this.table('company')} as c`, 'c.IdCompania', 's.IdCompania')
      .select([
        's.IdCama',
        's.IdPersona',
        's.IdCompania',
        'c.Alias as Compania',
        's.FechaInicio',
        's.FechaFin',
        's.Estado',
        's.Turno',
        'b.Exclusiva',
      ])
      .where('s.IdCliente', '=', office.clientId)
      .where('s.IdCampamento', 'in', camps)
      .where('s.Estado', 'in', ['R', 'I', 'S', 'M'])
      .where('s.FechaInicio', '<', end)
      .where('s.FechaFin', '>', from)
      .execute()) as Row[];
    const nights = Array.from({ length: days }, (_, i) => addDays(from, i));
    const occupied = new Map<string, Set<number>>();
    const reserved = new Map<string, Set<number>>();
    const companies = new Map<
      number,
      { IdCompania: number; Compania: string; noches: number; people: Set<number> }
    >();
    for (const r of rows) {
      const start = day(r.FechaInicio) > from ? day(r.FechaInicio) : from;
      const stop = day(r.FechaFin) < end ? day(r.FechaFin) : end;
      const stayed = r.Estado !== 'R';
      for (let n = start; n < stop; n = addDays(n, 1)) {
        const target = stayed ? occupied : reserved;
        const set = target.get(n) ?? new Set<number>();
        set.add(Number(r.IdCama));
        target.set(n, set);
        if (stayed) {
          const id = Number(r.IdCompania);
          const c = companies.get(id) ?? {
            IdCompania: id,
            Compania: String(r.Compania ?? id),
            noches: 0,
            people: new Set(),
          };
          c.noches++;
          c.people.add(Number(r.IdPersona));
          companies.set(id, c);
        }
      }
    }
    return {
      desde: from,
      hasta: to,
      dias: nights.map((n) => {
        const held = occupied.get(n) ?? new Set<number>();
        const booked = [...(reserved.get(n) ?? [])].filter((b) => !held.has(b));
        return { fecha: n, camas: beds.length, ocupadas: held.size, reservadas: booked.length };
      }),
      companias: [...companies.values()]
        .map(({ people, ...c }) => ({ ...c, personas: people.size }))
        .sort((a, b) => b.noches - a.noches),
    };
  }

  /** A person's stays in the office's camps (found by document), newest first. */
  async personStays(office: CampOffice, document: string) {
    const rows = (await stayRows(this.db, this.registry, office.clientId, [...office.camps])
      .where('p.Documento', '=', document.trim().toUpperCase())
      .orderBy('s.FechaInicio', 'desc')
      .orderBy('s.IdReserva', 'desc')
      .limit(500)
      .execute()) as Row[];
    if (!rows.length)
      throw new ApiError('NOT_FOUND', { messageKey: 'hotel.refusals.noStays', params: { document } });
    return rows.map(stayOf);
  }
}
