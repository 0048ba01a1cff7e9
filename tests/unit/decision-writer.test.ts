import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../../src/server/db/connection.js';
import { DecisionWriter, type Pending, type recordIn } from '../../src/server/features/access/gate.js';

/** A job whose "decision" writes its name; `bad` fails, `gives up` stops waiting before the commit. */
const job = (name: string, abort: () => boolean = () => false) =>
  ({ device: {}, p: { name }, loaded: {}, site: {}, abort }) as unknown as Pending;

describe('the gate decisions’ group commit', () => {
  let dir: string;
  let database: Database;
  const written = async () =>
    (await sql<{ name: string }>`select name from written order by id`.execute(database.db)).rows.map(
      (r) => r.name,
    );
  const record = (async (trx: Parameters<typeof recordIn>[0], _device: unknown, p: unknown) => {
    const name = (p as { name: string }).name;
    await sql`insert into written (name) values (${name})`.execute(trx);
    if (name.startsWith('bad')) throw new Error(`${name} failed`);
    return { decision: { allow: true }, direction: 'E', IdMarcacion: 1, duplicate: false };
  }) as unknown as typeof recordIn;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'writer-'));
    database = openDatabase({ dataDir: dir });
    await sql`create table written (id integer primary key autoincrement, name text)`.execute(database.db);
  });
  afterAll(async () => {
    await database.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('writes the decisions that arrive during a commit together in the next one, each answered after it', async () => {
    await sql`delete from written`.execute(database.db);
    const writer = new DecisionWriter(database.db, 1, 100, record);
    const names = Array.from({ length: 40 }, (_, i) => `gate-${i}`);
    const answers = await Promise.all(names.map((name) => writer.record(job(name))));
    expect(answers).toHaveLength(40);
    expect(await written()).toEqual(names);
    expect(writer.stats.decisions).toBe(40);
    // The first is alone; the other 39 waited for it and share far fewer commits.
    expect(writer.stats.commits).toBeLessThanOrEqual(3);
  });

  it('keeps one failing decision from spoiling the others: the shared transaction is undone and each written on its own', async () => {
    await sql`delete from written`.execute(database.db);
    const writer = new DecisionWriter(database.db, 1, 100, record);
    const first = writer.record(job('first'));
    const rest = ['a', 'bad-b', 'c'].map((name) => writer.record(job(name)));
    await first;
    const settled = await Promise.allSettled(rest);
    expect(settled.map((s) => s.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    // Nothing written twice, nothing of the failed one kept.
    expect(await written()).toEqual(['first', 'a', 'c']);
  });

  it('writes nothing for a reader that stopped waiting, and still commits the others', async () => {
    await sql`delete from written`.execute(database.db);
    const writer = new DecisionWriter(database.db, 1, 100, record);
    let late = false;
    const first = writer.record(job('first'));
    const others = [
      writer.record(job('x')),
      writer.record(job('gives-up', () => late)),
      writer.record(job('y')),
    ];
    late = true;
    await first;
    const settled = await Promise.allSettled(others);
    expect(settled.map((s) => s.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(await written()).toEqual(['first', 'x', 'y']);
  });

  it('writes the decisions of one commit in the order of their holders, each holder’s as they came', async () => {
    await sql`delete from written`.execute(database.db);
    const writer = new DecisionWriter(database.db, 1, 100, record);
    const of = (name: string, holder?: { person: number } | { vehicle: number }) =>
      ({
        ...job(name),
        p: { name, door: { IdDivision: 1 } },
        loaded: {
          holder:
            holder === undefined
              ? undefined
              : 'person' in holder
                ? { kind: 'person', person: { IdPersona: holder.person } }
                : { kind: 'vehicle', vehicle: { IdVehiculo: holder.vehicle } },
        },
      }) as unknown as Pending;
    const first = writer.record(of('first'));
    const rest = [
      of('vehicle 3', { vehicle: 3 }),
      of('person 10, first', { person: 10 }),
      of('person 9', { person: 9 }),
      of('unknown card'),
      of('person 10, second', { person: 10 }),
    ].map((j) => writer.record(j));
    await first;
    await Promise.all(rest);
    // Every shared transaction takes the holders' rows in one order: none waits on another's the
    // other way round.
    expect(await written()).toEqual([
      'first',
      'unknown card',
      'person 9',
      'person 10, first',
      'person 10, second',
      'vehicle 3',
    ]);
  });
});
