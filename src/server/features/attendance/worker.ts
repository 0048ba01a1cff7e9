import type { FastifyInstance } from 'fastify';
import type { ExpressionBuilder } from 'kysely';
import { daysAround } from '../../../shared/attendance.js';
import { addDays, siteDate } from '../../../shared/dates.js';
import { type Db, isPostgres } from '../../db/connection.js';
import { Leases } from '../../jobs/leases.js';
import { poll } from '../../jobs/poller.js';
import { ACCESS_TABLES } from '../../services/site/tables.js';
import {
  type AttendanceTables,
  attendanceTables,
  computePeriod,
  lanesOf,
  loadClientSetup,
  recomputeDays,
} from './compute.js';

/** The jobs' names in the lease table: the marked days' recomputation, and the closing of each day. */
export const ATTENDANCE_JOB = 'ASISTENCIA';
export const ATTENDANCE_DAY_JOB = 'ASISTENCIA_DIA';

/** Marked days taken per round. */
const ROUND = 2000;

/**
 * Recomputes a client's marked days (access_marked_day) until none is left: each round takes the
 * oldest ones, recomputes the day before, the day and the day after of each (a night turn's window
 * crosses midnight), and removes the marked days it read at the version it read, so one marked
 * again meanwhile goes round once more. Answers how many marked days were taken.
 */
export async function drainMarkedDays(
  db: Db,
  tables: AttendanceTables,
  clientId: number,
  signal?: AbortSignal,
  now: () => number = Date.now,
  lanes = 1,
) {
  let taken = 0;
  for (;;) {
    if (signal?.aborted) return taken;
    const rows = (await db
      .selectFrom(ACCESS_TABLES.markedDay)
      .select(['IdPersona', 'Fecha', 'Version'])
      .where('IdCliente', '=', clientId)
      .orderBy('IdPersona')
      .orderBy('Fecha')
      .limit(ROUND)
      .execute()) as Array<{ IdPersona: number; Fecha: string; Version: number }>;
    if (!rows.length) return taken;
    const setup = await loadClientSetup(db, tables, clientId, now(), lanes);
    const days = new Map<number, Set<string>>();
    for (const r of rows) {
      const set = days.get(Number(r.IdPersona)) ?? new Set<string>();
      for (const day of daysAround(String(r.Fecha))) set.add(day);
      days.set(Number(r.IdPersona), set);
    }
    await recomputeDays(db, tables, setup, days);
    for (let i = 0; i < rows.length; i += 300) await forget(db, rows.slice(i, i + 300));
    taken += rows.length;
  }
}

/**
 * Marked days recomputed, gone unless marked again meanwhile (a newer version). On PostgreSQL their
 * rows are locked first in the order of their keys, the order the gate's writes take them in, so
 * that a delete and a gate's transaction never wait on each other's rows the other way round (a
 * deadlock, which PostgreSQL breaks after a second: the gate's budget gone).
 */
async function forget(db: Db, days: Array<{ IdPersona: number; Fecha: string; Version: number }>) {
  // biome-ignore lint/suspicious/noExplicitAny: the tables come from the schemas at run time (Db)
  const these = (eb: ExpressionBuilder<any, any>) =>
    eb.or(
      days.map((r) =>
        eb.and([
          eb('IdPersona', '=', Number(r.IdPersona)),
          eb('Fecha', '=', String(r.Fecha)),
          eb('Version', '=', Number(r.Version)),
        ]),
      ),
    );
  if (!isPostgres(db)) {
    await db.deleteFrom(ACCESS_TABLES.markedDay).where(these).execute();
    return;
  }
  await db.transaction().execute(async (trx) => {
    await trx
      .selectFrom(ACCESS_TABLES.markedDay)
      .select('IdPersona')
      .where(these)
      .orderBy('IdPersona')
      .orderBy('Fecha')
      .forUpdate()
      .execute();
    await trx.deleteFrom(ACCESS_TABLES.markedDay).where(these).execute();
  });
}

/**
 * Attendance kept current in the background: the marked days are recomputed as soon as markings
 * commit in this process (the markings signal) and at every poll (markings another process wrote,
 * or written by hand); each client's work is held by one process at a time (its lease). Once a day
 * is over, every tracked person's day is computed, so a working day with no marking shows as an
 * absence.
 */
export function attendanceSchedule(fastify: FastifyInstance, now: () => number = Date.now): void {
  const { db } = fastify.database;
  const tables = attendanceTables(fastify.registry);
  const leases = new Leases(db, fastify.registry);
  let running: Promise<void> | undefined;
  let again = false;
  let closing = false;

  const round = async () => {
    const clients = (await db
      .selectFrom(ACCESS_TABLES.markedDay)
      .select('IdCliente')
      .distinct()
      .execute()) as Array<{ IdCliente: number }>;
    for (const { IdCliente } of clients)
      await leases.hold(Number(IdCliente), ATTENDANCE_JOB, (signal) =>
        drainMarkedDays(db, tables, Number(IdCliente), signal, now, lanesOf(fastify.database.dialect)),
      );
  };
  const kick = () => {
    if (closing) return running;
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      try {
        do {
          again = false;
          await round();
        } while (again && !closing);
      } catch (error) {
        fastify.log.error({ err: error, job: ATTENDANCE_JOB }, 'attendance recomputation failed');
      } finally {
        running = undefined;
      }
    })();
    return running;
  };
  const stop = fastify.markingsWritten.on(() => {
    kick();
  });
  fastify.addHook('preClose', async () => {
    closing = true;
    stop();
    await running;
  });

  poll(fastify, ATTENDANCE_JOB, async () => {
    await kick();
    // Yesterday, for everyone tracked, once: the absences of a day nobody marked.
    const clients = (await db.selectFrom(tables.client).select(['IdCliente', 'IdPais']).execute()) as Array<{
      IdCliente: number;
      IdPais: string | null;
    }>;
    for (const { IdCliente, IdPais } of clients) {
      const yesterday = addDays(siteDate(IdPais, now()), -1);
      if (!(await leases.take(Number(IdCliente), ATTENDANCE_DAY_JOB, { notDoneOn: yesterday }))) continue;
      try {
        const setup = await loadClientSetup(
          db,
          tables,
          Number(IdCliente),
          now(),
          lanesOf(fastify.database.dialect),
        );
        await computePeriod(db, tables, setup, yesterday, yesterday);
        await leases.release(Number(IdCliente), ATTENDANCE_DAY_JOB, { doneOn: yesterday });
      } catch (error) {
        await leases.release(Number(IdCliente), ATTENDANCE_DAY_JOB).catch(() => {});
        throw error;
      }
    }
  });
}
