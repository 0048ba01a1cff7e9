import type { FastifyInstance } from 'fastify';
import { ApiError } from '../../errors.js';
import { requireGrant } from '../../routes/guards.js';
import { resultResponses } from '../../routes/responses.js';
import { RetentionBusy, RetentionJob } from './retention.js';

/**
 * The retention job: once a day per client from whichever server takes the client's lease
 * (RETENTION_CHECK_MINUTES, 60 by default, asks; 0 turns it off; the first ask comes a tenth of the
 * period after start), and on demand from the retention rules' screen: a dry run that shows what
 * would go, and a run now.
 */
export default async function privacyRoutes(fastify: FastifyInstance): Promise<void> {
  const job = new RetentionJob(fastify.database, fastify.registry, fastify.personalData, () =>
    fastify.auth.now(),
  );
  fastify.jobs.set('retention', { round: () => job.runDaily() });
  schedule(fastify, () => job.runDaily());

  for (const [path, dryRun, summary] of [
    [
      'simular',
      true,
      'What the retention job would anonymise now, by data class, and whom it would keep and why (nothing changes)',
    ],
    ['ejecutar', false, 'Runs the retention job for the session’s client now'],
  ] as const)
    fastify.post(
      `/privacidad/conservacion/${path}`,
      {
        preHandler: requireGrant('retention-rule', 'write'),
        schema: {
          tags: ['privacy'],
          summary,
          response: resultResponses(
            '{ id, dryRun, people, classes: { <class>: { anonymised, kept: { <reason>: n } } } }',
            [401, 403, 409],
          ),
        },
      },
      async (request) => {
        try {
          return { result: await job.runNow(request.principal, dryRun) };
        } catch (error) {
          if (error instanceof RetentionBusy)
            throw new ApiError('CONFLICT', { messageKey: 'privacy.retentionBusy' });
          throw error;
        }
      },
    );
}

function schedule(fastify: FastifyInstance, run: () => Promise<unknown>): void {
  const minutes = Number(process.env.RETENTION_CHECK_MINUTES ?? 60);
  if (!Number.isFinite(minutes) || minutes <= 0) return;
  let running = false;
  const tick = async () => {
    if (running) return;
    running = true;
    try {
      await run();
    } catch (error) {
      fastify.log.error({ err: error }, 'retention run failed');
    } finally {
      running = false;
    }
  };
  const timers: NodeJS.Timeout[] = [];
  fastify.addHook('onReady', async () => {
    timers.push(
      setTimeout(tick, (minutes * 60_000) / 10).unref(),
      setInterval(tick, minutes * 60_000).unref(),
    );
  });
  fastify.addHook('onClose', async () => {
    for (const timer of timers) clearTimeout(timer);
  });
}
