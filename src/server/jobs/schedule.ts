import type { FastifyInstance } from 'fastify';

/**
 * Asks a daily job from this server process every few minutes (the setting `variable`, 60 by
 * default; 0 turns it off), never two asks at once; the job's lease in the database decides which
 * process does a client's day, once. The first ask comes a tenth of the period after start, so a
 * restart after downtime catches up soon. A failed ask is logged and the next one tries again.
 */
export function askPeriodically(
  fastify: FastifyInstance,
  variable: string,
  run: () => Promise<unknown>,
  failed: string,
): void {
  const minutes = Number(process.env[variable] ?? 60);
  if (!Number.isFinite(minutes) || minutes <= 0) return;
  let running = false;
  const tick = async () => {
    if (running) return;
    running = true;
    try {
      await run();
    } catch (error) {
      fastify.log.error({ err: error }, failed);
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
