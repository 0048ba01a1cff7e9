/**
 * Bundles the server into dist/server/main.js (`npm run build` runs it after the console's build):
 * production starts plain JavaScript, without compiling TypeScript at start-up. Packages stay
 * external, resolved from node_modules as in development.
 */
import { build } from 'esbuild';

export async function buildServer(): Promise<void> {
  await build({
    entryPoints: ['src/server/main.ts'],
    outfile: 'dist/server/main.js',
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    sourcemap: true,
    logLevel: 'warning',
  });
}

if (import.meta.url === `file://${process.argv[1]}`) await buildServer();
