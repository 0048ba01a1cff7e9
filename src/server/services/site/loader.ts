import type { ExpressionBuilder, SelectQueryBuilder } from 'kysely';
import type {
  AccessAssignment,
  AccessGroup,
  AccessProfile,
  Accreditation,
  Credential,
  Door,
  Driver,
  Exoneration,
  HeldQualification,
  Holder,
  KeptRequirement,
  MaintenanceDue,
  PersonHolder,
  Presented,
  QualificationKind,
  RequiredQualification,
  Restriction,
  Schedule,
  ScheduleInterval,
  SiteAccess,
  Zone,
} from '../../../shared/access/decision.js';
import { timeZoneOf } from '../../../shared/dates.js';
import { type Db, isPostgres } from '../../db/connection.js';
import { type Answers, ask, type Probe } from '../../db/probes.js';

type Row = Record<string, unknown>;
// biome-ignore lint/suspicious/noExplicitAny: tables come from the schemas at run time
type AnySelect = SelectQueryBuilder<any, any, any>;

/** A door with what the marking records besides the decision's columns. */
export interface LoadedDoor extends Door {
  IdCliente: number;
  IdPuntoControl: number | null;
}

/**
 * Something a door may require of a person besides the access rules (an induction today; tomorrow an
 * internal driving licence), declared by the feature that keeps it (Feature.qualifications): what the
 * division's doors and zones require, and what people hold. Every decision reads them through the
 * site and the holders loaded here.
 */
export interface QualificationSource {
  kind: QualificationKind;
  /** The division's active rules: which doors and zones require what, in a fixed order. */
  required(db: Db, clientId: number, divisionId: number): Promise<RequiredQualification[]>;
  /**
   * What these people (at most 500) hold and until when, a revoked one not held: the query of its
   * rows (asked with the holders' other rows, in one statement) and what one of them says.
   */
  held(db: Db, clientId: number, personIds: Ids): HeldQuery;
}

export interface HeldQuery {
  query: AnySelect;
  read(row: Row): HeldQualification & { personId: number };
}

const num = (v: unknown) => (v == null ? undefined : Number(v));
const str = (v: unknown) => (v == null ? undefined : String(v));

/** Most values in one `in` list. */
const IN_LIST = 500;

/** The rows `read` gives for each slice of at most IN_LIST values, one statement after another; none for none. */
async function inChunks<T, R>(values: T[], read: (chunk: T[]) => Promise<R[]>): Promise<R[]> {
  const rows: R[] = [];
  for (let i = 0; i < values.length; i += IN_LIST) rows.push(...(await read(values.slice(i, i + IN_LIST))));
  return rows;
}

/**
 * `column in (values)`, or `column = value` for a single one: the statement of one presentation
 * (a gate's decision) keeps a fixed text, which PostgreSQL prepares once per connection
 * (connection.ts) instead of planning it at every call.
 */
export const among =
  (column: string, values: Ids) =>
  // biome-ignore lint/suspicious/noExplicitAny: the tables come from the schemas at run time (Db)
  (eb: ExpressionBuilder<any, any>) =>
    !Array.isArray(values)
      ? eb(column, '=', values as AnySelect)
      : values.length === 1
        ? eb(column, '=', values[0])
        : eb(column, 'in', values);

/**
 * Keys given as a list, or as the query that finds the one key (one presentation's holder): an
 * equality with a scalar subquery, which the databases answer by the key's index.
 */
export type Ids = readonly unknown[] | AnySelect;

/**
 * Rows by the number in their `owner` column, each owner's in the order of `columns` (numbers
 * compared as numbers, the rest as text), the last one the primary key: the order the decision
 * reads them in (the first expired requirement, the first restriction that applies are named), so
 * it does not hang on how a statement was planned, however many holders it read.
 */
function byOwner<R extends Record<string, unknown>>(
  rows: R[],
  owner: string,
  columns: string[],
): Map<number, R[]> {
  const compare = (a: R, b: R) => {
    for (const column of columns) {
      const x = a[column];
      const y = b[column];
      if (x === y || (x == null && y == null)) continue;
      if (x == null) return -1; // nulls first
      if (y == null) return 1;
      if (typeof x === 'number' && typeof y === 'number') return x - y;
      const [u, v] = [String(x), String(y)];
      if (u !== v) return u < v ? -1 : 1;
    }
    return 0;
  };
  const map = new Map<number, R[]>();
  for (const row of [...rows].sort(compare)) {
    const id = Number(row[owner]);
    const list = map.get(id);
    if (list) list.push(row);
    else map.set(id, [row]);
  }
  return map;
}

/** The doors of these ids, each with its site's time zone; an unknown id is left out. */
export async function loadDoors(
  db: Db,
  doorIds: number[],
): Promise<Map<number, { door: LoadedDoor; timeZone: string }>> {
  const rows = await inChunks([...new Set(doorIds)], (chunk) =>
    db
      .selectFrom('access_door as d')
      .innerJoin('system_division as v', 'v.IdDivision', 'd.IdDivision')
      .select([
        'd.IdPuerta',
        'd.IdCliente',
        'd.IdDivision',
        'd.IdZona',
        'd.IdPuntoControl',
        'd.Sentido',
        'd.Activo',
        'v.IdPais',
      ])
      .where(among('d.IdPuerta', chunk))
      .execute(),
  );
  return new Map(
    rows.map((row) => [
      Number(row.IdPuerta),
      {
        door: {
          IdPuerta: Number(row.IdPuerta),
          IdCliente: Number(row.IdCliente),
          IdDivision: Number(row.IdDivision),
          IdZona: Number(row.IdZona),
          IdPuntoControl: num(row.IdPuntoControl) ?? null,
          Sentido: row.Sentido,
          Activo: row.Activo,
        },
        timeZone: timeZoneOf(row.IdPais),
      },
    ]),
  );
}

export async function loadDoor(
  db: Db,
  doorId: number,
): Promise<{ door: LoadedDoor; timeZone: string } | undefined> {
  return (await loadDoors(db, [doorId])).get(doorId);
}

/**
 * The division's access configuration: profiles, groups with their doors, schedules, zones, and what
 * its doors and zones require of a person (every source's qualifications).
 */
export async function loadSite(
  db: Db,
  clientId: number,
  divisionId: number,
  sources: readonly QualificationSource[],
): Promise<SiteAccess> {
  const [site, required] = await Promise.all([
    loadAccessRules(db, clientId, divisionId),
    Promise.all(sources.map((s) => s.required(db, clientId, divisionId))),
  ]);
  return { ...site, qualifications: required.flat() };
}

/** The division's access rules: profiles, groups with their doors, schedules and zones. */
async function loadAccessRules(db: Db, clientId: number, divisionId: number): Promise<SiteAccess> {
  const [profiles, profileGroups, groups, groupDoors, schedules, intervals, zones] = await Promise.all([
    db
      .selectFrom('access_access_profile')
      .select(['IdPerfilAcceso', 'ValidarRequisitos', 'Activo'])
      .where('IdCliente', '=', clientId)
      .where('IdDivision', '=', divisionId)
      .execute(),
    db
      .selectFrom('access_access_profile_grupos as l')
      .innerJoin('access_access_profile as p', 'p.IdPerfilAcceso', 'l.IdPerfilAcceso')
      .select(['l.IdPerfilAcceso', 'l.Valor'])
      .where('p.IdDivision', '=', divisionId)
      .execute(),
    db
      .selectFrom('access_access_group')
      .select(['IdGrupoAcceso', 'IdHorario', 'Activo'])
      .where('IdCliente', '=', clientId)
      .where('IdDivision', '=', divisionId)
      .execute(),
    db
      .selectFrom('access_access_group_puertas as l')
      .innerJoin('access_access_group as g', 'g.IdGrupoAcceso', 'l.IdGrupoAcceso')
      .select(['l.IdGrupoAcceso', 'l.Valor'])
      .where('g.IdDivision', '=', divisionId)
      .execute(),
    db
      .selectFrom('access_schedule')
      .select(['IdHorario', 'Activo'])
      .where('IdCliente', '=', clientId)
      .execute(),
    db
      .selectFrom('access_schedule_interval as i')
      .innerJoin('access_schedule as s', 's.IdHorario', 'i.IdHorario')
      .select(['i.IdHorario', 'i.Dia', 'i.HoraInicio', 'i.HoraFin', 'i.Activo'])
      .where('s.IdCliente', '=', clientId)
      .execute(),
    db
      .selectFrom('access_zone')
      .select(['IdZona', 'IdZonaPadre'])
      .where('IdCliente', '=', clientId)
      .where('IdDivision', '=', divisionId)
      .execute(),
  ]);
  const listOf = (rows: Array<Record<string, unknown>>, owner: string) => {
    const map = new Map<number, number[]>();
    for (const r of rows) {
      const id = Number(r[owner]);
      map.set(id, [...(map.get(id) ?? []), Number(r.Valor)]);
    }
    return map;
  };
  const grupos = listOf(profileGroups, 'IdPerfilAcceso');
  const puertas = listOf(groupDoors, 'IdGrupoAcceso');
  return {
    profiles: profiles.map(
      (p): AccessProfile => ({
        IdPerfilAcceso: Number(p.IdPerfilAcceso),
        Grupos: (grupos.get(Number(p.IdPerfilAcceso)) ?? []) as AccessProfile['Grupos'],
        ValidarRequisitos: p.ValidarRequisitos,
        Activo: p.Activo,
      }),
    ),
    groups: groups.map(
      (g): AccessGroup => ({
        IdGrupoAcceso: Number(g.IdGrupoAcceso),
        IdHorario: Number(g.IdHorario),
        Puertas: (puertas.get(Number(g.IdGrupoAcceso)) ?? []) as AccessGroup['Puertas'],
        Activo: g.Activo,
      }),
    ),
    schedules: schedules.map((s): Schedule => ({ IdHorario: Number(s.IdHorario), Activo: s.Activo })),
    intervals: intervals.map(
      (i): ScheduleInterval => ({
        IdHorario: Number(i.IdHorario),
        Dia: Number(i.Dia) as ScheduleInterval['Dia'],
        HoraInicio: i.HoraInicio,
        HoraFin: i.HoraFin,
        Activo: i.Activo,
      }),
    ),
    zones: zones.map((z): Zone => ({ IdZona: Number(z.IdZona), IdZonaPadre: num(z.IdZonaPadre) })),
  };
}

/** What was presented, found: its credential and whose it is, or the person or vehicle's id. */
export interface Found {
  credential?: Credential;
  personId?: number;
  vehicleId?: number;
}

/**
 * What was presented, found: the client's credential of that number and whose it is, the person
 * of that document, or the vehicle of that plate (the gate's and the dining readers' lookup).
 */
export async function findPresented(db: Db, clientId: number, presented: Presented): Promise<Found> {
  return (await findAllPresented(db, clientId, [presented]))[0];
}

/**
 * `findPresented` for many presentations of one client at once: one statement per kind presented
 * (and per IN_LIST distinct values), each answer in the order asked. A document two people share
 * (under different document types) is the one of the lower id.
 */
export async function findAllPresented(db: Db, clientId: number, presented: Presented[]): Promise<Found[]> {
  const distinct = <K extends Presented['kind']>(
    kind: K,
    value: (p: Extract<Presented, { kind: K }>) => string,
  ) => [
    ...new Set(presented.filter((p): p is Extract<Presented, { kind: K }> => p.kind === kind).map(value)),
  ];
  const [credentials, people, vehicles] = await Promise.all([
    inChunks(
      distinct('credential', (p) => p.Numero),
      (chunk) =>
        db
          .selectFrom('identification_credential')
          .select(['IdPersona', 'IdVehiculo', 'Numero', 'FechaInicio', 'FechaFin', 'Activo'])
          .where('IdCliente', '=', clientId)
          .where(among('Numero', chunk))
          .execute(),
    ),
    inChunks(
      distinct('document', (p) => p.Documento),
      (chunk) =>
        db
          .selectFrom('administration_person')
          .select(['IdPersona', 'Documento'])
          .where('IdCliente', '=', clientId)
          .where(among('Documento', chunk))
          .execute(),
    ),
    inChunks(
      distinct('plate', (p) => p.Placa),
      (chunk) =>
        db
          .selectFrom('administration_vehicle')
          .select(['IdVehiculo', 'Placa'])
          .where('IdCliente', '=', clientId)
          .where(among('Placa', chunk))
          .execute(),
    ),
  ]);
  const credentialOf = new Map(credentials.map((row) => [String(row.Numero), row]));
  const firstBy = (rows: Array<Record<string, unknown>>, value: string, id: string) => {
    const map = new Map<string, number>();
    for (const row of [...rows].sort((a, b) => Number(a[id]) - Number(b[id])))
      if (!map.has(String(row[value]))) map.set(String(row[value]), Number(row[id]));
    return map;
  };
  const personOf = firstBy(people, 'Documento', 'IdPersona');
  const vehicleOf = firstBy(vehicles, 'Placa', 'IdVehiculo');
  return presented.map((p): Found => {
    if (p.kind === 'document') return { personId: personOf.get(p.Documento) };
    if (p.kind === 'plate') return { vehicleId: vehicleOf.get(p.Placa) };
    return credentialFound(credentialOf.get(p.Numero));
  });
}

/** A credential's row as found: the credential and whose it is. */
function credentialFound(row: Row | null | undefined): Found {
  if (!row) return {};
  const personId = num(row.IdPersona);
  const vehicleId = num(row.IdVehiculo);
  return {
    credential: {
      ...(personId != null && { IdPersona: personId }),
      ...(vehicleId != null && { IdVehiculo: vehicleId }),
      Numero: row.Numero as string,
      FechaInicio: row.FechaInicio as string,
      FechaFin: row.FechaFin as string,
      Activo: row.Activo as Credential['Activo'],
    },
    personId,
    vehicleId,
  };
}

/**
 * What one presentation names, as queries: the credential's row (by its number), and the person
 * and the vehicle it names: the credential's holder, the person of a document (the lower id when
 * two share it), the vehicle of a plate.
 */
function namedBy(db: Db, clientId: number, presented: Presented) {
  const lowest = (table: string, key: string, column: string, value: string) =>
    db
      .selectFrom(table)
      .select(key)
      .where('IdCliente', '=', clientId)
      .where(column, '=', value)
      .orderBy(key)
      .limit(1);
  if (presented.kind === 'document')
    return { person: lowest('administration_person', 'IdPersona', 'Documento', presented.Documento) };
  if (presented.kind === 'plate')
    return { vehicle: lowest('administration_vehicle', 'IdVehiculo', 'Placa', presented.Placa) };
  const card = db
    .selectFrom('identification_credential')
    .where('IdCliente', '=', clientId)
    .where('Numero', '=', presented.Numero)
    .limit(1);
  return {
    credential: {
      as: 'row',
      query: card.select(['IdPersona', 'IdVehiculo', 'Numero', 'FechaInicio', 'FechaFin', 'Activo']),
    } as Probe,
    person: card.select('IdPersona'),
    vehicle: card.select('IdVehiculo'),
  };
}

/** What was presented and its holder's rows, as the decision takes them. */
export interface Loaded {
  credential?: Credential;
  holder?: Holder;
  /** With a vehicle, the driver presented with it and their internal licences. */
  driver?: Driver;
}

/**
 * The driver presented with a vehicle (`code`: their card's number or their document): their name
 * and their active internal licences (type, last valid day); an unknown one holds none and is named
 * by the code.
 */
export async function loadDriver(db: Db, clientId: number, code: string): Promise<Driver> {
  const byCard = (await db
    .selectFrom('identification_credential')
    .select('IdPersona')
    .where('Numero', '=', code)
    .where('Activo', '=', 'S')
    .where('IdPersona', 'is not', null)
    .executeTakeFirst()) as { IdPersona: number } | undefined;
  const person = (await db
    .selectFrom('administration_person')
    .select(['IdPersona', 'Apellido', 'Nombre'])
    .where('IdCliente', '=', clientId)
    .$if(Boolean(byCard), (qb) => qb.where('IdPersona', '=', Number(byCard?.IdPersona)))
    .$if(!byCard, (qb) => qb.where('Documento', '=', code.toUpperCase()))
    .executeTakeFirst()) as { IdPersona: number; Apellido: string; Nombre: string } | undefined;
  if (!person) return { Nombre: code, licences: [] };
  const licences = (await db
    .selectFrom('administration_internal_licence')
    .select(['IdTipoVehiculo', 'FechaVencimiento'])
    .where('IdPersona', '=', person.IdPersona)
    .where('Activo', '=', 'S')
    .execute()) as Array<{ IdTipoVehiculo: number; FechaVencimiento: string }>;
  return {
    Nombre: `${person.Apellido}, ${person.Nombre}`,
    licences: licences.map((l) => ({
      IdTipoVehiculo: Number(l.IdTipoVehiculo),
      Vence: String(l.FechaVencimiento).slice(0, 10),
    })),
  };
}

/** One presentation to load: what was presented to a client's division. */
export interface HolderQuery {
  clientId: number;
  divisionId: number;
  presented: Presented;
}

/**
 * Who or what was presented: the credential found and its holder's rows for this division, the
 * same as `loadHolders` gives. On PostgreSQL in one statement, one round trip (the holder's rows
 * asked of the person or vehicle the presentation names); on SQLite, which has no round trips,
 * the holder is found first and its rows read by its key, which its planner answers faster.
 */
export async function loadHolder(
  db: Db,
  clientId: number,
  divisionId: number,
  presented: Presented,
  sources: readonly QualificationSource[],
): Promise<Loaded> {
  if (!isPostgres(db)) return (await loadHolders(db, [{ clientId, divisionId, presented }], sources))[0];
  const named = namedBy(db, clientId, presented);
  const people = named.person && peopleProbes(db, clientId, divisionId, named.person, sources);
  const asked = await ask(db, {
    ...(named.credential && { credential: named.credential }),
    ...people?.probes,
    ...(named.vehicle && vehicleProbes(db, clientId, divisionId, named.vehicle)),
  });
  const answer = people ? people.heard(asked) : asked;
  const person = people ? [...peopleFrom([answer]).values()][0] : undefined;
  const vehicle = named.vehicle ? [...vehiclesFrom([answer]).values()][0] : undefined;
  if (presented.kind !== 'credential') return { holder: person ?? vehicle };
  const { credential, personId, vehicleId } = credentialFound(answer.credential as Row | null);
  if (personId != null) return { credential, holder: person };
  if (vehicleId != null) return { credential, holder: vehicle };
  return { credential };
}

/**
 * `loadHolder` for many presentations at once (a device's batch): what was presented found per
 * client, then the rows of every person and vehicle found read per division, a few statements for
 * all of them (each holder's rows once, however often presented); each answer in the order asked,
 * the same as `loadHolder` would give it alone.
 */
export async function loadHolders(
  db: Db,
  queries: HolderQuery[],
  sources: readonly QualificationSource[],
): Promise<Loaded[]> {
  const found: Found[] = new Array(queries.length);
  const byClient = new Map<number, number[]>();
  for (const [i, { clientId }] of queries.entries()) {
    const indexes = byClient.get(clientId);
    if (indexes) indexes.push(i);
    else byClient.set(clientId, [i]);
  }
  for (const [clientId, indexes] of byClient) {
    const answers = await findAllPresented(
      db,
      clientId,
      indexes.map((i) => queries[i].presented),
    );
    indexes.forEach((i, k) => {
      found[i] = answers[k];
    });
  }
  // The people and vehicles found, per client and division.
  const wanted = new Map<
    string,
    { clientId: number; divisionId: number; people: Set<number>; vehicles: Set<number> }
  >();
  for (const [i, { clientId, divisionId }] of queries.entries()) {
    const { personId, vehicleId } = found[i];
    if (personId == null && vehicleId == null) continue;
    const key = `${clientId}:${divisionId}`;
    let site = wanted.get(key);
    if (!site) {
      site = { clientId, divisionId, people: new Set(), vehicles: new Set() };
      wanted.set(key, site);
    }
    if (personId != null) site.people.add(personId);
    else if (vehicleId != null) site.vehicles.add(vehicleId);
  }
  const holders = new Map<string, Holder>();
  for (const [key, { clientId, divisionId, people, vehicles }] of wanted) {
    const [persons, cars] = await Promise.all([
      loadPeople(db, clientId, divisionId, [...people], sources),
      loadVehicles(db, clientId, divisionId, [...vehicles]),
    ]);
    for (const [id, holder] of persons) holders.set(`${key}:P:${id}`, holder);
    for (const [id, holder] of cars) holders.set(`${key}:V:${id}`, holder);
  }
  return queries.map(({ clientId, divisionId }, i): Loaded => {
    const { credential, personId, vehicleId } = found[i];
    const site = `${clientId}:${divisionId}`;
    if (personId != null) return { credential, holder: holders.get(`${site}:P:${personId}`) };
    if (vehicleId != null) return { credential, holder: holders.get(`${site}:V:${vehicleId}`) };
    return { credential };
  });
}

const accreditationOf = (r: Record<string, unknown>): Accreditation => ({
  IdDivision: Number(r.IdDivision),
  IdContrato: Number(r.IdContrato),
  FechaInicio: String(r.FechaInicio),
  FechaFin: String(r.FechaFin),
  Estado: r.Estado as Accreditation['Estado'],
});
const requirementOf = (r: Record<string, unknown>): KeptRequirement => ({
  IdRequisito: Number(r.IdRequisito),
  Requisito: str(r.Requisito),
  Obligatorio: r.Obligatorio === 'S' ? 'S' : 'N',
  FechaVencimiento: str(r.FechaVencimiento),
});
const assignmentOf = (r: Record<string, unknown>): AccessAssignment => ({
  IdPerfilAcceso: Number(r.IdPerfilAcceso),
  FechaInicio: String(r.FechaInicio),
  FechaFin: String(r.FechaFin),
  Temporal: r.Temporal as AccessAssignment['Temporal'],
  Activo: r.Activo as AccessAssignment['Activo'],
});

/** What differs between a person's and a vehicle's accreditation rows: their key and access table. */
const OWNERS = {
  person: {
    key: 'IdPersona',
    access: 'access_person_access',
    accessKey: 'IdAccesoPersona',
    // A person's requirements carry the datum they were evaluated on, and are read by it first.
    requirementColumns: ['k.IdDatoEvaluar'],
    requirementOrder: ['IdDatoEvaluar', 'IdRequisitoAcreditado'],
  },
  vehicle: {
    key: 'IdVehiculo',
    access: 'access_vehicle_access',
    accessKey: 'IdAccesoVehiculo',
    requirementColumns: [],
    requirementOrder: ['IdRequisitoAcreditado'],
  },
} as const;

/**
 * A chunk of holders' accreditations, accredited requirements and access assignments in the
 * division, the three queries a person and a vehicle share.
 */
function accreditedQueries(
  db: Db,
  owner: keyof typeof OWNERS,
  clientId: number,
  divisionId: number,
  chunk: Ids,
): Record<string, Probe> {
  const o = OWNERS[owner];
  return {
    [`${owner}:accreditations`]: {
      as: 'rows',
      query: db
        .selectFrom('accreditation_accreditation')
        .select(['IdAcreditacion', o.key, 'IdDivision', 'IdContrato', 'FechaInicio', 'FechaFin', 'Estado'])
        .where('IdCliente', '=', clientId)
        .where('IdDivision', '=', divisionId)
        .where(among(o.key, chunk)),
    },
    [`${owner}:requirements`]: {
      as: 'rows',
      query: db
        .selectFrom('accreditation_accredited_requirement as k')
        .innerJoin('access_requirement as r', 'r.IdRequisito', 'k.IdRequisito')
        .select([
          'k.IdRequisitoAcreditado',
          `k.${o.key}`,
          ...o.requirementColumns,
          'k.IdRequisito',
          'r.Requisito',
          'r.Obligatorio',
          'k.FechaVencimiento',
        ])
        .where(among(`k.${o.key}`, chunk)),
    },
    [`${owner}:assignments`]: {
      as: 'rows',
      query: db
        .selectFrom(o.access)
        .select([o.accessKey, o.key, 'IdPerfilAcceso', 'FechaInicio', 'FechaFin', 'Temporal', 'Activo'])
        .where('IdCliente', '=', clientId)
        .where('IdDivision', '=', divisionId)
        .where(among(o.key, chunk)),
    },
  };
}

// biome-ignore lint/suspicious/noExplicitAny: the rows are as the schemas' columns are, checked by the decision
type Rows = Array<Record<string, any>>;

/**
 * The shared rows of the loaded chunks, by holder, in the order each one's lookup of a single
 * holder has read them (the index it goes by).
 */
function accreditedBy(owner: keyof typeof OWNERS, answers: Array<Record<string, unknown>>) {
  const o = OWNERS[owner];
  const all = (name: string) => answers.flatMap((a) => a[`${owner}:${name}`] as Rows);
  return {
    accreditations: byOwner(all('accreditations'), o.key, ['Estado', 'IdAcreditacion']),
    requirements: byOwner(all('requirements'), o.key, [...o.requirementOrder]),
    assignments: byOwner(all('assignments'), o.key, ['IdPerfilAcceso', 'FechaInicio', o.accessKey]),
  };
}

/**
 * The questions that load people (these ids, or those a query finds) with their rows for the
 * division and what they hold of every source's qualifications, asked in one statement; `heard`
 * reads a source's rows of the answer into `person:held`.
 */
function peopleProbes(
  db: Db,
  clientId: number,
  divisionId: number,
  ids: Ids,
  sources: readonly QualificationSource[],
): { probes: Record<string, Probe>; heard(answer: Answers): Answers } {
  const held = sources.map((source) => source.held(db, clientId, ids));
  return {
    probes: {
      'person:people': {
        as: 'rows',
        query: db
          .selectFrom('administration_person')
          .select(['IdPersona', 'Condicion', 'Inactivo', 'ValidarRequisitosAcceso'])
          .where(among('IdPersona', ids)),
      },
      'person:exonerations': {
        as: 'rows',
        query: db
          .selectFrom('access_exoneration')
          .select([
            'IdExoneracion',
            'IdPersona',
            'IdDivision',
            'IdRequisito',
            'FechaInicio',
            'FechaFin',
            'Activo',
          ])
          .where('IdCliente', '=', clientId)
          .where('IdDivision', '=', divisionId)
          .where(among('IdPersona', ids)),
      },
      'person:restrictions': {
        as: 'rows',
        query: db
          .selectFrom('access_restriction')
          .select([
            'IdRestriccion',
            'IdPersona',
            'IdDivision',
            'IdZona',
            'IdPuerta',
            'DiaCompleto',
            'FechaInicio',
            'FechaFin',
            'HoraInicio',
            'HoraFin',
            'Motivo',
            'Activo',
          ])
          .where('IdCliente', '=', clientId)
          .where('IdDivision', '=', divisionId)
          .where(among('IdPersona', ids)),
      },
      ...accreditedQueries(db, 'person', clientId, divisionId, ids),
      ...Object.fromEntries(held.map((h, i) => [`person:held${i}`, { as: 'rows', query: h.query } as Probe])),
    },
    heard: (answer) => ({
      ...answer,
      'person:held': held.flatMap((h, i) => (answer[`person:held${i}`] as Rows).map((row) => h.read(row))),
    }),
  };
}

/** The people of these ids with their rows for the division: one statement per IN_LIST people. */
async function loadPeople(
  db: Db,
  clientId: number,
  divisionId: number,
  ids: number[],
  sources: readonly QualificationSource[],
): Promise<Map<number, PersonHolder>> {
  const answers = await inChunks(ids, async (chunk) => {
    const { probes, heard } = peopleProbes(db, clientId, divisionId, chunk, sources);
    return [heard(await ask(db, probes))];
  });
  return peopleFrom(answers);
}

/** The people of the answers (`peopleProbes`'), by id. */
function peopleFrom(answers: Answers[]): Map<number, PersonHolder> {
  const { accreditations, requirements, assignments } = accreditedBy('person', answers);
  const all = (name: string) => answers.flatMap((a) => a[`person:${name}`] as Rows);
  // In the order each one's lookup of a single person has read them (the index it goes by).
  const exonerations = byOwner(all('exonerations'), 'IdPersona', [
    'IdRequisito',
    'FechaInicio',
    'IdExoneracion',
  ]);
  const restrictions = byOwner(all('restrictions'), 'IdPersona', ['FechaInicio', 'IdRestriccion']);
  const qualifications = new Map<number, HeldQualification[]>();
  for (const { personId, ...held } of answers.flatMap(
    (a) => a['person:held'] as Array<HeldQualification & { personId: number }>,
  ))
    qualifications.set(personId, [...(qualifications.get(personId) ?? []), held]);
  const holders = new Map<number, PersonHolder>();
  for (const person of all('people')) {
    const id = Number(person.IdPersona);
    holders.set(id, {
      kind: 'person',
      qualifications: qualifications.get(id) ?? [],
      person: {
        IdPersona: id,
        Condicion: person.Condicion,
        Inactivo: person.Inactivo ?? 'N',
        ValidarRequisitosAcceso: person.ValidarRequisitosAcceso ?? 'S',
      },
      accreditations: (accreditations.get(id) ?? []).map(accreditationOf),
      requirements: (requirements.get(id) ?? []).map(requirementOf),
      assignments: (assignments.get(id) ?? []).map(assignmentOf),
      exonerations: (exonerations.get(id) ?? []).map(
        (e): Exoneration => ({
          IdDivision: Number(e.IdDivision),
          IdRequisito: Number(e.IdRequisito),
          FechaInicio: e.FechaInicio,
          FechaFin: e.FechaFin,
          Activo: e.Activo,
        }),
      ),
      restrictions: (restrictions.get(id) ?? []).map(
        (r): Restriction => ({
          IdDivision: Number(r.IdDivision),
          IdZona: num(r.IdZona),
          IdPuerta: num(r.IdPuerta),
          DiaCompleto: r.DiaCompleto,
          FechaInicio: r.FechaInicio,
          FechaFin: str(r.FechaFin),
          HoraInicio: str(r.HoraInicio),
          HoraFin: str(r.HoraFin),
          Motivo: str(r.Motivo),
          Activo: r.Activo,
        }),
      ),
    });
  }
  return holders;
}

/** The questions that load vehicles (these ids, or those a query finds) with their rows for the division. */
function vehicleProbes(db: Db, clientId: number, divisionId: number, ids: Ids): Record<string, Probe> {
  return {
    'vehicle:vehicles': {
      as: 'rows',
      query: db
        .selectFrom('administration_vehicle as v')
        .leftJoin('administration_vehicle_type as t', (join) =>
          join.onRef('t.IdTipoVehiculo', '=', 'v.IdTipoVehiculo').on('t.RequiereLicenciaInterna', '=', 'S'),
        )
        .select(['v.IdVehiculo', 'v.Estado', 't.IdTipoVehiculo as TipoConLicencia', 't.Descripcion as Tipo'])
        .where(among('v.IdVehiculo', ids)),
    },
    ...accreditedQueries(db, 'vehicle', clientId, divisionId, ids),
    'vehicle:maintenance': { as: 'rows', query: maintenanceQuery(db, ids) },
  };
}

/** The vehicles of these ids with their rows for the division: one statement per IN_LIST vehicles. */
async function loadVehicles(
  db: Db,
  clientId: number,
  divisionId: number,
  ids: number[],
): Promise<Map<number, Holder>> {
  const answers = await inChunks(ids, async (chunk) => [
    await ask(db, vehicleProbes(db, clientId, divisionId, chunk)),
  ]);
  return vehiclesFrom(answers);
}

/** The vehicles of the answers (`vehicleProbes`'), by id. */
function vehiclesFrom(answers: Answers[]): Map<number, Holder> {
  const all = (name: string) => answers.flatMap((a) => a[`vehicle:${name}`] as Rows);
  const due = new Map<number, MaintenanceDue[]>();
  for (const m of all('maintenance'))
    due.set(Number(m.IdVehiculo), [
      ...(due.get(Number(m.IdVehiculo)) ?? []),
      { Tipo: String(m.Descripcion), Vence: String(m.Vence).slice(0, 10) },
    ]);
  const { accreditations, requirements, assignments } = accreditedBy('vehicle', answers);
  const holders = new Map<number, Holder>();
  for (const vehicle of all('vehicles')) {
    const id = Number(vehicle.IdVehiculo);
    holders.set(id, {
      kind: 'vehicle',
      vehicle: { IdVehiculo: id, Estado: vehicle.Estado ?? 'A' },
      accreditations: (accreditations.get(id) ?? []).map(accreditationOf),
      requirements: (requirements.get(id) ?? []).map(requirementOf),
      assignments: (assignments.get(id) ?? []).map(assignmentOf),
      maintenance: due.get(id) ?? [],
      ...(vehicle.TipoConLicencia != null && {
        licenceType: { IdTipoVehiculo: Number(vehicle.TipoConLicencia), Tipo: String(vehicle.Tipo) },
      }),
    });
  }
  return holders;
}

/**
 * Vehicles' maintenance of the kinds that block them (maintenance-type BloqueaVehiculo): per vehicle
 * and kind, the next due day of its latest active record of that kind.
 */
function maintenanceQuery(db: Db, vehicles: Ids) {
  return db
    .selectFrom('administration_vehicle_maintenance as m')
    .innerJoin('system_maintenance_type as t', 't.IdTipoMantenimiento', 'm.IdTipoMantenimiento')
    .select(['m.IdVehiculo', 't.Descripcion', 'm.FechaProxima as Vence'])
    .where(among('m.IdVehiculo', vehicles))
    .where('t.BloqueaVehiculo', '=', 'S')
    .where('t.Activo', '=', 'S')
    .where('m.Activo', '=', 'S')
    .where('m.FechaProxima', 'is not', null)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('administration_vehicle_maintenance as later')
            .select('later.IdMantenimientoVehiculo')
            .whereRef('later.IdVehiculo', '=', 'm.IdVehiculo')
            .whereRef('later.IdTipoMantenimiento', '=', 'm.IdTipoMantenimiento')
            .where('later.Activo', '=', 'S')
            .whereRef('later.Fecha', '>', 'm.Fecha'),
        ),
      ),
    );
}
