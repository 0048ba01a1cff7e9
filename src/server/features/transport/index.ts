import { TRANSPORT_SCREENS } from '../../../shared/screens.js';
import type { Feature } from '../feature.js';
import { seedDemoTransport } from './demo.js';
import { transportHooks } from './hooks.js';
import { transportListeners } from './listeners.js';
import { transportWhereabouts } from './live.js';
import transportRoutes from './routes.js';

/**
 * Transport: the division's routes, buses and trips; seats booked from the rosters' change days (the
 * coordinator) or by a contractor's requester; boarding at the door of the bus from a signed manifest;
 * the live board, the manifest and the period's reports. A demobilisation releases the person's seats.
 */
export const transport: Feature = {
  name: 'transport',
  screens: Object.values(TRANSPORT_SCREENS),
  hooks: transportHooks,
  routes: transportRoutes,
  listens: transportListeners,
  whereabouts: transportWhereabouts,
  demo: { order: 50, seed: seedDemoTransport },
};
