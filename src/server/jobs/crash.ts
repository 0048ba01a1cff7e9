/**
 * Crash points, for the tests that kill a server half-way through a job: with
 * `JOB_CRASH_AT=<point>:<n>` (say `bulk.process:21`) the process kills itself with SIGKILL, as a
 * power cut would, the n-th time it passes `point`; a point inside a transaction kills it before
 * that transaction commits. A test so kills a job at the same step whatever the machine's speed,
 * where killing it from outside after some rows would land anywhere (or after the end, on a fast
 * machine). Not read in production (NODE_ENV=production).
 */
const asked = process.env.NODE_ENV === 'production' ? undefined : process.env.JOB_CRASH_AT;
const [point, times] = asked?.split(':') ?? [];
let passed = 0;

/** Passing `name`: the process dies here if a test asked for it at this pass. */
export function crashPoint(name: string): void {
  if (name !== point) return;
  passed += 1;
  if (passed === Number(times)) process.kill(process.pid, 'SIGKILL');
}
