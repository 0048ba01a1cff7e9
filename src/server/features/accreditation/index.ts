import type { Feature } from '../feature.js';
import bulkRoutes from './bulk/routes.js';
import companySummaryRoutes from './company-summary.js';
import { seedDemoRequests } from './demo.js';
import type { Kinds } from './engine/engine.js';
import expirySchedule from './expiry-schedule.js';
import fileSweep from './file-sweep.js';
import { KINDS } from './kinds/index.js';
import { accreditationPersonalData } from './personal-data.js';
import queryRoutes from './queries/routes.js';
import reportRoutes from './reports/routes.js';
import { servicesOf } from './services.js';

/**
 * Accreditation: the requests of contractors and their evaluation (spec sections 2 to 7), over
 * `kinds` (the product's, kinds/index.ts; a test adds one of its own the same way).
 */
export const accreditationFeature = (kinds: Kinds = KINDS): Feature => ({
  demo: {
    order: 10,
    seed: ({ trx, dialect, registry, files, clientId }) =>
      seedDemoRequests(trx, dialect, registry, files, clientId),
  },
  name: 'accreditation',
  personalData: accreditationPersonalData,
  // The request forms' selects and labels.
  grants: [
    // The rejection's kinds of indiscipline, for whoever evaluates.
    { routePrefix: '/movilizacion/autorizador', read: ['indiscipline'] },
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
  // One scope for the area's calls, with its request services made once; each kind's calls once.
  routes: async (api) => {
    await api.register(async (scope) => {
      scope.decorate('requests', servicesOf(scope, kinds));
      await scope.register(companySummaryRoutes);
      for (const routes of new Set(Object.values(kinds).flatMap((k) => (k.routes ? [k.routes] : []))))
        await scope.register(routes);
      await scope.register(expirySchedule);
      await scope.register(fileSweep);
      await scope.register(bulkRoutes);
      await scope.register(queryRoutes);
      await scope.register(reportRoutes);
    });
  },
});

export const accreditation = accreditationFeature();
