import type { Feature } from '../feature.js';
import { justificationHooks } from './justifications.js';
import attendanceRoutes from './routes.js';
import { scheduleHooks } from './schedules.js';
import { ensureAttendanceTables } from './tables.js';

/**
 * Attendance: the daily results computed from the gates' markings, people's days and justifications,
 * periods computed on demand and closed for payroll.
 */
export const attendance: Feature = {
  name: 'attendance',
  hooks: ({ registry, now, markingsWritten }) => ({
    ...justificationHooks(registry, now, markingsWritten),
    ...scheduleHooks(registry),
  }),
  routes: attendanceRoutes,
  tables: ensureAttendanceTables,
};
