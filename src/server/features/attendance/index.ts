import type { Feature } from '../feature.js';
import attendanceRoutes from './routes.js';

/** Attendance: the daily results computed from the gates' markings, people's days, periods computed on demand. */
export const attendance: Feature = {
  name: 'attendance',
  routes: attendanceRoutes,
};
