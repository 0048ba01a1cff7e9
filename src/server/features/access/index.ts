import { ACCESS_SCREENS } from '../../../shared/screens.js';
import type { Feature } from '../feature.js';
import deviceRoutes from './device-routes.js';
import effectiveAccessRoutes from './effective-access.js';
import headcountRoutes from './headcount-routes.js';
import { accessHooks } from './hooks.js';
import { accessListeners } from './listeners.js';
import scheduleCopyRoutes from './schedule-copy.js';
import { ensureAccessTables } from './tables.js';

/** Access: schedules and their intervals; the gate's device calls and the equipment keys; headcount and reports; effective access. */
export const access: Feature = {
  name: 'access',
  screens: Object.values(ACCESS_SCREENS),
  hooks: ({ registry, markingsWritten }) => accessHooks(registry, markingsWritten),
  listens: ({ registry }) => accessListeners(registry),
  tables: ensureAccessTables,
  routes: async (fastify) => {
    await scheduleCopyRoutes(fastify);
    await deviceRoutes(fastify);
    await headcountRoutes(fastify);
    await effectiveAccessRoutes(fastify);
  },
};
