import type { Feature } from '../feature.js';
import { hotelHooks } from './hooks.js';
import hotelRoutes from './routes.js';

/** Hotel and camp lodging: its configuration screens, and reservations, stays and their board. */
export const hotel: Feature = {
  name: 'hotel',
  hooks: ({ registry }) => hotelHooks(registry),
  routes: hotelRoutes,
  // The reservation screens' selects and labels.
  grants: [
    { routePrefix: '/hotel/', read: ['camp', 'hotel-module', 'room', 'bed', 'room-type', 'contract'] },
  ],
};
