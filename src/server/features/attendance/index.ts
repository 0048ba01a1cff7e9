import { ATTENDANCE_SCREENS } from '../../../shared/screens.js';
import type { Feature } from '../feature.js';
import { demoPlans, seedDemoAttendance } from './demo.js';
import { seedDemoMarkings } from './demo-markings.js';
import { justificationHooks } from './justifications.js';
import attendanceRoutes from './routes.js';
import { scheduleHooks } from './schedules.js';
import { ATTENDANCE_TABLES, ensureAttendanceTables } from './tables.js';

/**
 * Attendance: the daily results computed from the gates' markings, people's days and justifications,
 * periods computed on demand and closed for payroll.
 */
export const attendance: Feature = {
  name: 'attendance',
  screens: Object.values(ATTENDANCE_SCREENS),
  hooks: ({ registry, now, markingsWritten }) => ({
    ...justificationHooks(registry, now, markingsWritten),
    ...scheduleHooks(registry),
  }),
  routes: attendanceRoutes,
  tables: ensureAttendanceTables,
  // A person's days of a payroll period not yet closed are still to be paid: their data stay.
  personalData: () => ({
    holds: [
      {
        reason: 'payroll',
        people: (db, client) =>
          db
            .selectFrom(ATTENDANCE_TABLES.day)
            .select('IdPersona')
            .where('IdCliente', '=', client)
            .where('IdPlanilla', 'is not', null)
            .where('Cerrado', '=', 'N'),
      },
    ],
  }),
  // A month of markings at the gates as the demo's workers' schedules plan them, then their days.
  demo: {
    order: 20,
    seed: async ({ trx, registry, clientId, now }) => ({
      ...(await seedDemoMarkings(trx, clientId, now, await demoPlans(trx, registry, clientId, now))),
      ...(await seedDemoAttendance(trx, registry, clientId, now)),
    }),
  },
};
