import { lazy } from 'react';
import { TRANSPORT_SCREENS } from '../../../shared/screens.js';
import type { ClientFeature } from '../types.js';

const TripsScreen = lazy(() => import('./TripsScreen.js'));
const BoardScreen = lazy(() => import('./BoardScreen.js'));
const SeatsScreen = lazy(() => import('./SeatsScreen.js'));
const ReportScreen = lazy(() => import('./ReportScreen.js'));

/**
 * Transport: the coordinator's trips of a day (timetables by roster, a change day's manifests, a
 * trip's passengers, boarding, departure and arrival), the live board and the report; a
 * requester's seats for its workers.
 */
export const transport: ClientFeature = {
  name: 'transport',
  routes: [
    { path: TRANSPORT_SCREENS.trips.route, Component: TripsScreen },
    { path: TRANSPORT_SCREENS.board.route, Component: BoardScreen },
    { path: TRANSPORT_SCREENS.seats.route, Component: SeatsScreen },
    { path: TRANSPORT_SCREENS.report.route, Component: ReportScreen },
  ],
};
