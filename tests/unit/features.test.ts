import { describe, expect, it } from 'vitest';
import { FEATURES as CLIENT_FEATURES } from '../../src/client/features/index.js';
import { MENU_ICONS } from '../../src/client/shell/icons.js';
import type { Notifier } from '../../src/server/auth/notifier.js';
import { mergeHooks } from '../../src/server/crud/types.js';
import { demoMenu } from '../../src/server/demo/security.js';
import { FEATURES, featureGrants, featureHooks } from '../../src/server/features/index.js';
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

describe('the areas’ own screens, each declared once (src/shared/screens.ts)', () => {
  const screens = FEATURES.flatMap((f) => (f.screens ?? []).map((screen) => ({ feature: f.name, screen })));
  const menu = demoMenu(registry);

  it('are routed by the console feature of the same name', () => {
    expect(screens.length).toBeGreaterThan(10);
    for (const { feature, screen } of screens) {
      const console = CLIENT_FEATURES.find((f) => f.name === feature);
      expect(
        console?.routes?.map((r) => r.path),
        `${feature} ${screen.route}`,
      ).toContain(screen.route);
    }
  });

  it('sit in the demo menu, under their module, with their label and icon', () => {
    for (const { feature, screen } of screens) {
      const row = menu.find((m) => m.Ruta === screen.route);
      expect(row, screen.route).toMatchObject({ Modulo: feature, Tag: screen.tag, Icono: screen.icon });
    }
  });

  it('name icons the console draws, as every row of the demo menu does', () => {
    for (const row of menu) expect(Object.keys(MENU_ICONS), `${row.Ruta ?? row.Tag}`).toContain(row.Icono);
  });

  it('grant what they read to the routes that reach them', () => {
    const grants = featureGrants();
    for (const { screen } of screens.filter((s) => s.screen.reads))
      expect(grants).toContainEqual({ routePrefix: screen.route, read: [...(screen.reads ?? [])] });
    expect(grants.find((g) => g.routePrefix === '/hotel/reserva-masiva')?.read).toEqual(['contract']);
  });
});
