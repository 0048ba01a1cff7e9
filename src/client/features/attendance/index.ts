import { lazy } from 'react';
import type { ClientFeature } from '../types.js';

const PeopleScreen = lazy(() => import('./PeopleScreen.js'));

/** Attendance: people management (a person's month as a calendar of daily results and markings). */
export const attendance: ClientFeature = {
  name: 'attendance',
  routes: [{ path: '/asistencia/personas', Component: PeopleScreen }],
};
