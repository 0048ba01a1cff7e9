/** What the load benchmarks share: concurrent callers for a time, and a line of figures per measure. */

const pct = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];

/** A line: calls a second (each worth `perCall` units) and p50/p95/p99 of the times in ms. */
export function report(label: string, times: number[], elapsed: number, unit = 'decisions/s', perCall = 1) {
  const sorted = [...times].sort((a, b) => a - b);
  const rate = Math.round(((times.length * perCall) / elapsed) * 1000);
  console.log(
    `  ${label.padEnd(46)} ${rate.toLocaleString('en').padStart(8)} ${unit}   p50 ${pct(sorted, 0.5).toFixed(2)} ms   p95 ${pct(sorted, 0.95).toFixed(2)} ms   p99 ${pct(sorted, 0.99).toFixed(2)} ms`,
  );
}

/**
 * Runs `call` from `callers` concurrent loops for `seconds`; latencies in ms and the elapsed time.
 * A call that answers false was not what is measured (a gate's refusal for want of time): its time
 * is left out and it is counted in `refused`.
 */
export async function timed(
  seconds: number,
  callers: number,
  call: (caller: number, i: number) => Promise<unknown>,
) {
  const times: number[] = [];
  let refused = 0;
  const started = performance.now();
  const until = started + seconds * 1000;
  await Promise.all(
    Array.from({ length: callers }, async (_, caller) => {
      for (let i = 0; performance.now() < until; i++) {
        const t0 = performance.now();
        if ((await call(caller, i)) === false) refused++;
        else times.push(performance.now() - t0);
      }
    }),
  );
  return { times, elapsed: performance.now() - started, refused };
}

/** fetch, once more when a kept-alive connection the server closed while a history loaded resets. */
export async function request(url: string, init?: RequestInit): Promise<Response> {
  try {
    return await fetch(url, init);
  } catch {
    return fetch(url, init);
  }
}
