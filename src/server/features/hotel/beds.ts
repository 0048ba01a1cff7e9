import {
  type GridBed,
  type Half,
  halvesOf,
  type LodgingTurn,
  type PlacementBed,
} from '../../../shared/hotel.js';
import type { Db } from '../../db/connection.js';
import type { Registry } from '../../registry.js';

/** A bed of a camp with what placement, the grid and the messages need of it. */
export interface CampBed extends PlacementBed, GridBed {}

type Row = Record<string, unknown>;

/**
 * The beds of some camps (or of one block, or of a room type), in the order a crew fills them:
 * camp, block, room, bed. A bed is in service when it, its room and its block are active.
 */
export async function campBeds(
  db: Db,
  registry: Registry,
  clientId: number,
  camps: readonly number[],
  filter: { IdModuloHotel?: number; IdTipoHabitacion?: number; inService?: boolean } = {},
): Promise<CampBed[]> {
  if (!camps.length) return [];
  const table = (name: string) => registry.require(name).table;
  let query = db
    .selectFrom(`${table('bed')} as b`)
    .innerJoin(`${table('room')} as r`, 'r.IdHabitacion', 'b.IdHabitacion')
    .innerJoin(`${table('hotel-module')} as m`, 'm.IdModuloHotel', 'r.IdModuloHotel')
    .innerJoin(`${table('camp')} as c`, 'c.IdCampamento', 'm.IdCampamento')
    .leftJoin(`${table('room-type')} as t`, 't.IdTipoHabitacion', 'r.IdTipoHabitacion')
    .select([
      'b.IdCama',
      'b.Codigo',
      'b.Exclusiva',
      'b.Activo as CamaActiva',
      'r.Activo as HabitacionActiva',
      'm.Activo as ModuloActivo',
      'r.IdHabitacion',
      'r.Numero as Habitacion',
      'r.IdTipoHabitacion',
      't.Descripcion as TipoHabitacion',
      'm.IdModuloHotel',
      'm.Descripcion as Modulo',
      'm.Genero',
      'c.IdCampamento',
      'c.Descripcion as Campamento',
    ])
    .where('b.IdCliente', '=', clientId)
    .where('m.IdCampamento', 'in', [...camps]);
  if (filter.IdModuloHotel !== undefined) query = query.where('m.IdModuloHotel', '=', filter.IdModuloHotel);
  if (filter.IdTipoHabitacion !== undefined)
    query = query.where('r.IdTipoHabitacion', '=', filter.IdTipoHabitacion);
  if (filter.inService)
    query = query.where('b.Activo', '=', 'S').where('r.Activo', '=', 'S').where('m.Activo', '=', 'S');
  const rows = (await query.execute()) as Row[];
  // Sorted here: the database's collation-aware sort of four text columns costs more than the query.
  const key = (r: Row) => `${r.Campamento}\u0000${r.Modulo}\u0000${r.Habitacion}\u0000${r.Codigo}`;
  const keyed = rows
    .map((r) => [key(r), r] as const)
    .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  return keyed.map(([, r]) => ({
    IdCama: Number(r.IdCama),
    Codigo: String(r.Codigo),
    Exclusiva: r.Exclusiva === 'S',
    EnServicio: r.CamaActiva === 'S' && r.HabitacionActiva === 'S' && r.ModuloActivo === 'S',
    IdHabitacion: Number(r.IdHabitacion),
    Habitacion: String(r.Habitacion),
    IdTipoHabitacion: Number(r.IdTipoHabitacion),
    TipoHabitacion: String(r.TipoHabitacion ?? ''),
    IdModuloHotel: Number(r.IdModuloHotel),
    Modulo: String(r.Modulo),
    Genero: (r.Genero as CampBed['Genero']) ?? 'X',
    IdCampamento: Number(r.IdCampamento),
    Campamento: String(r.Campamento),
  }));
}

/** The beds read last per database, with the version of the tables they were read at. */
const kept = new WeakMap<Db, Map<string, { version: string; beds: CampBed[] }>>();

/**
 * What the tables behind a camp's beds look like now: per table, its rows, and the latest write
 * (every write through the API stamps its creation or modification). A bed, room, block or camp
 * added, changed or removed changes it.
 */
async function bedsVersion(db: Db, registry: Registry, clientId: number): Promise<string> {
  const parts = await Promise.all(
    ['bed', 'room', 'hotel-module', 'camp'].map(
      (name) =>
        db
          .selectFrom(registry.require(name).table)
          .select((eb) => [
            eb.fn.countAll().as('n'),
            eb.fn.max('FechaCreacion').as('c'),
            eb.fn.max('FechaModificacion').as('m'),
          ])
          .where('IdCliente', '=', clientId)
          .executeTakeFirstOrThrow() as Promise<Row>,
    ),
  );
  return parts.map((p) => `${p.n}|${p.c}|${p.m}`).join('/');
}

/**
 * campBeds(), kept between calls while no bed, room, block or camp of the client has been written:
 * the grid of a large camp is asked for again and again while its beds seldom change.
 */
export async function keptCampBeds(
  db: Db,
  registry: Registry,
  clientId: number,
  camps: readonly number[],
  filter: { IdModuloHotel?: number; IdTipoHabitacion?: number } = {},
): Promise<CampBed[]> {
  const key = JSON.stringify([
    clientId,
    camps,
    filter.IdModuloHotel ?? null,
    filter.IdTipoHabitacion ?? null,
  ]);
  const version = await bedsVersion(db, registry, clientId);
  const store = kept.get(db) ?? new Map<string, { version: string; beds: CampBed[] }>();
  kept.set(db, store);
  const found = store.get(key);
  if (found?.version === version) return found.beds;
  const beds = await campBeds(db, registry, clientId, camps, filter);
  if (store.size > 50) store.clear();
  store.set(key, { version, beds });
  return beds;
}

/**
 * The nights already held on some beds between two dates (departure excluded), as
 * `${IdCama}|${date}|${half}`: what placement must not take.
 */
export async function heldNights(
  db: Db,
  registry: Registry,
  clientId: number,
  camps: readonly number[],
  from: string,
  to: string,
): Promise<Set<string>> {
  const table = (name: string) => registry.require(name).table;
  const rows = (await db
    .selectFrom(`${table('bed-night')} as n`)
    .innerJoin(`${table('reservation')} as s`, 's.IdReserva', 'n.IdReserva')
    .select(['n.IdCama', 'n.Fecha', 'n.Mitad'])
    .where('n.IdCliente', '=', clientId)
    .where('s.IdCampamento', 'in', [...camps])
    .where('n.Fecha', '>=', from)
    .where('n.Fecha', '<', to)
    .execute()) as Array<{ IdCama: number; Fecha: unknown; Mitad: Half }>;
  return new Set(rows.map((r) => `${Number(r.IdCama)}|${String(r.Fecha).slice(0, 10)}|${r.Mitad}`));
}

/**
 * A guest still checked in after their departure day keeps the bed: tonight's night of each such
 * stay in the camps is held in its name (the bed-night's unique keys then refuse anyone else on
 * that bed tonight, whoever writes at the same time). Written before any placement reads the
 * held nights; a night already held by someone else stays theirs. Checking out frees it.
 */
export async function holdOverstays(
  db: Db,
  registry: Registry,
  clientId: number,
  camps: readonly number[],
  today: string,
  at: string,
): Promise<void> {
  if (!camps.length) return;
  const table = (name: string) => registry.require(name).table;
  const stays = (await db
    .selectFrom(`${table('reservation')} as s`)
    .innerJoin(`${table('bed')} as b`, 'b.IdCama', 's.IdCama')
    .select(['s.IdReserva', 's.IdCama', 's.IdPersona', 's.Turno', 'b.Exclusiva'])
    .where('s.IdCliente', '=', clientId)
    .where('s.IdCampamento', 'in', [...camps])
    .where('s.Estado', '=', 'I')
    .where('s.FechaFin', '<=', today)
    .execute()) as Row[];
  if (!stays.length) return;
  const rows = stays.flatMap((s) =>
    halvesOf(s.Turno as LodgingTurn, s.Exclusiva === 'S').map((half) => ({
      IdCliente: clientId,
      IdCama: Number(s.IdCama),
      Fecha: today,
      Mitad: half,
      IdReserva: Number(s.IdReserva),
      IdPersona: Number(s.IdPersona),
      IdUsuarioCreacion: 'SISTEMA',
      FechaCreacion: at,
    })),
  );
  await db
    .insertInto(table('bed-night'))
    .values(rows)
    .onConflict((oc) => oc.doNothing())
    .execute();
}

/** A room type's name, for the messages that name it. */
export async function roomTypeName(
  db: Db,
  registry: Registry,
  id: number | null,
): Promise<string | undefined> {
  if (id === null) return undefined;
  const row = (await db
    .selectFrom(registry.require('room-type').table)
    .select('Descripcion')
    .where('IdTipoHabitacion', '=', id)
    .executeTakeFirst()) as { Descripcion: string } | undefined;
  return row?.Descripcion;
}
