import { TRANSPORT_SCREENS } from '../../../shared/screens.js';
import type { Principal } from '../../principal.js';
import { type SiteOffice, siteOffice } from '../../routes/guards.js';

/**
 * Who calls a transport call: the site's transport coordinator (a profile whose menu holds the trips
 * screen: the trips of its client's division), or a contractor's requester (the seats screen: its
 * company's people only).
 */
export type TransportOffice = SiteOffice;

const SCREENS = { staff: TRANSPORT_SCREENS.trips.route, contractor: TRANSPORT_SCREENS.seats.route };
const SIDE = { coordinator: 'staff', requester: 'contractor', either: 'either' } as const;

/** The session's office for a call of `side`; FORBIDDEN when the profile reaches no such screen. */
export const transportOffice = (principal: Principal, side: keyof typeof SIDE): TransportOffice =>
  siteOffice(principal, SCREENS, SIDE[side]);
