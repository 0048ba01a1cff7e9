import { TRANSPORT_SCREENS } from '../../../shared/screens.js';
import { ApiError } from '../../errors.js';
import type { Principal } from '../../principal.js';

/**
 * Who calls a transport call: the site's transport coordinator (a profile whose menu holds the trips
 * screen: the trips of its client's division), or a contractor's requester (the seats screen: its
 * company's people only).
 */
export interface TransportOffice {
  clientId: number;
  divisionId: number;
  userId: string;
  /** A requester's company. */
  companyId?: number;
}

type Side = 'coordinator' | 'requester' | 'either';

const SIDE_ROUTE = {
  coordinator: TRANSPORT_SCREENS.trips.route,
  requester: TRANSPORT_SCREENS.seats.route,
} as const;

/** The session's office for a call of `side`; FORBIDDEN when the profile reaches no such screen. */
export function transportOffice(principal: Principal, side: Side): TransportOffice {
  const routes = principal.grants?.routes ?? new Set<string>();
  const reaches = (s: keyof typeof SIDE_ROUTE) =>
    routes.has(SIDE_ROUTE[s]) && (s === 'coordinator') === (principal.companyId === undefined);
  const allowed = side === 'either' ? reaches('coordinator') || reaches('requester') : reaches(side);
  if (principal.clientId === undefined || principal.divisionId === undefined || !allowed)
    throw new ApiError('FORBIDDEN');
  return {
    clientId: principal.clientId,
    divisionId: principal.divisionId,
    userId: principal.userId,
    companyId: principal.companyId,
  };
}
