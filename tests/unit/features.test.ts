import { describe, expect, it } from 'vitest';
import type { Notifier } from '../../src/server/auth/notifier.js';
import { mergeHooks } from '../../src/server/crud/types.js';
import { FEATURES, featureHooks } from '../../src/server/features/index.js';
import { loadRegistry } from '../../src/server/registry.js';

const registry = loadRegistry();

describe('the features’ entity hooks', () => {
  it('name resources the registry knows, each claimed by one feature', () => {
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

  it('fail at start-up on a misspelt resource or one claimed twice', () => {
    const rule = { beforeWrite: async () => {} };
    expect(() => mergeHooks(registry, { owner: 'access', hooks: { 'schedule-intervals': rule } })).toThrow(
      /access: hooks for unknown resource schedule-intervals/,
    );
    expect(() =>
      mergeHooks(registry, { owner: 'a', hooks: { person: rule } }, { owner: 'b', hooks: { person: rule } }),
    ).toThrow(/b: hooks for person, which a has already/);
  });
});
