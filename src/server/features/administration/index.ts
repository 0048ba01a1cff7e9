import type { Feature } from '../feature.js';
import { administrationHooks } from './hooks.js';

/** Administration screens: people, contracts, companies. */
export const administration: Feature = {
  name: 'administration',
  hooks: ({ registry }) => administrationHooks(registry),
};
