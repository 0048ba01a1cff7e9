import { addDays, daysBetween } from '../../../shared/dates.js';
import { dmy } from '../../../shared/request-dates.js';
import { inChunks } from '../../db/chunks.js';
import type { Db } from '../../db/connection.js';
import type { Registry } from '../../registry.js';
import type { CampOffice } from './office.js';

/** Why a person may not be lodged: a message key of `hotel.refusals` and its parameters. */
export interface Refusal {
  messageKey: string;
  params: Record<string, string | number>;
}

/** A camp as lodging reads it. */
export interface Camp {
  IdCampamento: number;
  Descripcion: string;
  DiasMaximoEstadia: number;
  LiberarReserva: 'S' | 'N';
  DiasLiberarReserva: number | null;
  HoraSalida: string;
}

/** A person who may be lodged in a camp, and on what grounds. */
export interface Lodger {
  IdPersona: number;
  Documento: string;
  Persona: string;
  Sexo: string | null;
  IdCompania: number;
  Compania: string | null;
  /** The accreditation in force, or the mobilisation request sent, the stay falls within. */
  IdAcreditacion: number | null;
  IdSolicitud: number | null;
  /** The profile's room type, when it names one, and the longest stay it (or the camp) allows. */
  IdTipoHabitacion: number | null;
  DiasMaximoEstadia: number;
}

const refusal = (messageKey: string, params: Refusal['params'] = {}): Refusal => ({
  messageKey: `hotel.refusals.${messageKey}`,
  params,
});

type Row = Record<string, unknown>;
const text = (v: unknown) => (v === null || v === undefined ? '' : String(v).slice(0, 10));

export { inChunks };

/**
 * Who may stay in a camp from `from` to `to` (departure), person by person, read in a few
 * queries whatever their number: a person of the client, of the requester's company when a
 * requester asks; accredited in the division (active, the stay within the accreditation: its last
 * night on the accreditation's last day at the latest) or with a mobilisation request sent for it
 * (pending or observed, the stay within the request's dates: crews are housed before their first
 * day); of a company an active profile of the camp takes; for no more nights than the profile's
 * (or the camp's) maximum stay.
 */
export async function lodgers(
  db: Db,
  registry: Registry,
  office: CampOffice,
  camp: Camp,
  ids: readonly number[],
  from: string,
  to: string,
): Promise<Map<number, Lodger | Refusal>> {
  const table = (name: string) => registry.require(name).table;
  const unique = [...new Set(ids)];
  const people = await inChunks(
    unique,
    (chunk) =>
      db
        .selectFrom(table('person'))
        .select(['IdPersona', 'Documento', 'Apellido', 'Nombre', 'Sexo'])
        .where('IdCliente', '=', office.clientId)
        .where('IdPersona', 'in', chunk)
        .execute() as Promise<Row[]>,
  );
  const grounds = await inChunks(
    unique,
    (chunk) =>
      db
        .selectFrom(`${table('accreditation')} as a`)
        .leftJoin(`${table('company')} as c`, 'c.IdCompania', 'a.IdCompania')
        .select([
          'a.IdAcreditacion as Id',
          'a.IdPersona',
          'a.IdCompania',
          'c.Alias as Compania',
          'a.FechaInicio',
          'a.FechaFin',
          'a.Estado',
        ])
        .where('a.IdCliente', '=', office.clientId)
        .where('a.IdDivision', '=', office.divisionId)
        .where('a.IdPersona', 'in', chunk)
        .where('a.Estado', 'in', ['A', 'S'])
        .execute() as Promise<Row[]>,
  );
  const requests = await inChunks(
    unique,
    (chunk) =>
      db
        .selectFrom(`${table('request')} as r`)
        .leftJoin(`${table('company')} as c`, 'c.IdCompania', 'r.IdCompania')
        .select([
          'r.IdSolicitud as Id',
          'r.IdPersona',
          'r.IdCompania',
          'c.Alias as Compania',
          'r.FechaInicio',
          'r.FechaFin',
        ])
        .where('r.IdCliente', '=', office.clientId)
        .where('r.IdDivision', '=', office.divisionId)
        .where('r.IdPersona', 'in', chunk)
        .where('r.TipoSolicitud', '=', 'M')
        .where('r.EstadoAprobacion', 'in', ['P', 'O'])
        .execute() as Promise<Row[]>,
  );
  const profiles = await campProfiles(db, registry, office.clientId, camp.IdCampamento);

  const out = new Map<number, Lodger | Refusal>();
  const nights = daysBetween(from, to);
  const within = (g: Row) => text(g.FechaInicio) <= from && to <= addDays(text(g.FechaFin), 1);
  const mine = (g: Row) => office.companyId === undefined || Number(g.IdCompania) === office.companyId;
  for (const id of unique) {
    const person = people.find((p) => Number(p.IdPersona) === id);
    if (!person) {
      out.set(id, refusal('unknownPerson', { id }));
      continue;
    }
    const name = `${person.Apellido} ${person.Nombre}`;
    // A requester's: only its company's people (another company's are not shown, nor named).
    const own = (g: Row) => Number(g.IdPersona) === id && mine(g);
    const others = (g: Row) => Number(g.IdPersona) === id && !mine(g);
    if ((grounds.some(others) || requests.some(others)) && !grounds.some(own) && !requests.some(own)) {
      out.set(id, refusal('unknownPerson', { id }));
      continue;
    }
    const accredited = grounds.filter(own);
    const sent = requests.filter(own);
    const active = accredited.filter((g) => g.Estado === 'A');
    const inForce = active.find(within);
    const ground = inForce ?? (active.length ? undefined : sent.find(within));
    if (!ground) {
      const near = active[0] ?? sent[0];
      out.set(
        id,
        near
          ? refusal('outsideAccreditation', {
              name,
              from: dmy(text(near.FechaInicio)),
              to: dmy(text(near.FechaFin)),
            })
          : accredited.length
            ? refusal('suspended', { name })
            : refusal('notAccredited', { name }),
      );
      continue;
    }
    const company = Number(ground.IdCompania);
    const profile = profiles.find((p) => p.companies.has(company));
    if (!profile) {
      out.set(
        id,
        refusal('companyExcluded', { company: String(ground.Compania ?? company), camp: camp.Descripcion }),
      );
      continue;
    }
    const most = profile.DiasMaximoEstadia ?? camp.DiasMaximoEstadia;
    if (nights > most) {
      out.set(id, refusal('tooLong', { name, days: most }));
      continue;
    }
    out.set(id, {
      IdPersona: id,
      Documento: String(person.Documento),
      Persona: name,
      Sexo: (person.Sexo as string | null) ?? null,
      IdCompania: company,
      Compania: (ground.Compania as string | null) ?? null,
      IdAcreditacion: inForce ? Number(ground.Id) : null,
      IdSolicitud: inForce ? null : Number(ground.Id),
      IdTipoHabitacion: profile.IdTipoHabitacion,
      DiasMaximoEstadia: most,
    });
  }
  return out;
}

/** The active profiles of a camp, each with its companies. */
async function campProfiles(db: Db, registry: Registry, clientId: number, campId: number) {
  const profile = registry.require('camp-profile');
  const link = profile.references.find((r) => r.field === 'Companias')?.many;
  if (!link) throw new Error('camp-profile has no company links');
  const rows = (await db
    .selectFrom(`${profile.table} as f`)
    .leftJoin(`${link.table} as l`, `l.${link.owner}`, 'f.IdPerfilCampamento')
    .select([
      'f.IdPerfilCampamento',
      'f.IdTipoHabitacion',
      'f.DiasMaximoEstadia',
      `l.${link.value} as IdCompania`,
    ])
    .where('f.IdCliente', '=', clientId)
    .where('f.IdCampamento', '=', campId)
    .where('f.Activo', '=', 'S')
    .orderBy('f.IdPerfilCampamento')
    .execute()) as Row[];
  const byId = new Map<
    number,
    { IdTipoHabitacion: number | null; DiasMaximoEstadia: number | null; companies: Set<number> }
  >();
  for (const r of rows) {
    const id = Number(r.IdPerfilCampamento);
    const entry = byId.get(id) ?? {
      IdTipoHabitacion: r.IdTipoHabitacion == null ? null : Number(r.IdTipoHabitacion),
      DiasMaximoEstadia: r.DiasMaximoEstadia == null ? null : Number(r.DiasMaximoEstadia),
      companies: new Set<number>(),
    };
    if (r.IdCompania != null) entry.companies.add(Number(r.IdCompania));
    byId.set(id, entry);
  }
  return [...byId.values()];
}

export const isRefusal = (x: Lodger | Refusal | undefined): x is Refusal =>
  x !== undefined && 'messageKey' in x;
