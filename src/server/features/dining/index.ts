import type { Feature } from '../feature.js';
import { diningHooks } from './hooks.js';
import diningRoutes from './routes.js';

/** Dining halls: the readers' meal decisions, the supervisor's live management and the consumption report. */
export const dining: Feature = {
  name: 'dining',
  hooks: () => diningHooks(),
  routes: diningRoutes,
};
