import { lazy } from 'react';
import { INDUCTION_SCREENS } from '../../../shared/screens.js';
import type { ClientFeature } from '../types.js';

const SessionsScreen = lazy(() => import('./SessionsScreen.js'));
const BookingsScreen = lazy(() => import('./BookingsScreen.js'));
const ReportScreen = lazy(() => import('./ReportScreen.js'));
const OnlineTestPage = lazy(() => import('./OnlineTestPage.js'));

/**
 * Inductions: the trainer's sessions (a calendar; a session's attendance by name or by scanning
 * badges, scores, closing, certificates) and report; a requester's bookings of its crews and its
 * workers' inductions.
 */
export const induction: ClientFeature = {
  name: 'induction',
  routes: [
    { path: INDUCTION_SCREENS.sessions.route, Component: SessionsScreen },
    { path: INDUCTION_SCREENS.bookings.route, Component: BookingsScreen },
    { path: INDUCTION_SCREENS.report.route, Component: ReportScreen },
  ],
  /** The online test a worker takes from the link its requester gave it, without signing in. */
  publicRoutes: [{ path: '/prueba-induccion/:token', Component: OnlineTestPage }],
};
