import type { Feature } from '../feature.js';
import webhookRoutes from './routes.js';

/**
 * Webhooks: the client's accreditation events told to other systems over HTTPS, signed, in order
 * per accreditation, retried for a day; endpoints and deliveries are entities of System >
 * Integration, this area adds the relay, an endpoint's secret and a delivery's resend.
 */
export const webhooks: Feature = {
  name: 'webhooks',
  routes: webhookRoutes,
};
