import type { Db } from './connection.js';

/** A write waiting for a commit; `abort` says its caller stopped waiting (it is then not committed). */
export interface GroupJob {
  abort(): boolean;
}

export class Abandoned extends Error {
  constructor() {
    super('write abandoned: its caller stopped waiting');
  }
}

/**
 * Group commit for small writes that must be durable before they are answered (a gate's or a
 * dining reader's decisions). A commit waits for the disk (a sync of the log), and one write per
 * commit holds the readers to the number of syncs the disk does a second. Writes that arrive while
 * a commit is under way wait for the next transaction and are written in it together, one after
 * the other as they came; each caller is answered only once that transaction has committed, so
 * nothing is acknowledged before it is durable. When the shared transaction fails (one write
 * failed, or a caller stopped waiting before the commit), nothing of it was kept and each of its
 * writes is done again in a transaction of its own, so one cannot spoil the others. Given an
 * `order`, the writes of a shared transaction go in that order instead of as they came. `lanes`
 * transactions may be open at once (one on SQLite, whose single connection serialises them
 * anyway; a few on PostgreSQL's pool).
 */
export class GroupCommit<Job extends GroupJob, Result> {
  private readonly queue: Array<{ job: Job; resolve: (r: Result) => void; reject: (e: unknown) => void }> =
    [];
  private open = 0;
  /** Transactions committed, and the writes they held. */
  readonly stats = { commits: 0, decisions: 0 };

  constructor(
    private readonly db: Db,
    private readonly writeOne: (trx: Db, job: Job) => Promise<Result>,
    private readonly lanes = 1,
    private readonly maxBatch = 100,
    /**
     * The order a shared transaction writes its jobs in (stable: jobs that compare equal keep
     * their arrival order). Transactions that take their rows in one order never wait on each
     * other's rows the other way round (a deadlock).
     */
    private readonly order?: (a: Job, b: Job) => number,
  ) {}

  record(job: Job): Promise<Result> {
    return new Promise<Result>((resolve, reject) => {
      this.queue.push({ job, resolve, reject });
      this.schedule();
    });
  }

  /**
   * A transaction starts on the next turn of the event loop, not at once: the writes whose
   * requests were read in the same turn join it. (On SQLite the driver is synchronous and a commit
   * holds the event loop, so nothing could join a transaction once it has started.)
   */
  private scheduled = false;
  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.drain();
    });
  }

  private drain(): void {
    while (this.open < this.lanes && this.queue.length) {
      const batch = this.queue.splice(0, this.maxBatch);
      this.open++;
      void this.write(batch).finally(() => {
        this.open--;
        this.schedule();
      });
    }
  }

  /** One write in its own transaction, rolled back if its caller stopped waiting. */
  private alone(job: Job): Promise<Result> {
    return this.db.transaction().execute(async (trx) => {
      const result = await this.writeOne(trx, job);
      if (job.abort()) throw new Abandoned();
      return result;
    });
  }

  private async write(batch: typeof this.queue): Promise<void> {
    // A caller that already gave up is not written at all.
    const live = batch.filter((entry) => {
      if (!entry.job.abort()) return true;
      entry.reject(new Abandoned());
      return false;
    });
    if (!live.length) return;
    if (this.order) {
      const order = this.order;
      live.sort((a, b) => order(a.job, b.job));
    }
    if (live.length > 1) {
      try {
        const results = await this.db.transaction().execute(async (trx) => {
          const out: Result[] = [];
          for (const { job } of live) out.push(await this.writeOne(trx, job));
          if (live.some(({ job }) => job.abort())) throw new Abandoned();
          return out;
        });
        this.stats.commits++;
        this.stats.decisions += live.length;
        live.forEach((entry, i) => {
          entry.resolve(results[i]);
        });
        return;
      } catch {
        // Nothing of the shared transaction was kept: each write again, on its own.
      }
    }
    for (const entry of live) {
      try {
        entry.resolve(await this.alone(entry.job));
        this.stats.commits++;
        this.stats.decisions++;
      } catch (error) {
        entry.reject(error);
      }
    }
  }
}
