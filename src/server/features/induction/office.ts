import { INDUCTION_SCREENS } from '../../../shared/screens.js';
import { ApiError } from '../../errors.js';
import type { Principal } from '../../principal.js';

/**
 * Who calls an induction call: the site's trainer (a profile whose menu holds the sessions
 * screen: the client's division of the session), or a contractor's requester (the bookings screen:
 * its company's people only). An administrator is a trainer who may also change a closed result.
 */
export interface InductionOffice {
  clientId: number;
  divisionId: number;
  userId: string;
  /** A requester's company. */
  companyId?: number;
  administrator: boolean;
  principal: Principal;
}

type Side = 'trainer' | 'requester' | 'either';

const SIDE_ROUTE = {
  trainer: INDUCTION_SCREENS.sessions.route,
  requester: INDUCTION_SCREENS.bookings.route,
} as const;

/** The session's office for a call of `side`; FORBIDDEN when the profile reaches no such screen. */
export function inductionOffice(principal: Principal, side: Side): InductionOffice {
  const routes = principal.grants?.routes ?? new Set<string>();
  const reaches = (s: keyof typeof SIDE_ROUTE) =>
    routes.has(SIDE_ROUTE[s]) && (s === 'trainer') === (principal.companyId === undefined);
  const allowed = side === 'either' ? reaches('trainer') || reaches('requester') : reaches(side);
  if (principal.clientId === undefined || principal.divisionId === undefined || !allowed)
    throw new ApiError('FORBIDDEN');
  return {
    clientId: principal.clientId,
    divisionId: principal.divisionId,
    userId: principal.userId,
    companyId: principal.companyId,
    administrator: principal.profileType === 'administrator',
    principal,
  };
}
