import { sql } from 'kysely';
import type { Database } from './connection.js';

/** Rows a job writes between two refreshes of the statistics of the tables it grows. */
const ROWS_PER_REFRESH = 1_000;

/**
 * Keeps PostgreSQL's statistics of the tables a long job grows up to date as it writes. The planner
 * picks an index from them: a shutdown's crew filed on a contract that had no requests when its
 * table was last analysed makes "the contract's requests" look like one row, so looking a person's
 * open request up through the contract's index reads every request the job has made so far, and
 * the job slows as they pile up (on 2026-11-30, 29 rows a second at first, 18 at the end of 6 000).
 * Autovacuum analyses a table only once a tenth of it has changed. The job asks `before` each set
 * of rows: the tables are analysed before its first set and then every thousand rows (a few
 * hundred milliseconds each time). SQLite plans without statistics, from the indexes alone.
 */
export class FreshStatistics {
  private written = Number.POSITIVE_INFINITY;

  constructor(
    private readonly database: Pick<Database, 'db' | 'dialect'>,
    private readonly tables: readonly string[],
    private readonly rowsPerRefresh = ROWS_PER_REFRESH,
  ) {}

  /** Before a set of `rows`: the statistics refreshed when that many rows were written since the last time. */
  async before(rows: number): Promise<void> {
    if (this.database.dialect !== 'postgres') return;
    const due = this.written >= this.rowsPerRefresh;
    this.written = (due ? 0 : this.written) + rows;
    if (due) await sql`analyze ${sql.join(this.tables.map((t) => sql.table(t)))}`.execute(this.database.db);
  }
}
