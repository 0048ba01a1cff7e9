import type { Feature } from '../feature.js';
import { systemHooks } from './hooks.js';
import manualRoutes from './manuals.js';

/** System screens: field rules, and the manuals the footer offers. */
export const system: Feature = {
  name: 'system',
  hooks: ({ registry }) => systemHooks(registry),
  routes: manualRoutes,
};
