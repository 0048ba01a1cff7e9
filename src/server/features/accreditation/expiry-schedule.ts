import type { FastifyInstance } from 'fastify';
import { ExpiryJob } from './expiry.js';

/**
 * Runs the daily expiry check from every server process: each tick (EXPIRY_CHECK_MINUTES, 60 by
 * default; 0 turns it off) asks the job, and the job's lease in the database decides which process
 * does a client's day, once. The first tick comes a tenth of the period after start, so a restart
 * after downtime catches up soon.
 */
export default async function expirySchedule(fastify: FastifyInstance): Promise<void> {
  const minutes = Number(process.env.EXPIRY_CHECK_MINUTES ?? 60);
  if (!Number.isFinite(minutes) || minutes <= 0) return;
  const job = new ExpiryJob(fastify.database, fastify.registry, fastify.notifier, fastify.events, () =>
    fastify.auth.now(),
  );
  let running = false;
  const tick = async () => {
    if (running) return;
    running = true;
    try {
      const run = await job.runOnce();
      if (run.clients) fastify.log.info({ expiry: run }, 'expiry check done');
    } catch (error) {
      fastify.log.error({ err: error }, 'expiry check failed');
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
