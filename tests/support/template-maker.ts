/**
 * Makes one dialect's pair of template databases (templates.ts): the bare one prepared, then the
 * demo one as its copy (SQLite's folder copied, PostgreSQL's database created from it) with the
 * demo data loaded. Run as its own process for PostgreSQL (`node --import tsx template-maker.ts
 * postgres <bare folder> <demo folder> <bare database> <demo database>`), so that its JavaScript
 * runs on the other core while this one makes SQLite's.
 */
import { cpSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type DialectName, openDatabase } from '../../src/server/db/connection.js';
import { seedDemo } from '../../src/server/demo/seed.js';
import { prepareDatabase } from '../../src/server/prepare.js';
import { loadRegistry } from '../../src/server/registry.js';
import { fileStoreFor } from '../../src/server/storage/files.js';
import { createPostgresDatabase, postgresUrl } from './postgres.js';

export interface TemplatePair {
  dialect: DialectName;
  folders: { bare: string; demo: string };
  /** PostgreSQL's database names. */
  names?: { bare: string; demo: string };
}

async function open(where: string, name?: string) {
  mkdirSync(where, { recursive: true });
  return openDatabase(
    name ? { databaseUrl: postgresUrl(name), dataDir: where, poolSize: 2 } : { dataDir: where },
  );
}

export async function makeTemplatePair({ dialect, folders, names }: TemplatePair): Promise<void> {
  const registry = loadRegistry();
  if (dialect === 'postgres' && !names) throw new Error('PostgreSQL templates need their names');
  if (names) await createPostgresDatabase(names.bare);
  const bare = await open(folders.bare, names?.bare);
  try {
    await prepareDatabase(bare, registry);
  } finally {
    // Closing SQLite folds its write-ahead log into the file: the folder is whole to copy.
    await bare.close();
  }
  cpSync(folders.bare, folders.demo, { recursive: true });
  if (names) await createPostgresDatabase(names.demo, names.bare);
  const demo = await open(folders.demo, names?.demo);
  try {
    await seedDemo(demo, registry, { files: fileStoreFor(demo, join(folders.demo, 'files')) });
  } finally {
    await demo.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const [dialect, bare, demo, bareName, demoName] = process.argv.slice(2);
  await makeTemplatePair({
    dialect: dialect as DialectName,
    folders: { bare, demo },
    names: bareName ? { bare: bareName, demo: demoName } : undefined,
  });
}
