import { INDUCTION_SCREENS } from '../../../shared/screens.js';
import type { Principal } from '../../principal.js';
import { type SiteOffice, siteOffice } from '../../routes/guards.js';

/**
 * Who calls an induction call: the site's trainer (a profile whose menu holds the sessions
 * screen: the client's division of the session), or a contractor's requester (the bookings screen:
 * its company's people only). An administrator is a trainer who may also change a closed result.
 */
export interface InductionOffice extends SiteOffice {
  administrator: boolean;
  principal: Principal;
}

const SCREENS = { staff: INDUCTION_SCREENS.sessions.route, contractor: INDUCTION_SCREENS.bookings.route };
const SIDE = { trainer: 'staff', requester: 'contractor', either: 'either' } as const;

/** The session's office for a call of `side`; FORBIDDEN when the profile reaches no such screen. */
export function inductionOffice(principal: Principal, side: keyof typeof SIDE): InductionOffice {
  return {
    ...siteOffice(principal, SCREENS, SIDE[side]),
    administrator: principal.profileType === 'administrator',
    principal,
  };
}
