import { HOTEL_SCREENS } from '../../../shared/screens.js';
import type { Feature } from '../feature.js';
import { seedDemoLodging } from './demo.js';
import { hotelHooks } from './hooks.js';
import { hotelListeners } from './listeners.js';
import hotelRoutes from './routes.js';

/** Hotel and camp lodging: its configuration screens, and reservations, stays and their board. */
export const hotel: Feature = {
  name: 'hotel',
  screens: Object.values(HOTEL_SCREENS),
  hooks: ({ registry }) => hotelHooks(registry),
  listens: ({ registry, now }) => hotelListeners(registry, now),
  demo: {
    order: 30,
    seed: ({ trx, registry, clientId, now }) => seedDemoLodging(trx, registry, clientId, now),
  },
  routes: hotelRoutes,
  // The mass reservation's contracts (the screens' other choices come through the lodging calls).
};
