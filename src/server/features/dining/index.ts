import type { Feature } from '../feature.js';
import { diningHooks } from './hooks.js';
import { diningListeners } from './listeners.js';
import diningReportRoutes from './report-routes.js';
import diningRoutes from './routes.js';
import { ensureDiningTables } from './tables.js';

/** Dining halls: the readers' meal decisions, the supervisor's live management and the consumption report. */
export const dining: Feature = {
  name: 'dining',
  hooks: () => diningHooks(),
  listens: ({ registry }) => diningListeners(registry),
  tables: ensureDiningTables,
  routes: async (api) => {
    await api.register(diningRoutes);
    await api.register(diningReportRoutes);
  },
};
