import { IDENTIFICATION_SCREENS } from '../../../shared/screens.js';
import type { Feature } from '../feature.js';
import { identificationHooks } from './hooks.js';
import { identificationListeners } from './listeners.js';
import identificationRoutes from './routes.js';

/** Identification: credentials (issue, reissue, inactivate), their badges, and a badge's verification. */
export const identification: Feature = {
  name: 'identification',
  screens: Object.values(IDENTIFICATION_SCREENS),
  hooks: ({ registry }) => identificationHooks(registry),
  listens: ({ registry }) => identificationListeners(registry),
  routes: identificationRoutes,
};
