import { lazy } from 'react';
import { DINING_SCREENS } from '../../../shared/screens.js';
import type { ClientFeature } from '../types.js';

const ManagementScreen = lazy(() => import('./ManagementScreen.js'));
const ReportScreen = lazy(() => import('./ReportScreen.js'));

/**
 * Dining halls (comedores): the supervisor's live management of a room's sittings, and the
 * consumption report, which a contractor's requester reaches too (its company's meals).
 */
export const dining: ClientFeature = {
  name: 'dining',
  routes: [
    { path: DINING_SCREENS.management.route, Component: ManagementScreen },
    { path: DINING_SCREENS.report.route, Component: ReportScreen },
  ],
};
