import { readdirSync, statSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Plugin } from 'vite';

const COMPRESSIBLE = /\.(?:js|mjs|css|html|svg|json|txt|map)$/;
const gzipAsync = promisify(gzip);
const brotliAsync = promisify(brotliCompress);

/** Smaller files gain nothing worth a second request header. */
const MIN_BYTES = 1024;

function* files(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* files(path);
    else yield path;
  }
}

/** Writes a .br and a .gz beside every text file of the build: the server sends them as they are. */
export function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'precompress',
    apply: 'build',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
    },
    // Compressed on the thread pool, all files at once: the strongest brotli takes seconds a file.
    async closeBundle() {
      const pending = [...files(outDir)].filter((path) => COMPRESSIBLE.test(path));
      await Promise.all(
        pending.map(async (path) => {
          const content = await readFile(path);
          if (content.length < MIN_BYTES) return;
          await writeFile(`${path}.gz`, await gzipAsync(content, { level: 9 }));
          await writeFile(
            `${path}.br`,
            await brotliAsync(content, {
              params: {
                [constants.BROTLI_PARAM_QUALITY]: 11,
                [constants.BROTLI_PARAM_SIZE_HINT]: content.length,
              },
            }),
          );
        }),
      );
    },
  };
}
