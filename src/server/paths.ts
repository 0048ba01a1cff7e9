import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * The project's root: the nearest folder above this module holding package.json. The server runs
 * from src/ in development and tests and from a bundle in dist/ in production; both find the
 * schemas, locales, manuals and the built console from here.
 */
function findRoot(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'schemas'))) return dir;
    if (dirname(dir) === dir) throw new Error(`no project root above ${from}`);
  }
}

export const ROOT = findRoot(import.meta.dirname);
export const SCHEMAS_DIR = join(ROOT, 'schemas');
export const LOCALES_DIR = join(ROOT, 'locales');
export const MANUALS_DIR = join(ROOT, 'docs', 'manuals');
export const CLIENT_DIR = join(ROOT, 'dist', 'client');
export const REFERENCE_DIR = join(ROOT, 'src', 'server', 'reference');
