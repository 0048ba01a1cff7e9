import {
  DummyDriver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
} from 'kysely';
import { describe, expect, it } from 'vitest';
import type { Db } from '../../src/server/db/connection.js';
import { FreshStatistics } from '../../src/server/db/statistics.js';

/** A database of `dialect` that answers nothing and notes each statement it is sent. */
function noted(dialect: 'postgres' | 'sqlite') {
  const sent: string[] = [];
  const pg = dialect === 'postgres';
  const db = new Kysely<never>({
    dialect: {
      createAdapter: () => (pg ? new PostgresAdapter() : new SqliteAdapter()),
      createDriver: () => new DummyDriver(),
      createIntrospector: (k) => (pg ? new PostgresIntrospector(k) : new SqliteIntrospector(k)),
      createQueryCompiler: () => (pg ? new PostgresQueryCompiler() : new SqliteQueryCompiler()),
    },
    log: (event) => {
      sent.push(event.query.sql);
    },
  }) as unknown as Db;
  return { database: { db, dialect }, sent };
}

describe('statistics kept fresh as a job grows its tables', () => {
  it('analyses the tables before the first set on PostgreSQL, then once per thousand rows written', async () => {
    const { database, sent } = noted('postgres');
    const statistics = new FreshStatistics(database, ['accreditation_request', 'administration_person']);
    await statistics.before(20);
    expect(sent).toEqual(['analyze "accreditation_request", "administration_person"']);
    for (let i = 0; i < 49; i++) await statistics.before(20);
    expect(sent).toHaveLength(1);
    await statistics.before(20);
    expect(sent).toHaveLength(2);
  });

  it('analyses once only when asked to refresh never (a dry run, whose rows are rolled back)', async () => {
    const { database, sent } = noted('postgres');
    const statistics = new FreshStatistics(database, ['accreditation_request'], Number.POSITIVE_INFINITY);
    for (let i = 0; i < 500; i++) await statistics.before(20);
    expect(sent).toEqual(['analyze "accreditation_request"']);
  });

  it('sends nothing on SQLite, which plans from its indexes alone', async () => {
    const { database, sent } = noted('sqlite');
    const statistics = new FreshStatistics(database, ['accreditation_request']);
    for (let i = 0; i < 100; i++) await statistics.before(20);
    expect(sent).toEqual([]);
  });
});
