import type { FastifyInstance } from 'fastify';

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
