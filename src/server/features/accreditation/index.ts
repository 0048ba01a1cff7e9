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
  routes: async (api) => {
    await api.register(companySummaryRoutes);
    await api.register(requestRoutes);
    await api.register(demobilisationRoutes);
    await api.register(renewalRoutes);
    await api.register(contractRoutes);
    await api.register(expirySchedule);
    await api.register(fileSweep);
    await api.register(bulkRoutes);
    await api.register(queryRoutes);
    await api.register(reportRoutes);
  },
};
