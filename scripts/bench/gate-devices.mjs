/**
 * The gate devices of `npm run bench:access`, in a thread of their own: `devices` concurrent
 * devices each asking `decidir` one presentation after the other for `seconds`, so that the
 * server's event loop does not also carry the devices' side of the calls. Answers each decision's
 * time, and how many calls were refused for want of time.
 */
import { parentPort, workerData } from 'node:worker_threads';

const { address, key, cards, devices, seconds } = workerData;
const times = [];
// Refusals for want of time (the server's budget ran out) are decisions not made: counted apart.
let refused = 0;
const started = performance.now();
const until = started + seconds * 1000;
let failed = '';
await Promise.all(
  Array.from({ length: devices }, async (_, worker) => {
    for (let i = 0; performance.now() < until && !failed; i++) {
      const t0 = performance.now();
      const response = await fetch(`${address}/api/acceso/decidir`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Device ${key}` },
        body: JSON.stringify({ IdPuerta: 1 + (i % 2), Credencial: cards[(worker + i) % cards.length] }),
      });
      const text = await response.text();
      if (response.status !== 200) failed = `${response.status} ${text}`;
      else if (JSON.parse(text).result.reason === 'SYSTEM_UNAVAILABLE') refused++;
      else times.push(performance.now() - t0);
    }
  }),
);
parentPort.postMessage({ times, elapsed: performance.now() - started, failed, refused });
