import type { LodgingTurn, ReservationState } from '../../../shared/hotel.js';
import { containsPattern, likeEscaped } from '../../crud/filters.js';
import type { AnySelect } from '../../crud/types.js';
import type { Db } from '../../db/connection.js';
import type { Registry } from '../../registry.js';
import type { CampOffice } from './office.js';

type Row = Record<string, unknown>;
const day = (v: unknown) => (v == null ? null : String(v).slice(0, 10));

/**
 * The reservations of some camps of a client, each with its person, company, bed, room and camp:
 * what every lodging list reads (the reservations, the grid's stays, the dashboard's lines, a
 * person's stays), each adding its own conditions.
 */
export function stayRows(
  db: Db,
  registry: Registry,
  clientId: number,
  camps: readonly number[],
  /** Only what the availability grid shows of a stay (its bed, dates, turn, state and person): it reads thousands. */
  lean = false,
): AnySelect {
  const table = (name: string) => registry.require(name).table;
  const base = db
    .selectFrom(`${table('reservation')} as s`)
    .innerJoin(`${table('person')} as p`, 'p.IdPersona', 's.IdPersona')
    .leftJoin(`${table('company')} as c`, 'c.IdCompania', 's.IdCompania')
    .select([
      's.IdReserva',
      's.IdCampamento',
      's.IdCama',
      's.IdPersona',
      'p.Documento',
      'p.Apellido',
      'p.Nombre',
      'c.Alias as Compania',
      's.FechaInicio',
      's.FechaFin',
      's.Turno',
      's.Estado',
    ])
    .where('s.IdCliente', '=', clientId)
    .where('s.IdCampamento', 'in', camps.length ? [...camps] : [-1]);
  if (lean) return base;
  return base
    .innerJoin(`${table('bed')} as b`, 'b.IdCama', 's.IdCama')
    .innerJoin(`${table('room')} as r`, 'r.IdHabitacion', 'b.IdHabitacion')
    .innerJoin(`${table('camp')} as k`, 'k.IdCampamento', 's.IdCampamento')
    .select([
      'k.Descripcion as Campamento',
      'k.HoraSalida',
      'b.Codigo as Cama',
      'r.Numero as Habitacion',
      's.Origen',
      's.IdReservaAnterior',
      's.FechaIngreso',
      's.FechaSalidaReal',
      's.Observacion',
    ]);
}

/** A row of stayRows() as the calls answer it: the person named, the dates as dates, the keys as numbers. */
export function stayOf({ Apellido, Nombre, ...r }: Row) {
  return {
    ...r,
    IdReserva: Number(r.IdReserva),
    IdCampamento: Number(r.IdCampamento),
    IdCama: Number(r.IdCama),
    IdPersona: Number(r.IdPersona),
    Documento: String(r.Documento),
    Compania: (r.Compania as string | null) ?? null,
    Persona: `${Apellido} ${Nombre}`,
    FechaInicio: day(r.FechaInicio) as string,
    FechaFin: day(r.FechaFin) as string,
    Turno: r.Turno as LodgingTurn,
    Estado: r.Estado as ReservationState,
    HoraSalida: String(r.HoraSalida ?? '12:00'),
  };
}

/** The reservations an office sees (a requester: its company's), newest arrival first. */
export async function reservationList(
  db: Db,
  registry: Registry,
  office: CampOffice,
  query: { IdCampamento?: number; Estado?: ReservationState; buscar?: string; skip?: number; take?: number },
): Promise<{ data: Row[]; totalCount: number }> {
  let base = stayRows(db, registry, office.clientId, [...office.camps]).where(
    's.IdDivision',
    '=',
    office.divisionId,
  );
  if (office.companyId !== undefined) base = base.where('s.IdCompania', '=', office.companyId);
  if (query.IdCampamento !== undefined) base = base.where('s.IdCampamento', '=', query.IdCampamento);
  if (query.Estado) base = base.where('s.Estado', '=', query.Estado);
  const text = query.buscar?.trim().toUpperCase();
  if (text) {
    const pattern = containsPattern(text);
    base = base.where((eb) =>
      eb.or(
        ['p.Documento', 'p.Apellido', 'p.Nombre', 'b.Codigo'].map((f) => likeEscaped(eb.ref(f), pattern)),
      ),
    );
  }
  const count = (await db
    .selectFrom(base.as('x'))
    .select((eb) => eb.fn.countAll().as('n'))
    .executeTakeFirstOrThrow()) as { n: unknown };
  const rows = (await base
    .orderBy('s.FechaInicio', 'desc')
    .orderBy('s.IdReserva', 'desc')
    .limit(Math.min(query.take ?? 25, 100))
    .offset(query.skip ?? 0)
    .execute()) as Row[];
  return { totalCount: Number(count.n), data: rows.map(stayOf) };
}

/**
 * The people an office may reserve for, found by document or name: accredited in the division
 * (active) or with a mobilisation request sent for it; a requester's, of its company only.
 */
export async function candidates(
  db: Db,
  registry: Registry,
  office: CampOffice,
  search: string,
): Promise<Row[]> {
  const table = (name: string) => registry.require(name).table;
  const pattern = containsPattern(search.trim().toUpperCase());
  const grounds = (source: 'accreditation' | 'request') => {
    let q = db
      .selectFrom(`${table(source)} as g`)
      .innerJoin(`${table('person')} as p`, 'p.IdPersona', 'g.IdPersona')
      .leftJoin(`${table('company')} as c`, 'c.IdCompania', 'g.IdCompania')
      .select([
        'p.IdPersona',
        'p.Documento',
        'p.Apellido',
        'p.Nombre',
        'c.Alias as Compania',
        'g.FechaInicio',
        'g.FechaFin',
      ])
      .where('g.IdCliente', '=', office.clientId)
      .where('g.IdDivision', '=', office.divisionId)
      .where((eb) =>
        eb.or(['p.Documento', 'p.Apellido', 'p.Nombre'].map((f) => likeEscaped(eb.ref(f), pattern))),
      );
    q =
      source === 'accreditation'
        ? q.where('g.Estado', '=', 'A')
        : q.where('g.TipoSolicitud', '=', 'M').where('g.EstadoAprobacion', 'in', ['P', 'O']);
    if (office.companyId !== undefined) q = q.where('g.IdCompania', '=', office.companyId);
    return q.orderBy('p.Apellido').limit(20).execute() as Promise<Row[]>;
  };
  const seen = new Set<number>();
  const out: Row[] = [];
  for (const [source, rows] of [
    ['A', await grounds('accreditation')],
    ['S', await grounds('request')],
  ] as const)
    for (const r of rows) {
      if (seen.has(Number(r.IdPersona))) continue;
      seen.add(Number(r.IdPersona));
      out.push({
        IdPersona: Number(r.IdPersona),
        Documento: r.Documento,
        Persona: `${r.Apellido} ${r.Nombre}`,
        Compania: r.Compania ?? null,
        Origen: source,
        FechaInicio: day(r.FechaInicio),
        FechaFin: day(r.FechaFin),
      });
    }
  return out.slice(0, 20);
}

/** The office's camps for the screens' selects: each with its blocks, and the room types. */
export async function campChoices(db: Db, registry: Registry, office: CampOffice) {
  const table = (name: string) => registry.require(name).table;
  const ids = office.camps.size ? [...office.camps] : [-1];
  const camps = (await db
    .selectFrom(table('camp'))
    .select([
      'IdCampamento',
      'Descripcion',
      'DiasMaximoEstadia',
      'HoraSalida',
      'LiberarReserva',
      'DiasLiberarReserva',
    ])
    .where('IdCampamento', 'in', ids)
    .orderBy('Descripcion')
    .execute()) as Row[];
  const modules = (await db
    .selectFrom(table('hotel-module'))
    .select(['IdModuloHotel', 'IdCampamento', 'Descripcion', 'Genero'])
    .where('IdCampamento', 'in', ids)
    .where('Activo', '=', 'S')
    .orderBy('Descripcion')
    .execute()) as Row[];
  const types = (await db
    .selectFrom(table('room-type'))
    .select(['IdTipoHabitacion', 'Descripcion'])
    .where('IdCliente', '=', office.clientId)
    .where('Activo', '=', 'S')
    .orderBy('Descripcion')
    .execute()) as Row[];
  return {
    administrador: office.companyId === undefined,
    asignado: true,
    campamentos: camps.map((c) => ({
      ...c,
      modulos: modules.filter((m) => Number(m.IdCampamento) === Number(c.IdCampamento)),
    })),
    tiposHabitacion: types,
  };
}
