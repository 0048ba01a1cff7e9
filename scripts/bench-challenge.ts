/**
 * What the sign-in challenge costs: a person (the widget solving in Debian's Chromium, on a
 * desktop) and a script (Node solving with altcha-lib, one core), at the difficulty of an address
 * with no failures, and what that makes of the highest one (six doublings). Starts the built
 * product (run `npm run build` first) with the challenge on, over an empty SQLite database.
 *
 *   npm run bench:challenge [-- --runs 10]
 */

import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Challenge, solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import { DEFAULT_CHALLENGE } from '../src/server/auth/challenge.js';
import { launchBrowser } from '../tests/support/browser.js';
import { freePort } from './bench/setup.js';

const runs = Number(process.argv[process.argv.indexOf('--runs') + 1]) || 10;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

const port = await freePort();
const child = spawn(process.execPath, ['dist/server/main.js'], {
  env: {
    ...process.env,
    NODE_ENV: 'production',
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    DEMO_DATA: 'off',
    DATABASE_URL: '',
    DATA_DIR: mkdtempSync(join(tmpdir(), 'acr-bench-challenge-')),
    SIGN_IN_CHALLENGE: 'on',
  },
  stdio: 'inherit',
});
const url = `http://127.0.0.1:${port}`;
for (let i = 0; ; i++) {
  if (i > 600) throw new Error('the server did not start');
  if (
    await fetch(`${url}/api/health`).then(
      (r) => r.ok,
      () => false,
    )
  )
    break;
  await new Promise((resolve) => setTimeout(resolve, 100));
}
try {
  const fetchChallenge = async () => (await (await fetch(`${url}/api/auth/challenge`)).json()) as Challenge;

  // A script: Node, one core, altcha-lib's solver (what a scripted sign-in must do per try).
  const node: { ms: number; tries: number }[] = [];
  for (let i = 0; i < runs; i++) {
    const challenge = await fetchChallenge();
    const started = performance.now();
    const solution = await solveChallenge({ challenge, deriveKey });
    if (!solution) throw new Error('not solved');
    node.push({ ms: performance.now() - started, tries: solution.counter + 1 });
  }
  const triesPerSecond = node.reduce((s, r) => s + r.tries, 0) / (node.reduce((s, r) => s + r.ms, 0) / 1000);
  const meanTries = (DEFAULT_CHALLENGE.tries * 3) / 4;

  // A person: the sign-in page's widget in Chromium (its half-second minimum display turned off).
  const browser = await launchBrowser();
  const chromium: number[] = [];
  let browserTries = 0;
  let browserMs = 0;
  try {
    const page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
    await page.goto(`${url}/auth/login`);
    await page.waitForFunction(() => {
      const widget = document.querySelector('altcha-widget') as unknown as { getState?: () => string } | null;
      return widget?.getState?.() === 'verified';
    });
    for (let i = 0; i < runs; i++) {
      const challenge = await fetchChallenge();
      const result = await page.evaluate(async (given) => {
        const widget = document.querySelector('altcha-widget') as unknown as {
          reset: () => void;
          configure: (c: object) => Promise<void>;
          verify: () => Promise<{ solution?: { counter: number } } | null>;
        };
        widget.reset();
        await widget.configure({ challenge: given, minDuration: 0 });
        const started = performance.now();
        const answer = await widget.verify();
        return { ms: performance.now() - started, tries: (answer?.solution?.counter ?? 0) + 1 };
      }, challenge);
      chromium.push(result.ms);
      browserTries += result.tries;
      browserMs += result.ms;
    }
  } finally {
    await browser.close();
  }
  const browserRate = browserTries / (browserMs / 1000);

  const row = (what: string, ms: number) => `| ${what} | ${(ms / 1000).toFixed(2)} s |`;
  console.log(
    `\nchallenge: ${DEFAULT_CHALLENGE.tries} tries at most (PBKDF2/SHA-256, ${DEFAULT_CHALLENGE.cost} iterations a try), ${runs} runs each\n`,
  );
  console.log('| who | median time to solve one challenge |');
  console.log('| --- | --- |');
  console.log(row('a person: Chromium, the sign-in page', median(chromium)));
  console.log(row('a script: Node, one core', median(node.map((r) => r.ms))));
  console.log(
    `\nChromium: ${Math.round(browserRate)} tries/s; Node, one core: ${Math.round(triesPerSecond)} tries/s`,
  );
  const perCore = (doublings: number) => triesPerSecond / (meanTries * 2 ** doublings);
  console.log(
    `a script's sign-in attempts per second per core: ${perCore(0).toFixed(2)} with no failures, ` +
      `${perCore(DEFAULT_CHALLENGE.maxDoublings).toFixed(3)} at ${2 ** DEFAULT_CHALLENGE.maxDoublings}× (after ${DEFAULT_CHALLENGE.freeFailures + DEFAULT_CHALLENGE.maxDoublings} failures)`,
  );
  console.log(
    `a person at ${2 ** DEFAULT_CHALLENGE.maxDoublings}×: about ${((meanTries * 2 ** DEFAULT_CHALLENGE.maxDoublings) / browserRate).toFixed(0)} s in Chromium`,
  );
} finally {
  child.kill();
}
