import type { Accreditation, Credential } from '../../../shared/access/decision.js';
import { boundedByToken } from '../../../shared/badge-token.js';
import { timeZoneOf } from '../../../shared/dates.js';
import type {
  CostAssignment,
  Diner,
  DiningGroup,
  DiningService,
  DiningSite,
  GroupSchedule,
  MealPresented,
  PersonCategory,
} from '../../../shared/dining.js';
import type { Db } from '../../db/connection.js';
import { ttlCache } from '../../db/ttl-cache.js';
import type { Registry } from '../../registry.js';
import { findPresented } from '../../services/site/loader.js';

/** The entity tables the dining calls read and write. */
export function diningTables(registry: Registry) {
  const table = (name: string) => registry.require(name).table;
  const members = registry.require('dining-group').references.find((r) => r.field === 'Companias')?.many;
  if (!members) throw new Error('dining-group has no company links');
  return {
    groupCompanies: members.table,
    consumption: table('consumption'),
    room: table('dining-room'),
    type: table('dining-type'),
    service: table('dining-service'),
    group: table('dining-group'),
    schedule: table('dining-group-schedule'),
    assignment: table('dining-cost-assignment'),
    category: table('cost-category'),
    personCategory: table('person-cost-category'),
    person: table('person'),
    position: table('position'),
    company: table('company'),
    accreditation: table('accreditation'),
    division: table('division'),
  };
}
export type DiningTables = ReturnType<typeof diningTables>;

const num = (v: unknown) => (v == null ? undefined : Number(v));

/** A dining room with what the calls need besides the decision's site: its client and time zone. */
export interface LoadedRoom {
  IdComedor: number;
  IdCliente: number;
  IdDivision: number;
  Descripcion: string;
  IdEquipo?: number;
  timeZone: string;
}

/** Rooms with their division's time zone. */
function roomsWhere(db: Db, tables: DiningTables) {
  return db
    .selectFrom(`${tables.room} as r`)
    .innerJoin(`${tables.division} as v`, 'v.IdDivision', 'r.IdDivision')
    .select(['r.IdComedor', 'r.IdCliente', 'r.IdDivision', 'r.Descripcion', 'r.IdEquipo', 'v.IdPais']);
}

const loadedRoom = (row: Record<string, unknown>): LoadedRoom => ({
  IdComedor: Number(row.IdComedor),
  IdCliente: Number(row.IdCliente),
  IdDivision: Number(row.IdDivision),
  Descripcion: String(row.Descripcion),
  IdEquipo: num(row.IdEquipo),
  timeZone: timeZoneOf(row.IdPais as string | null),
});

/** A room of the client, with its division's time zone. */
export async function loadRoom(
  db: Db,
  tables: DiningTables,
  roomId: number,
): Promise<LoadedRoom | undefined> {
  const row = await roomsWhere(db, tables).where('r.IdComedor', '=', roomId).executeTakeFirst();
  return row && loadedRoom(row);
}

/** The rooms whose reader is this equipment. */
export async function roomsOfEquipment(
  db: Db,
  tables: DiningTables,
  equipmentId: number,
): Promise<LoadedRoom[]> {
  return (await roomsWhere(db, tables).where('r.IdEquipo', '=', equipmentId).execute()).map(loadedRoom);
}

/** A dining room's configuration: the room and its type, services, groups with their companies, schedules and cost assignments. */
export async function loadDiningSite(db: Db, tables: DiningTables, roomId: number): Promise<DiningSite> {
  const room = await db
    .selectFrom(`${tables.room} as r`)
    .innerJoin(`${tables.type} as t`, 't.IdTipoComedor', 'r.IdTipoComedor')
    .select([
      'r.IdComedor',
      'r.IdCliente',
      'r.IdDivision',
      'r.Descripcion',
      'r.Capacidad',
      'r.Activo',
      't.Capacidad as CapacidadTipo',
      't.AplicaCapacidad',
      't.DistribuirCostoCategoria',
      't.Activo as TipoActivo',
    ])
    .where('r.IdComedor', '=', roomId)
    .executeTakeFirstOrThrow();
  const division = Number(room.IdDivision);
  const [services, groups, companies, schedules, assignments] = await Promise.all([
    db
      .selectFrom(tables.service)
      .select([
        'IdServicio',
        'Descripcion',
        'Orden',
        'Costo',
        'NumeroConsumos',
        'Exclusivo',
        'Especial',
        'HoraInicio',
        'HoraFin',
        'Activo',
      ])
      .where('IdComedor', '=', roomId)
      .execute(),
    db
      .selectFrom(tables.group)
      .select(['IdGrupoComedor', 'Activo'])
      .where('IdComedor', '=', roomId)
      .execute(),
    db
      .selectFrom(`${tables.groupCompanies} as l`)
      .innerJoin(`${tables.group} as g`, 'g.IdGrupoComedor', 'l.IdGrupoComedor')
      .select(['l.IdGrupoComedor', 'l.Valor'])
      .where('g.IdComedor', '=', roomId)
      .execute(),
    db
      .selectFrom(`${tables.schedule} as s`)
      .innerJoin(`${tables.group} as g`, 'g.IdGrupoComedor', 's.IdGrupoComedor')
      .select(['s.IdGrupoComedor', 's.Dia', 's.IdServicio', 's.HoraInicio', 's.HoraFin', 's.Activo'])
      .where('g.IdComedor', '=', roomId)
      .execute(),
    db
      .selectFrom(tables.assignment)
      .select(['IdServicio', 'IdTipoPosicion', 'IdCategoriaCosto', 'AsumeCosto', 'Porcentaje', 'Activo'])
      .where('IdCliente', '=', Number(room.IdCliente))
      .where('IdDivision', '=', division)
      .execute(),
  ]);
  const members = new Map<number, number[]>();
  for (const c of companies) {
    const id = Number(c.IdGrupoComedor);
    members.set(id, [...(members.get(id) ?? []), Number(c.Valor)]);
  }
  return {
    room: {
      IdComedor: roomId,
      IdDivision: division,
      Descripcion: String(room.Descripcion),
      Capacidad: num(room.Capacidad) ?? null,
      // A room of an inactive type serves nobody either.
      Activo: room.Activo === 'S' && room.TipoActivo === 'S' ? 'S' : 'N',
    },
    type: {
      Capacidad: num(room.CapacidadTipo) ?? null,
      AplicaCapacidad: room.AplicaCapacidad,
      DistribuirCostoCategoria: room.DistribuirCostoCategoria,
    },
    services: services.map(
      (s): DiningService => ({
        IdServicio: Number(s.IdServicio),
        Descripcion: String(s.Descripcion),
        Orden: Number(s.Orden),
        Costo: Number(s.Costo),
        NumeroConsumos: Number(s.NumeroConsumos),
        Exclusivo: s.Exclusivo,
        Especial: s.Especial,
        HoraInicio: s.HoraInicio,
        HoraFin: s.HoraFin,
        Activo: s.Activo,
      }),
    ),
    groups: groups.map(
      (g): DiningGroup => ({
        IdGrupoComedor: Number(g.IdGrupoComedor),
        Companias: members.get(Number(g.IdGrupoComedor)) ?? [],
        Activo: g.Activo,
      }),
    ),
    schedules: schedules.map(
      (s): GroupSchedule => ({
        IdGrupoComedor: Number(s.IdGrupoComedor),
        Dia: Number(s.Dia) as GroupSchedule['Dia'],
        IdServicio: Number(s.IdServicio),
        HoraInicio: s.HoraInicio,
        HoraFin: s.HoraFin,
        Activo: s.Activo,
      }),
    ),
    assignments: assignments.map(
      (a): CostAssignment => ({
        IdServicio: Number(a.IdServicio),
        IdTipoPosicion: num(a.IdTipoPosicion) ?? null,
        IdCategoriaCosto: num(a.IdCategoriaCosto) ?? null,
        AsumeCosto: a.AsumeCosto,
        Porcentaje: Number(a.Porcentaje),
        Activo: a.Activo,
      }),
    ),
  };
}

/** How long a room's configuration is reused by the readers of one server process. */
export const DINING_SITE_CACHE_MS = 2_000;

/** A room's configuration kept for two seconds (a change in the console reaches the readers within that). */
export function diningSiteCache(db: Db, tables: DiningTables, now: () => number = Date.now) {
  return ttlCache((roomId: number) => loadDiningSite(db, tables, roomId), DINING_SITE_CACHE_MS, now);
}

/** The diner's name, document and company, for the reader's screen and the lists. */
export interface DinerCard {
  Nombres: string;
  Documento: string;
  Compania?: string;
}

/** Who was presented: the credential found and the person's rows for the room's division. */
export async function loadDiner(
  db: Db,
  tables: DiningTables,
  clientId: number,
  divisionId: number,
  presented: MealPresented | { kind: 'person'; IdPersona: number },
): Promise<{ credential?: Credential; diner?: Diner; card?: DinerCard }> {
  const found =
    presented.kind === 'person'
      ? { personId: presented.IdPersona }
      : await findPresented(db, clientId, presented);
  const { credential: stored, personId } = found as { credential?: Credential; personId?: number };
  const credential = boundedByToken(stored, presented.kind === 'credential' ? presented.Hasta : undefined);
  if (personId == null) return { credential };
  const [person, accreditations, categories] = await Promise.all([
    db
      .selectFrom(`${tables.person} as p`)
      .leftJoin(`${tables.position} as o`, 'o.IdPosicion', 'p.IdPosicion')
      .leftJoin(`${tables.company} as c`, 'c.IdCompania', 'p.IdCompania')
      .select([
        'p.IdPersona',
        'p.IdCliente',
        'p.Condicion',
        'p.Inactivo',
        'p.ValidarRequisitosAcceso',
        'p.IdCompania',
        'p.IdTipoPosicion',
        'o.IdTipoPosicion as TipoDePosicion',
        'p.Nombre',
        'p.Apellido',
        'p.Documento',
        'c.Compania',
      ])
      .where('p.IdPersona', '=', personId)
      .executeTakeFirst(),
    db
      .selectFrom(tables.accreditation)
      .select(['IdDivision', 'IdContrato', 'IdCompania', 'FechaInicio', 'FechaFin', 'Estado'])
      .where('IdCliente', '=', clientId)
      .where('IdDivision', '=', divisionId)
      .where('IdPersona', '=', personId)
      .execute(),
    db
      .selectFrom(tables.personCategory)
      .select(['IdCategoriaCosto', 'FechaInicio', 'FechaFin', 'Activo'])
      .where('IdCliente', '=', clientId)
      .where('IdPersona', '=', personId)
      .execute(),
  ]);
  if (!person || Number(person.IdCliente) !== clientId) return { credential };
  const records = accreditations.map((r) => ({
    accreditation: {
      IdDivision: Number(r.IdDivision),
      IdContrato: Number(r.IdContrato),
      FechaInicio: String(r.FechaInicio),
      FechaFin: String(r.FechaFin),
      Estado: r.Estado as Accreditation['Estado'],
    },
    company: num(r.IdCompania),
  }));
  // The meal is charged to the company of the accreditation in force (the contractor the person
  // works for on this site), else of the most recent one, else the person's own.
  const byLatest = [...records].sort((a, b) =>
    b.accreditation.FechaFin.localeCompare(a.accreditation.FechaFin),
  );
  const company =
    byLatest.find((r) => r.accreditation.Estado === 'A')?.company ??
    byLatest[0]?.company ??
    num(person.IdCompania);
  return {
    credential,
    diner: {
      person: {
        IdPersona: Number(person.IdPersona),
        Condicion: person.Condicion,
        Inactivo: person.Inactivo ?? 'N',
        ValidarRequisitosAcceso: person.ValidarRequisitosAcceso ?? 'S',
      },
      accreditations: records.map((r) => r.accreditation),
      IdCompania: company,
      IdTipoPosicion: num(person.IdTipoPosicion) ?? num(person.TipoDePosicion),
      categories: categories.map(
        (c): PersonCategory => ({
          IdCategoriaCosto: Number(c.IdCategoriaCosto),
          FechaInicio: String(c.FechaInicio),
          FechaFin: (c.FechaFin as string | null) ?? null,
          Activo: c.Activo,
        }),
      ),
    },
    card: {
      Nombres: `${person.Apellido ?? ''} ${person.Nombre ?? ''}`.replace(/\s+/g, ' ').trim(),
      Documento: String(person.Documento),
      ...(person.Compania != null && { Compania: String(person.Compania) }),
    },
  };
}
