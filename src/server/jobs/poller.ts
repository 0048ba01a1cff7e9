import type { FastifyInstance } from 'fastify';
import { Leases } from './leases.js';

/** How often a process looks for background work nobody holds (JOB_POLL_SECONDS, 10 by default). */
export function pollMs(): number {
  const seconds = Number(process.env.JOB_POLL_SECONDS ?? 10);
  return (Number.isFinite(seconds) && seconds > 0 ? seconds : 10) * 1000;
}

/**
 * Runs `look` once the server is ready and then every `pollMs()`, never two at once, until the
 * server closes. A failed look is logged and the next one tries again.
 */
export function poll(fastify: FastifyInstance, name: string, look: () => Promise<void>): void {
  let timer: NodeJS.Timeout | undefined;
  let closing = false;
  const round = async () => {
    try {
      await look();
    } catch (error) {
      fastify.log.error({ err: error, job: name }, 'background job look-up failed');
    }
    if (!closing) timer = setTimeout(round, pollMs()).unref();
  };
  fastify.addHook('onReady', async () => {
    timer = setTimeout(round, 0).unref();
  });
  fastify.addHook('preClose', async () => {
    closing = true;
    clearTimeout(timer);
  });
}

/**
 * A job run for each client every poll by whichever process takes the client's lease
 * (jobs/leases.ts): with several processes on one database it runs once at a time. `work` answers
 * how many things it did; a round that did any is logged as `done`.
 */
export function pollEachClient(
  fastify: FastifyInstance,
  job: string,
  work: (clientId: number) => Promise<number>,
  done: string,
): void {
  const { db } = fastify.database;
  const leases = new Leases(db, fastify.registry);
  poll(fastify, job, async () => {
    const clients = (await db
      .selectFrom(fastify.registry.require('client').table)
      .select('IdCliente')
      .execute()) as Array<{ IdCliente: number }>;
    for (const { IdCliente } of clients) {
      const count = await leases.hold(IdCliente, job, () => work(IdCliente));
      if (count) fastify.log.info({ client: IdCliente, job, count }, done);
    }
  });
}
