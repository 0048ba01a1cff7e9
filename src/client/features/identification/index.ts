import { lazy } from 'react';
import type { ClientFeature } from '../types.js';

const IdentificationScreen = lazy(() => import('./IdentificationScreen.js'));

/** Identification: the identification office's management of credentials and badges. */
export const identification: ClientFeature = {
  name: 'identification',
  routes: [{ path: '/identificacion/gestion', Component: IdentificationScreen }],
};
