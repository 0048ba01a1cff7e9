import type { Db } from '../db/connection.js';
import type { Registry } from '../registry.js';

/** A job's lease was taken over by another process: whatever this one was doing for it stops. */
export class LeaseLost extends Error {
  constructor(readonly job: string) {
    super(`lease lost: ${job}`);
  }
}

/** This process's name in the leases it holds: its process id and a random part. */
export function holderName(): string {
  return `${process.pid}-${Math.random().toString(36).slice(2, 10)}`;
}

/** How long a lease lasts unless renewed (JOB_LEASE_SECONDS, 30 by default). */
export function leaseMs(): number {
  const seconds = Number(process.env.JOB_LEASE_SECONDS ?? 30);
  return (Number.isFinite(seconds) && seconds > 0 ? seconds : 30) * 1000;
}

/**
 * Background work claimed through a row of the database (the job-lease table, one row per client
 * and job): a process holds a job until its lease runs out, renews it while it works, and another
 * process takes a job over once its holder's lease has run out (the holder died). A holder that
 * writes for a job first renews the lease inside the same transaction (`fence`), so a holder that
 * was presumed dead and wakes up cannot write after another took over. The conditions are single
 * conditional UPDATEs, the same on SQLite and PostgreSQL.
 */
export class Leases {
  constructor(
    private readonly db: Db,
    private readonly registry: Registry,
    readonly holder: string = holderName(),
    private readonly now: () => number = Date.now,
    readonly ttlMs: number = leaseMs(),
  ) {}

  private get table(): string {
    return this.registry.require('job-lease').table;
  }

  private until(): string {
    return new Date(this.now() + this.ttlMs).toISOString();
  }

  /**
   * Takes a job's lease: free, run out or already this holder's; with `notDoneOn`, only when the
   * job's last completed day is before that day. Answers whether this holder now holds it.
   */
  async take(client: number, job: string, { notDoneOn }: { notDoneOn?: string } = {}): Promise<boolean> {
    const at = new Date(this.now()).toISOString();
    await this.db
      .insertInto(this.table)
      .values({ IdCliente: client, Trabajo: job, IdUsuarioCreacion: 'SISTEMA', FechaCreacion: at })
      .onConflict((oc) => oc.columns(['IdCliente', 'Trabajo']).doNothing())
      .execute();
    const taken = await this.db
      .updateTable(this.table)
      .set({ Titular: this.holder, VenceArriendo: this.until() })
      .where('IdCliente', '=', client)
      .where('Trabajo', '=', job)
      .where((eb) =>
        eb.and([
          ...(notDoneOn ? [eb.or([eb('UltimaFecha', 'is', null), eb('UltimaFecha', '<', notDoneOn)])] : []),
          eb.or([eb('Titular', 'is', null), eb('VenceArriendo', '<', at), eb('Titular', '=', this.holder)]),
        ]),
      )
      .executeTakeFirst();
    return Number(taken.numUpdatedRows) === 1;
  }

  /** Whether a live process (this one or another) holds the job now. */
  async held(client: number, job: string): Promise<boolean> {
    const row = await this.db
      .selectFrom(this.table)
      .select('Titular')
      .where('IdCliente', '=', client)
      .where('Trabajo', '=', job)
      .where('Titular', 'is not', null)
      .where('VenceArriendo', '>=', new Date(this.now()).toISOString())
      .executeTakeFirst();
    return row !== undefined;
  }

  /**
   * Extends the lease, in `db` (a transaction, for a fence) or on its own; throws LeaseLost when
   * another process holds it now.
   */
  async fence(client: number, job: string, db: Db = this.db): Promise<void> {
    const kept = await db
      .updateTable(this.table)
      .set({ VenceArriendo: this.until() })
      .where('IdCliente', '=', client)
      .where('Trabajo', '=', job)
      .where('Titular', '=', this.holder)
      .executeTakeFirst();
    if (Number(kept.numUpdatedRows) !== 1) throw new LeaseLost(job);
  }

  /**
   * A daily job's round: for each client whose lease this holder takes and whose day (`dayOf`) is
   * not done yet, `work` in one transaction that also records the day done (rolled back, with the
   * work, if another process took the lease meanwhile). Answers each such client's result.
   */
  async eachClientDay<T>(
    job: string,
    dayOf: (client: number) => Promise<string>,
    work: (trx: Db, client: number, day: string) => Promise<T>,
  ): Promise<T[]> {
    const clients = (await this.db
      .selectFrom(this.registry.require('client').table)
      .select('IdCliente')
      .execute()) as Array<{ IdCliente: number }>;
    const done: T[] = [];
    for (const { IdCliente: client } of clients) {
      const day = await dayOf(client);
      if (!(await this.take(client, job, { notDoneOn: day }))) continue;
      done.push(
        await this.db.transaction().execute(async (trx) => {
          const result = await work(trx, client, day);
          await this.release(client, job, { doneOn: day, db: trx });
          return result;
        }),
      );
    }
    return done;
  }

  /** Lets the job go (done, or this process stops); with `doneOn`, records the day completed. */
  async release(client: number, job: string, { doneOn, db = this.db }: { doneOn?: string; db?: Db } = {}) {
    const released = await db
      .updateTable(this.table)
      .set({ Titular: null, VenceArriendo: null, ...(doneOn ? { UltimaFecha: doneOn } : {}) })
      .where('IdCliente', '=', client)
      .where('Trabajo', '=', job)
      .where('Titular', '=', this.holder)
      .executeTakeFirst();
    if (Number(released.numUpdatedRows) !== 1) throw new LeaseLost(job);
  }

  /**
   * Runs `work` holding the job's lease, renewed every third of its length; answers undefined
   * without running it when another process holds the job. `work` is told to stop (its signal
   * aborts) when a renewal finds the lease lost.
   */
  async hold<T>(
    client: number,
    job: string,
    work: (signal: AbortSignal) => Promise<T>,
  ): Promise<T | undefined> {
    if (!(await this.take(client, job))) return undefined;
    const lost = new AbortController();
    const renew = setInterval(() => {
      this.fence(client, job).catch(() => lost.abort());
    }, this.ttlMs / 3);
    renew.unref();
    try {
      return await work(lost.signal);
    } finally {
      clearInterval(renew);
      await this.release(client, job).catch(() => {});
    }
  }
}
