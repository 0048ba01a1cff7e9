import { ApiError } from '../../errors.js';
import type { Principal } from '../../principal.js';

/** The console's dining screens: the supervisor's live management, and the consumption report. */
export const DINING_ROUTES = {
  management: '/comedor/gestion',
  report: '/comedor/consumos',
} as const;

/** Who works on a division's dining rooms: the division, and a contractor's company (its people's meals only). */
export interface DiningOffice {
  clientId: number;
  divisionId: number;
  userId: string;
  companyId?: number;
}

/**
 * The office of a session for a dining call: a profile whose menu holds the call's screen. The
 * management screen (live sittings, meals by hand, voids) is the client's: a contractor's profile
 * is refused it even if its menu held it; the report is a contractor's too, for its company.
 */
export function diningOffice(principal: Principal, route: string): DiningOffice {
  const routes = principal.grants?.routes;
  if (principal.clientId === undefined || principal.divisionId === undefined || !routes?.has(route))
    throw new ApiError('FORBIDDEN');
  if (route === DINING_ROUTES.management && principal.companyId !== undefined)
    throw new ApiError('FORBIDDEN');
  return {
    clientId: principal.clientId,
    divisionId: principal.divisionId,
    userId: principal.userId,
    ...(principal.companyId !== undefined && { companyId: principal.companyId }),
  };
}

/** The office of a session with either dining screen (the rooms and services their filters choose from). */
export function anyDiningOffice(principal: Principal): DiningOffice {
  const routes = principal.grants?.routes;
  const route = routes?.has(DINING_ROUTES.management) ? DINING_ROUTES.management : DINING_ROUTES.report;
  return diningOffice(principal, route);
}
