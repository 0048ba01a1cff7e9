import type { Db } from '../../db/connection.js';
import { ApiError } from '../../errors.js';
import type { Principal } from '../../principal.js';
import type { Registry } from '../../registry.js';

/** The console's lodging screens: the hotel administrator's, and the requester's reservations. */
export const HOTEL_ROUTES = {
  availability: '/hotel/disponibilidad',
  mass: '/hotel/reserva-masiva',
  dashboard: '/hotel/tablero',
  reports: '/hotel/reportes',
  reservations: '/hotel/reservas',
} as const;

/**
 * Who works on a division's camps, and which: a hotel administrator the camps whose administrator
 * they are (the camp's IdAdministrador), a requester (a contractor's profile) the camps whose
 * active profiles take its company, for its company's people only.
 */
export interface CampOffice {
  clientId: number;
  divisionId: number;
  userId: string;
  /** A requester's company: it reserves for its own people, nothing else. */
  companyId?: number;
  /** The camps this office works on, active ones of the division. */
  camps: Set<number>;
  principal: Principal;
}

/**
 * The office of a session for a lodging call: a profile whose menu holds the call's screen (or,
 * for the reservations list, any lodging screen); a hotel administrator must be one of an active
 * camp of the division, else the spec's message (section 6: not assigned as hotel administrator).
 * `administrator` calls (the grid, check-in and out, mass reservation, the dashboard and reports)
 * refuse a requester.
 */
export async function campOffice(
  db: Db,
  registry: Registry,
  principal: Principal,
  { administrator = true }: { administrator?: boolean } = {},
): Promise<CampOffice> {
  const routes = principal.grants?.routes;
  const lodging = [...(routes ?? [])].some((r) => r.startsWith('/hotel/'));
  if (principal.clientId === undefined || principal.divisionId === undefined || !lodging)
    throw new ApiError('FORBIDDEN');
  const base = {
    clientId: principal.clientId,
    divisionId: principal.divisionId,
    userId: principal.userId,
    principal,
  };
  const camp = registry.require('camp').table;
  if (principal.companyId !== undefined) {
    if (administrator) throw new ApiError('FORBIDDEN', { messageKey: 'hotel.refusals.notAdministrator' });
    const profile = registry.require('camp-profile');
    const link = profile.references.find((r) => r.field === 'Companias')?.many;
    if (!link) throw new Error('camp-profile has no company links');
    const rows = (await db
      .selectFrom(`${profile.table} as f`)
      .innerJoin(`${link.table} as l`, `l.${link.owner}`, 'f.IdPerfilCampamento')
      .innerJoin(`${camp} as c`, 'c.IdCampamento', 'f.IdCampamento')
      .select('c.IdCampamento')
      .where('f.IdCliente', '=', principal.clientId)
      .where('f.IdDivision', '=', principal.divisionId)
      .where('f.Activo', '=', 'S')
      .where('c.Activo', '=', 'S')
      .where(`l.${link.value}`, '=', principal.companyId)
      .execute()) as Array<{ IdCampamento: number }>;
    return { ...base, companyId: principal.companyId, camps: new Set(rows.map((r) => r.IdCampamento)) };
  }
  const rows = (await db
    .selectFrom(camp)
    .select('IdCampamento')
    .where('IdCliente', '=', principal.clientId)
    .where('IdDivision', '=', principal.divisionId)
    .where('IdAdministrador', '=', principal.userId)
    .where('Activo', '=', 'S')
    .execute()) as Array<{ IdCampamento: number }>;
  if (!rows.length) throw new ApiError('FORBIDDEN', { messageKey: 'hotel.refusals.notAdministrator' });
  return { ...base, camps: new Set(rows.map((r) => r.IdCampamento)) };
}

/** Refuses a camp the office does not work on (as not found: another's camp is not shown). */
export function requireCamp(office: CampOffice, campId: number): void {
  if (!office.camps.has(campId))
    throw new ApiError(office.companyId === undefined ? 'FORBIDDEN' : 'NOT_FOUND', {
      ...(office.companyId === undefined
        ? { messageKey: 'hotel.refusals.notAdministrator' }
        : { params: { resource: 'camp', id: campId } }),
    });
}
