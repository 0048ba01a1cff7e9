import type {
  AccessAssignment,
  AccessGroup,
  AccessProfile,
  Accreditation,
  Credential,
  Door,
  Exoneration,
  Holder,
  KeptRequirement,
  Presented,
  Restriction,
  Schedule,
  ScheduleInterval,
  SiteAccess,
  Zone,
} from '../../../shared/access/decision.js';
import { timeZoneOf } from '../../../shared/dates.js';
import type { Db } from '../../db/connection.js';

/** A door with what the marking records besides the decision's columns. */
export interface LoadedDoor extends Door {
  IdCliente: number;
  IdPuntoControl: number | null;
}

/** The site's IANA time zone, from its country (a division keeps no zone of its own). */

const num = (v: unknown) => (v == null ? undefined : Number(v));
const str = (v: unknown) => (v == null ? undefined : String(v));

export async function loadDoor(
  db: Db,
  doorId: number,
): Promise<{ door: LoadedDoor; timeZone: string } | undefined> {
  const row = await db
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
    .where('d.IdPuerta', '=', doorId)
    .executeTakeFirst();
  if (!row) return undefined;
  return {
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
  };
}

/** The division's access configuration: profiles, groups with their doors, schedules and zones. */
export async function loadSite(db: Db, clientId: number, divisionId: number): Promise<SiteAccess> {
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

/**
 * What was presented, found: the client's credential of that number and whose it is, the person
 * of that document, or the vehicle of that plate (the gate's and the dining readers' lookup).
 */
export async function findPresented(
  db: Db,
  clientId: number,
  presented: Presented,
): Promise<{ credential?: Credential; personId?: number; vehicleId?: number }> {
  if (presented.kind === 'credential') {
    const row = await db
      .selectFrom('identification_credential')
      .select(['IdPersona', 'IdVehiculo', 'Numero', 'FechaInicio', 'FechaFin', 'Activo'])
      .where('IdCliente', '=', clientId)
      .where('Numero', '=', presented.Numero)
      .executeTakeFirst();
    if (!row) return {};
    const personId = num(row.IdPersona);
    const vehicleId = num(row.IdVehiculo);
    return {
      credential: {
        ...(personId != null && { IdPersona: personId }),
        ...(vehicleId != null && { IdVehiculo: vehicleId }),
        Numero: row.Numero,
        FechaInicio: row.FechaInicio,
        FechaFin: row.FechaFin,
        Activo: row.Activo,
      },
      personId,
      vehicleId,
    };
  }
  if (presented.kind === 'document') {
    const row = await db
      .selectFrom('administration_person')
      .select('IdPersona')
      .where('IdCliente', '=', clientId)
      .where('Documento', '=', presented.Documento)
      .executeTakeFirst();
    return { personId: num(row?.IdPersona) };
  }
  const row = await db
    .selectFrom('administration_vehicle')
    .select('IdVehiculo')
    .where('IdCliente', '=', clientId)
    .where('Placa', '=', presented.Placa)
    .executeTakeFirst();
  return { vehicleId: num(row?.IdVehiculo) };
}

/** Who or what was presented: the credential found and its holder's rows for this division. */
export async function loadHolder(
  db: Db,
  clientId: number,
  divisionId: number,
  presented: Presented,
): Promise<{ credential?: Credential; holder?: Holder }> {
  const { credential, personId, vehicleId } = await findPresented(db, clientId, presented);
  if (personId != null) return { credential, holder: await loadPerson(db, clientId, divisionId, personId) };
  if (vehicleId != null)
    return { credential, holder: await loadVehicle(db, clientId, divisionId, vehicleId) };
  return { credential };
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

async function loadPerson(
  db: Db,
  clientId: number,
  divisionId: number,
  personId: number,
): Promise<Holder | undefined> {
  const [person, accreditations, requirements, assignments, exonerations, restrictions] = await Promise.all([
    db
      .selectFrom('administration_person')
      .select(['IdPersona', 'Condicion', 'Inactivo', 'ValidarRequisitosAcceso'])
      .where('IdPersona', '=', personId)
      .executeTakeFirst(),
    db
      .selectFrom('accreditation_accreditation')
      .select(['IdDivision', 'IdContrato', 'FechaInicio', 'FechaFin', 'Estado'])
      .where('IdCliente', '=', clientId)
      .where('IdDivision', '=', divisionId)
      .where('IdPersona', '=', personId)
      .execute(),
    db
      .selectFrom('accreditation_accredited_requirement as k')
      .innerJoin('access_requirement as r', 'r.IdRequisito', 'k.IdRequisito')
      .select(['k.IdRequisito', 'r.Requisito', 'r.Obligatorio', 'k.FechaVencimiento'])
      .where('k.IdPersona', '=', personId)
      .execute(),
    db
      .selectFrom('access_person_access')
      .select(['IdPerfilAcceso', 'FechaInicio', 'FechaFin', 'Temporal', 'Activo'])
      .where('IdCliente', '=', clientId)
      .where('IdDivision', '=', divisionId)
      .where('IdPersona', '=', personId)
      .execute(),
    db
      .selectFrom('access_exoneration')
      .select(['IdDivision', 'IdRequisito', 'FechaInicio', 'FechaFin', 'Activo'])
      .where('IdCliente', '=', clientId)
      .where('IdDivision', '=', divisionId)
      .where('IdPersona', '=', personId)
      .execute(),
    db
      .selectFrom('access_restriction')
      .select([
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
      .where('IdPersona', '=', personId)
      .execute(),
  ]);
  if (!person) return undefined;
  return {
    kind: 'person',
    person: {
      IdPersona: Number(person.IdPersona),
      Condicion: person.Condicion,
      Inactivo: person.Inactivo ?? 'N',
      ValidarRequisitosAcceso: person.ValidarRequisitosAcceso ?? 'S',
    },
    accreditations: accreditations.map(accreditationOf),
    requirements: requirements.map(requirementOf),
    assignments: assignments.map(assignmentOf),
    exonerations: exonerations.map(
      (e): Exoneration => ({
        IdDivision: Number(e.IdDivision),
        IdRequisito: Number(e.IdRequisito),
        FechaInicio: e.FechaInicio,
        FechaFin: e.FechaFin,
        Activo: e.Activo,
      }),
    ),
    restrictions: restrictions.map(
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
  };
}

async function loadVehicle(
  db: Db,
  clientId: number,
  divisionId: number,
  vehicleId: number,
): Promise<Holder | undefined> {
  const [vehicle, accreditations, requirements, assignments] = await Promise.all([
    db
      .selectFrom('administration_vehicle')
      .select(['IdVehiculo', 'Estado'])
      .where('IdVehiculo', '=', vehicleId)
      .executeTakeFirst(),
    db
      .selectFrom('accreditation_accreditation')
      .select(['IdDivision', 'IdContrato', 'FechaInicio', 'FechaFin', 'Estado'])
      .where('IdCliente', '=', clientId)
      .where('IdDivision', '=', divisionId)
      .where('IdVehiculo', '=', vehicleId)
      .execute(),
    db
      .selectFrom('accreditation_accredited_requirement as k')
      .innerJoin('access_requirement as r', 'r.IdRequisito', 'k.IdRequisito')
      .select(['k.IdRequisito', 'r.Requisito', 'r.Obligatorio', 'k.FechaVencimiento'])
      .where('k.IdVehiculo', '=', vehicleId)
      .execute(),
    db
      .selectFrom('access_vehicle_access')
      .select(['IdPerfilAcceso', 'FechaInicio', 'FechaFin', 'Temporal', 'Activo'])
      .where('IdCliente', '=', clientId)
      .where('IdDivision', '=', divisionId)
      .where('IdVehiculo', '=', vehicleId)
      .execute(),
  ]);
  if (!vehicle) return undefined;
  return {
    kind: 'vehicle',
    vehicle: { IdVehiculo: Number(vehicle.IdVehiculo), Estado: vehicle.Estado ?? 'A' },
    accreditations: accreditations.map(accreditationOf),
    requirements: requirements.map(requirementOf),
    assignments: assignments.map(assignmentOf),
  };
}
