import type { FastifyInstance } from 'fastify';
import type { Database } from '../../db/connection.js';
import type { Registry } from '../../registry.js';
import { sweepOrphans } from '../../storage/files.js';

const DAY_MS = 86_400_000;

/**
 * Once a day (the first time ten minutes after start), removes the kept files no row names any
 * more: a request deleted, a transaction rolled back after its file was written. Several server
 * processes may sweep at once: a file is removed only when no row names it and it is older than
 * the sweep's grace period.
 */
export default async function fileSweep(fastify: FastifyInstance): Promise<void> {
  const referenced = referencedFiles(fastify.database, fastify.registry);
  const sweep = async () => {
    try {
      const result = await sweepOrphans(fastify.files, referenced);
      if (result.removed) fastify.log.info({ files: result }, 'orphan files removed');
    } catch (error) {
      fastify.log.error({ err: error }, 'orphan file sweep failed');
    }
  };
  const timers: NodeJS.Timeout[] = [];
  fastify.addHook('onReady', async () => {
    timers.push(setTimeout(sweep, 10 * 60_000).unref(), setInterval(sweep, DAY_MS).unref());
  });
  fastify.addHook('onClose', async () => {
    for (const timer of timers) clearTimeout(timer);
  });
}

/**
 * Which of the given file keys a row names: a request's photo or file, a request line's, a kept
 * requirement's or a bulk upload's file.
 */
export function referencedFiles(database: Database, registry: Registry) {
  const named: Array<[string, string]> = [
    [registry.require('request').table, 'ClaveFoto'],
    [registry.require('request').table, 'ClaveArchivo'],
    [registry.require('request-detail').table, 'ClaveArchivo'],
    [registry.require('accredited-requirement').table, 'ClaveArchivo'],
    [registry.require('bulk-upload-file').table, 'ClaveArchivo'],
  ];
  return async (keys: string[]): Promise<Set<string>> => {
    const found = new Set<string>();
    for (const [table, column] of named) {
      const rows = await database.db.selectFrom(table).select(column).where(column, 'in', keys).execute();
      for (const row of rows) found.add(String((row as Record<string, unknown>)[column]));
    }
    return found;
  };
}
