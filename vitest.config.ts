import { defineConfig } from 'vitest/config';

/**
 * Three projects, in two groups: the unit and API tests first, two files at a time (an API file
 * waits on its databases much of the time), then the browser tests, two files at a time (each
 * file runs a server of its own on a database of its own, and a browser).
 */
export default defineConfig({
  test: {
    // The databases every suite copies, prepared once per run (tests/support/templates.ts).
    globalSetup: ['tests/support/templates.ts'],
    projects: [
      {
        test: {
          name: 'unit',
          include: ['tests/unit/**/*.test.ts', 'workflows/**/*.test.ts'],
          environment: 'node',
          maxWorkers: 2,
          sequence: { groupOrder: 0 },
        },
      },
      {
        test: {
          name: 'api',
          include: ['tests/api/**/*.test.ts'],
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 60_000,
          maxWorkers: 2,
          isolate: false,
          sequence: { groupOrder: 0 },
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.test.ts'],
          environment: 'node',
          testTimeout: 120_000,
          hookTimeout: 120_000,
          maxWorkers: 2,
          isolate: false,
          sequence: { groupOrder: 1 },
          // A busy two-core machine can take more than the default second to answer a click.
          expect: { poll: { timeout: 10_000 } },
        },
      },
    ],
  },
});
