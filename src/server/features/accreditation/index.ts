import type { Feature } from '../feature.js';
import bulkRoutes from './bulk/routes.js';
import companySummaryRoutes from './company-summary.js';
import contractRoutes from './contract-routes.js';
import { seedDemoRequests } from './demo.js';
import demobilisationRoutes from './demobilisation-routes.js';
import expirySchedule from './expiry-schedule.js';
import fileSweep from './file-sweep.js';
import queryRoutes from './queries/routes.js';
import renewalRoutes from './renewal-routes.js';
import reportRoutes from './reports/routes.js';
import requestRoutes from './request-routes.js';
import { servicesOf } from './services.js';

/** Accreditation: the requests of contractors and their evaluation (spec sections 2 to 7). */
export const accreditation: Feature = {
  demo: {
    order: 10,
    seed: ({ trx, dialect, registry, files, clientId }) =>
      seedDemoRequests(trx, dialect, registry, files, clientId),
  },
  name: 'accreditation',
  // The request forms' selects and labels.
  grants: [
    {
      routePrefix: '/movilizacion/',
      read: [
        'accreditation-profile',
        'accreditation',
        'contract',
        'company',
        'person',
        'vehicle',
        'requirement',
        'requirement-datum',
        'organisational-unit',
        'cost-centre',
        'position',
        'function',
        'vehicle-type',
        'brand',
        'colour',
        'fuel',
      ],
      forms: ['request', 'visit-person'],
    },
  ],
  // One scope for the area's calls, with its request services made once.
  routes: async (api) => {
    await api.register(async (scope) => {
      scope.decorate('requests', servicesOf(scope));
      await scope.register(companySummaryRoutes);
      await scope.register(requestRoutes);
      await scope.register(demobilisationRoutes);
      await scope.register(renewalRoutes);
      await scope.register(contractRoutes);
      await scope.register(expirySchedule);
      await scope.register(fileSweep);
      await scope.register(bulkRoutes);
      await scope.register(queryRoutes);
      await scope.register(reportRoutes);
    });
  },
};
