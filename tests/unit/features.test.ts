import { describe, expect, it } from 'vitest';
import type { Notifier } from '../../src/server/auth/notifier.js';
import { mergeHooks } from '../../src/server/crud/types.js';
import { FEATURES, featureHooks } from '../../src/server/features/index.js';
import { loadRegistry } from '../../src/server/registry.js';

const registry = loadRegistry();

describe('the features’ entity hooks', () => {
  it('name resources the registry knows', () => {
    const hooks = featureHooks({ registry, notifier: {} as Notifier, now: Date.now });
    expect(Object.keys(hooks)).toEqual(
      expect.arrayContaining([
        'person',
        'credential',
        'schedule-interval',
        'camp',
        'field-rule',
        'user',
        'menu',
      ]),
    );
    expect(new Set(FEATURES.map((f) => f.name)).size).toBe(FEATURES.length);
  });

  it('fail at start-up on a misspelt resource', () => {
    const rule = { beforeWrite: async () => {} };
    expect(() => mergeHooks(registry, { owner: 'access', hooks: { 'schedule-intervals': rule } })).toThrow(
      /access: hooks for unknown resource schedule-intervals/,
    );
  });

  it('run every feature’s hooks of one entity in the features’ order, and stop at a refusal', async () => {
    const seen: string[] = [];
    const hook = (who: string, refuse = false) => ({
      beforeWrite: async () => {
        seen.push(`${who} before`);
        if (refuse) throw new Error(`${who} refuses`);
      },
      afterWrite: async () => {
        seen.push(`${who} after`);
      },
      claim: async () => (who === 'b' ? 7 : undefined),
      committed: () => {
        seen.push(`${who} committed`);
      },
    });
    const merged = mergeHooks(
      registry,
      { owner: 'a', hooks: { person: hook('a') } },
      { owner: 'b', hooks: { person: hook('b') } },
    );
    const ctx = {} as never;
    await merged.person.beforeWrite?.(ctx);
    await merged.person.afterWrite?.(ctx);
    merged.person.committed?.();
    expect(seen).toEqual(['a before', 'b before', 'a after', 'b after', 'a committed', 'b committed']);
    expect(await merged.person.claim?.(ctx)).toBe(7);
    const refusing = mergeHooks(
      registry,
      { owner: 'a', hooks: { person: hook('a', true) } },
      { owner: 'b', hooks: { person: hook('b') } },
    );
    seen.length = 0;
    await expect(refusing.person.beforeWrite?.(ctx)).rejects.toThrow('a refuses');
    expect(seen).toEqual(['a before']);
  });
});
