import type { FastifyInstance } from 'fastify';
import { askPeriodically } from '../../jobs/schedule.js';
import { ExpiryJob } from './expiry.js';

/**
 * Runs the daily expiry check from every server process: each ask (EXPIRY_CHECK_MINUTES, 60 by
 * default; 0 turns it off) runs the job, and the job's lease in the database decides which process
 * does a client's day, once.
 */
export default async function expirySchedule(fastify: FastifyInstance): Promise<void> {
  const job = new ExpiryJob(fastify.database, fastify.registry, fastify.notifier, fastify.events, () =>
    fastify.auth.now(),
  );
  askPeriodically(
    fastify,
    'EXPIRY_CHECK_MINUTES',
    async () => {
      const run = await job.runOnce();
      if (run.clients) fastify.log.info({ expiry: run }, 'expiry check done');
    },
    'expiry check failed',
  );
}
