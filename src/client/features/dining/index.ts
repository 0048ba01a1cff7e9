import { lazy } from 'react';
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
    { path: '/comedor/gestion', Component: ManagementScreen },
    { path: '/comedor/consumos', Component: ReportScreen },
  ],
};
