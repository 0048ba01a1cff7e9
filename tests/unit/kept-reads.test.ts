import { describe, expect, it } from 'vitest';
import {
  addingLaterOn,
  addLater,
  inDryRun,
  keepingReads,
  keptRead,
  keptTally,
  rowKept,
  rowRolledBack,
  writeAdditions,
} from '../../src/server/db/kept-reads.js';

/** A loader that counts its loads. */
function loader<T>(value: T) {
  const counted = { loads: 0 };
  return {
    counted,
    load: async () => {
      counted.loads++;
      return value;
    },
  };
}

describe('reads kept for a set of rows', () => {
  it('reads once per key inside a scope, and afresh outside one or in another scope', async () => {
    const { counted, load } = loader({ profile: 7 });
    await keepingReads(async () => {
      expect(await keptRead('profile:7', load)).toEqual({ profile: 7 });
      expect(await keptRead('profile:7', load)).toEqual({ profile: 7 });
      await keptRead('profile:8', load);
    });
    expect(counted.loads).toBe(2);
    await keptRead('profile:7', load);
    await keptRead('profile:7', load);
    expect(counted.loads).toBe(4);
    await keepingReads(() => keptRead('profile:7', load));
    expect(counted.loads).toBe(5);
  });

  it('does not keep a failed read', async () => {
    let loads = 0;
    const failing = async () => {
      loads++;
      if (loads === 1) throw new Error('connection lost');
      return 'read';
    };
    await keepingReads(async () => {
      await expect(keptRead('k', failing)).rejects.toThrow('connection lost');
      expect(await keptRead('k', failing)).toBe('read');
      expect(await keptRead('k', failing)).toBe('read');
    });
    expect(loads).toBe(2);
  });

  it('counts a tally once, keeps what kept rows add and drops what rolled-back rows add', async () => {
    expect(keptTally('people', async () => 10)).toBeUndefined();
    const { counted, load } = loader(10);
    await keepingReads(async () => {
      const tally = await (keptTally('people', load) as Promise<{ count: number; add(n: number): void }>);
      expect(tally.count).toBe(10);
      tally.add(1);
      expect(tally.count).toBe(11);
      rowKept();
      tally.add(1);
      rowRolledBack();
      expect(tally.count).toBe(11);
      const again = await (keptTally('people', load) as Promise<{ count: number }>);
      expect(again).toBe(tally);
    });
    expect(counted.loads).toBe(1);
  });

  it('tells a dry run’s rows from rows kept', async () => {
    expect(inDryRun()).toBe(false);
    expect(await keepingReads(async () => inDryRun(), { dryRun: true })).toBe(true);
    expect(await keepingReads(async () => inDryRun())).toBe(false);
  });

  it('sums a set’s additions to a counter in its transaction, writes the kept rows’ once at the end, in key order', async () => {
    const written: string[] = [];
    const writer = (key: string) => async (n: number) => {
      written.push(`${key}${n > 0 ? '+' : ''}${n}`);
    };
    const trx = { name: 'the set’s transaction' };
    const other = { name: 'another connection' };
    // Outside a scope, and in a scope before its transaction adds later: written at once.
    await addLater(trx, 'b', 1, writer('b'));
    await keepingReads(() => addLater(trx, 'b', 1, writer('b')));
    expect(written).toEqual(['b+1', 'b+1']);
    written.length = 0;
    await keepingReads(async () => {
      addingLaterOn(trx);
      await addLater(trx, 'b', 1, writer('b'));
      await addLater(trx, 'a', -1, writer('a'));
      rowKept();
      await addLater(trx, 'b', 1, writer('b'));
      rowRolledBack();
      await addLater(trx, 'b', 1, writer('b'));
      await addLater(trx, 'c', 1, writer('c'));
      rowKept();
      await addLater(trx, 'd', 1, writer('d'));
      rowRolledBack();
      // Another connection's addition is its own: written at once.
      await addLater(other, 'b', 5, writer('b'));
      expect(written).toEqual(['b+5']);
      await writeAdditions();
      expect(written).toEqual(['b+5', 'a-1', 'b+2', 'c+1']);
      // Once written, additions are written at once again.
      await addLater(trx, 'b', 1, writer('b'));
      expect(written.at(-1)).toBe('b+1');
    });
  });
});
