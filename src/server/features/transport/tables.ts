import type { Db } from '../../db/connection.js';
import type { Registry } from '../../registry.js';

/** The Transport module's tables, and those of other areas its queries read, by the registry. */
export function transportTables(registry: Registry) {
  const t = (name: string) => registry.require(name).table;
  return {
    route: t('transport-route'),
    stop: t('transport-stop'),
    bus: t('transport-bus'),
    trip: t('trip'),
    booking: t('trip-booking'),
    boarding: t('trip-boarding'),
    person: t('person'),
    company: t('company'),
    vehicle: t('vehicle'),
    licence: t('driving-licence'),
    accreditation: t('accreditation'),
    accredited: t('accredited-requirement'),
    requirement: t('requirement'),
    credential: t('credential'),
    assignment: t('schedule-assignment'),
    scheduleType: t('schedule-type'),
    guard: t('guard'),
    regime: t('regime'),
  };
}

export type TransportTables = ReturnType<typeof transportTables>;

export type Row = Record<string, unknown>;

export const text = (v: unknown): string => (v === null || v === undefined ? '' : String(v));
export const day = (v: unknown): string => text(v).slice(0, 10);
export const nameOf = (r: Row) => `${text(r.Apellido)} ${text(r.Nombre)}`.trim();

export { inChunks } from '../../db/chunks.js';

/**
 * The accreditations in force in a division on a day (state A, within their dates) as `g`, with their
 * person `p` and company `m` joined: the rows every "who may ride" question narrows (a company's, some
 * people, a search) and selects from.
 */
export function accreditedOn(
  db: Db,
  t: TransportTables,
  site: { clientId: number; divisionId: number; companyId?: number },
  on: string,
) {
  const q = db
    .selectFrom(`${t.accreditation} as g`)
    .innerJoin(`${t.person} as p`, 'p.IdPersona', 'g.IdPersona')
    .leftJoin(`${t.company} as m`, 'm.IdCompania', 'g.IdCompania')
    .where('g.IdCliente', '=', site.clientId)
    .where('g.IdDivision', '=', site.divisionId)
    .where('g.Estado', '=', 'A')
    .where('g.FechaInicio', '<=', on)
    .where((eb) => eb.or([eb('g.FechaFin', 'is', null), eb('g.FechaFin', '>=', on)]));
  return site.companyId === undefined ? q : q.where('g.IdCompania', '=', site.companyId);
}
