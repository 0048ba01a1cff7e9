import type { FastifyInstance } from 'fastify';
import { writeAudit } from '../../crud/audit.js';
import { poll } from '../../jobs/poller.js';
import { requireGrant } from '../../routes/guards.js';
import { field, objectOf, resultResponses } from '../../routes/responses.js';
import { httpsTransport } from '../../services/https-post.js';
import { WebhookRelay } from './relay.js';

const byId = { params: objectOf({ id: field.id() }, ['id']) };

/**
 * Webhooks: the relay that delivers accreditation events to the client's endpoints (in the
 * background, every JOB_POLL_SECONDS, unless the app is told not to), an endpoint's new secret
 * (shown once) and a delivery's resend.
 */
export default async function webhookRoutes(fastify: FastifyInstance): Promise<void> {
  const { database, registry } = fastify;
  const options = fastify.webhookOptions;
  const relay = new WebhookRelay(
    database,
    registry,
    fastify.sealer,
    options.transport ?? httpsTransport({ ca: options.ca }),
    () => fastify.auth.now(),
  );
  fastify.jobs.set('webhooks', relay);
  if (options.background !== false)
    poll(fastify, 'webhooks', async () => {
      await relay.round();
    });

  fastify.post<{ Params: { id: number } }>(
    '/webhooks/destinos/:id/secreto',
    {
      preHandler: requireGrant('webhook-endpoint', 'write'),
      schema: {
        tags: ['webhooks'],
        summary: 'A new signing secret for the endpoint, shown this once (the previous one stops signing)',
        ...byId,
        response: resultResponses('{ secret }', [401, 403, 404]),
      },
    },
    async (request) => {
      const entity = registry.require('webhook-endpoint');
      const before = await fastify.crud.getOne(entity, request.params.id, request.principal);
      const secret = await database.db.transaction().execute(async (trx) => {
        const made = await relay.newSecret(trx, request.params.id, request.principal.userId);
        const after = await trx
          .selectFrom(entity.table)
          .selectAll()
          .where('IdDestino', '=', request.params.id)
          .executeTakeFirst();
        await writeAudit(trx, registry, entity, 'U', request.principal, request.params.id, before, after);
        return made;
      });
      return { result: { secret } };
    },
  );

  fastify.post<{ Params: { id: number } }>(
    '/webhooks/entregas/:id/reenviar',
    {
      preHandler: requireGrant('webhook-endpoint', 'write'),
      schema: {
        tags: ['webhooks'],
        summary: 'Send a failed or delivered delivery again (pending at once, tried for another 24 hours)',
        ...byId,
        response: resultResponses('{ resent: true }', [401, 403, 404, 409]),
      },
    },
    async (request) => {
      const entity = registry.require('webhook-delivery');
      const before = await fastify.crud.getOne(entity, request.params.id, request.principal);
      await database.db.transaction().execute(async (trx) => {
        await relay.resend(
          trx,
          { IdEntrega: request.params.id, Estado: String(before.Estado) },
          request.principal.userId,
        );
        await writeAudit(
          trx,
          registry,
          entity,
          'U',
          request.principal,
          request.params.id,
          before,
          {
            ...before,
            Estado: 'P',
          },
          true,
        );
      });
      return { result: { resent: true } };
    },
  );
}
