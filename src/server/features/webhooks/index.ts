import type { Feature } from '../feature.js';
import webhookRoutes from './routes.js';
import { ensureWebhookTables, WEBHOOK_SECRET_TABLE } from './tables.js';

/**
 * Webhooks: the client's accreditation events told to other systems over HTTPS, signed, in order
 * per accreditation, retried for a day; endpoints and deliveries are entities of System >
 * Integration, this area adds the relay, an endpoint's secret and a delivery's resend.
 */
export const webhooks: Feature = {
  name: 'webhooks',
  routes: webhookRoutes,
  tables: ensureWebhookTables,
  hooks: () => ({
    // An endpoint deleted takes its secret with it, in the same transaction.
    'webhook-endpoint': {
      beforeDelete: async ({ db, existing }) => {
        await db
          .deleteFrom(WEBHOOK_SECRET_TABLE)
          .where('IdDestino', '=', existing.IdDestino as number)
          .execute();
      },
    },
  }),
};
