import { DINING_SCREENS } from '../../../shared/screens.js';
import type { Feature } from '../feature.js';
import { seedDemoDining } from './demo.js';
import { diningHooks } from './hooks.js';
import { diningListeners } from './listeners.js';
import diningReportRoutes from './report-routes.js';
import diningRoutes from './routes.js';
import { ensureDiningTables } from './tables.js';

/** Dining halls: the readers' meal decisions, the supervisor's live management and the consumption report. */
export const dining: Feature = {
  name: 'dining',
  screens: Object.values(DINING_SCREENS),
  hooks: () => diningHooks(),
  listens: ({ registry }) => diningListeners(registry),
  tables: ensureDiningTables,
  demo: {
    order: 40,
    seed: ({ trx, registry, clientId, now }) => seedDemoDining(trx, registry, clientId, now),
  },
  routes: async (api) => {
    await api.register(diningRoutes);
    await api.register(diningReportRoutes);
  },
};
