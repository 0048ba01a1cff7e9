import { lazy } from 'react';
import { ATTENDANCE_SCREENS } from '../../../shared/screens.js';
import type { ClientFeature } from '../types.js';

const PeopleScreen = lazy(() => import('./PeopleScreen.js'));
const PeriodScreen = lazy(() => import('./PeriodScreen.js'));
const ClosingScreen = lazy(() => import('./ClosingScreen.js'));

/**
 * Attendance: people management (a person's month as a calendar of daily results and markings), a
 * period's grid of people by day with its totals, and the payrolls' closing.
 */
export const attendance: ClientFeature = {
  name: 'attendance',
  routes: [
    { path: ATTENDANCE_SCREENS.people.route, Component: PeopleScreen },
    { path: ATTENDANCE_SCREENS.period.route, Component: PeriodScreen },
    { path: ATTENDANCE_SCREENS.closing.route, Component: ClosingScreen },
  ],
};
