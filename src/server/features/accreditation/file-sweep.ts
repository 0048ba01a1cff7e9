import type { FastifyInstance } from 'fastify';
import type { Database } from '../../db/connection.js';
import { Leases } from '../../jobs/leases.js';
import type { Registry } from '../../registry.js';
import { sweepOrphans } from '../../storage/files.js';

const HOUR_MS = 3_600_000;

/** The sweep's name in the lease table (its row is kept under the first client). */
export const SWEEP_JOB = 'ARCHIVOS';

/**
 * Once a day (the first time ten minutes after start), removes the kept files no row names any
 * more: a request deleted, a file written outside the transaction that named it rolled back. With
 * several server processes on one database, one sweeps each day: the sweep is claimed through a
 * lease (jobs/leases.ts) recording the last day swept; a file is removed only when no row names
 * it and it is older than the sweep's grace period.
 */
export default async function fileSweep(fastify: FastifyInstance): Promise<void> {
  const referenced = referencedFiles(fastify.database, fastify.registry);
  const leases = new Leases(fastify.database.db, fastify.registry);
  const sweep = async () => {
    try {
      const first = (await fastify.database.db
        .selectFrom(fastify.registry.require('client').table)
        .select('IdCliente')
        .orderBy('IdCliente')
        .executeTakeFirst()) as { IdCliente: number } | undefined;
      if (!first) return;
      const today = new Date().toISOString().slice(0, 10);
      if (!(await leases.take(first.IdCliente, SWEEP_JOB, { notDoneOn: today }))) return;
      const result = await sweepOrphans(fastify.files, referenced);
      await leases.release(first.IdCliente, SWEEP_JOB, { doneOn: today });
      if (result.removed) fastify.log.info({ files: result }, 'orphan files removed');
    } catch (error) {
      fastify.log.error({ err: error }, 'orphan file sweep failed');
    }
  };
  const timers: NodeJS.Timeout[] = [];
  fastify.addHook('onReady', async () => {
    // Looked at every hour: the day's sweep runs once, in whichever process takes it first.
    timers.push(setTimeout(sweep, 10 * 60_000).unref(), setInterval(sweep, HOUR_MS).unref());
  });
  fastify.addHook('onClose', async () => {
    for (const timer of timers) clearTimeout(timer);
  });
}

/**
 * Which of the given file keys a row names: a request's photo or file, a request line's, a kept
 * requirement's or a bulk upload's file, a person's or a vehicle's photo.
 */
export function referencedFiles(database: Database, registry: Registry) {
  const named: Array<[string, string]> = [
    [registry.require('request').table, 'ClaveFoto'],
    [registry.require('request').table, 'ClaveArchivo'],
    [registry.require('request-detail').table, 'ClaveArchivo'],
    [registry.require('accredited-requirement').table, 'ClaveArchivo'],
    [registry.require('bulk-upload-file').table, 'ClaveArchivo'],
    [registry.require('person-photo').table, 'ClaveArchivo'],
    [registry.require('vehicle-photo').table, 'ClaveArchivo'],
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
