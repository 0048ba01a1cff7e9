/**
 * What the sign-in page downloads: the scripts and styles of the built console (dist/client, from
 * `npm run build`) that a browser fetches to show /auth/login, with their sizes as served, brotli
 * and gzip (the build writes both beside each file). Builds nothing; reads dist/ only.
 *
 *   npm run bench:login
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';

/** The module the first script loads for a visitor who is not signed in. */
export const LOGIN_MODULE = 'pages/login/LoginApp.tsx';

interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
}

export interface AssetSize {
  file: string;
  raw: number;
  gzip: number;
  brotli: number;
}

function sizeOf(dir: string, file: string): AssetSize {
  const path = join(dir, file);
  const content = readFileSync(path);
  const stored = (suffix: string, make: () => Buffer) =>
    existsSync(path + suffix) ? statSync(path + suffix).size : make().length;
  return {
    file,
    raw: content.length,
    gzip: stored('.gz', () => gzipSync(content, { level: 9 })),
    brotli: stored('.br', () => brotliCompressSync(content)),
  };
}

/** The files the sign-in page loads: the entry, the sign-in module, and everything they import. */
export function loginAssets(distClient: string): AssetSize[] {
  const manifestPath = join(distClient, '.vite', 'manifest.json');
  if (!existsSync(manifestPath)) throw new Error(`${manifestPath} is missing: run \`npm run build\` first.`);
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as Record<string, ManifestChunk>;
  // The console's page (the build also has the gate app's, garita/index.html).
  const entry = Object.keys(manifest).find((key) => manifest[key].isEntry && key === 'index.html');
  if (!entry) throw new Error('the build has no entry chunk');
  if (!manifest[entry].dynamicImports?.includes(LOGIN_MODULE))
    throw new Error(`the entry does not load ${LOGIN_MODULE} on demand`);
  const files = new Set<string>();
  const visit = (key: string) => {
    const chunk = manifest[key];
    if (!chunk || files.has(chunk.file)) return;
    files.add(chunk.file);
    for (const css of chunk.css ?? []) files.add(css);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  visit(entry);
  visit(LOGIN_MODULE);
  return [...files].map((file) => sizeOf(distClient, file));
}

const kB = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`;

if (import.meta.url === `file://${process.argv[1]}`) {
  const dist = resolve(import.meta.dirname, '../dist/client');
  const assets = loginAssets(dist);
  const total = assets.reduce(
    (sum, a) => ({ raw: sum.raw + a.raw, gzip: sum.gzip + a.gzip, brotli: sum.brotli + a.brotli }),
    { raw: 0, gzip: 0, brotli: 0 },
  );
  const rows = [
    ['file', 'raw', 'gzip', 'brotli'],
    ...assets.map((a) => [a.file, kB(a.raw), kB(a.gzip), kB(a.brotli)]),
    ['total (what /auth/login loads)', kB(total.raw), kB(total.gzip), kB(total.brotli)],
  ];
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  for (const row of rows)
    console.log(row.map((cell, i) => (i ? cell.padStart(widths[i]) : cell.padEnd(widths[i]))).join('  '));
}
