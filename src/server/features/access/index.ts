import type { Feature } from '../feature.js';
import { accessHooks } from './hooks.js';
import scheduleCopyRoutes from './schedule-copy.js';

/** Access screens: schedules and their intervals. */
export const access: Feature = {
  name: 'access',
  hooks: ({ registry }) => accessHooks(registry),
  routes: scheduleCopyRoutes,
};
