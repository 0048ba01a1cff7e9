import { describe, expect, it } from 'vitest';
import {
  inDryRun,
  keepingReads,
  keptRead,
  keptTally,
  rowKept,
  rowRolledBack,
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
});
