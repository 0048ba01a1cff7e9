import { lazy } from 'react';
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
    { path: '/hotel/tablero', Component: DashboardScreen },
    { path: '/hotel/disponibilidad', Component: AvailabilityScreen },
    { path: '/hotel/reservas', Component: ReservationsScreen },
    { path: '/hotel/reserva-masiva', Component: MassReservationScreen },
    { path: '/hotel/reportes', Component: ReportsScreen },
  ],
};
