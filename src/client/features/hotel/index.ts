import { lazy } from 'react';
import { HOTEL_SCREENS } from '../../../shared/screens.js';
import type { ClientFeature } from '../types.js';

const DashboardScreen = lazy(() => import('./DashboardScreen.js'));
const AvailabilityScreen = lazy(() => import('./AvailabilityScreen.js'));
const ReservationsScreen = lazy(() => import('./ReservationsScreen.js'));
const MassReservationScreen = lazy(() => import('./MassReservationScreen.js'));
const ReportsScreen = lazy(() => import('./ReportsScreen.js'));

/**
 * Camp lodging (hotelería): the hotel administrator's dashboard, bed availability grid, mass
 * reservation and reports; the reservations list, which a requester reaches too (its company's).
 */
export const hotel: ClientFeature = {
  name: 'hotel',
  routes: [
    { path: HOTEL_SCREENS.dashboard.route, Component: DashboardScreen },
    { path: HOTEL_SCREENS.availability.route, Component: AvailabilityScreen },
    { path: HOTEL_SCREENS.reservations.route, Component: ReservationsScreen },
    { path: HOTEL_SCREENS.massReservation.route, Component: MassReservationScreen },
    { path: HOTEL_SCREENS.reports.route, Component: ReportsScreen },
  ],
};
