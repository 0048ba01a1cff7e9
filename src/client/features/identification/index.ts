import { lazy } from 'react';
import { IDENTIFICATION_SCREENS } from '../../../shared/screens.js';
import type { ClientFeature } from '../types.js';

const IdentificationScreen = lazy(() => import('./IdentificationScreen.js'));

/** Identification: the identification office's management of credentials and badges. */
export const identification: ClientFeature = {
  name: 'identification',
  routes: [{ path: IDENTIFICATION_SCREENS.management.route, Component: IdentificationScreen }],
};
