import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadRegistry } from '../../src/server/registry.js';

/**
 * Every setting an administrator fills changes what the product does: each configuration entity
 * (an entity with its own screen, not a workflow's record) is read by some code besides the
 * generic screens, the generic REST calls and the demo, unless it is a pure catalogue: a list of
 * names other records point to and show, on which no rule hangs. Those are named here with why
 * (and in docs/configuration.md); a catalogue that gains a reader leaves the list.
 */
const PURE_CATALOGUES: Record<string, string> = {
  application:
    'the applications of the product family (this console, the desktop client, the mobile app): named by the modules',
  module:
    'the functional modules (SIS, ADM, ACC…): the form objects and menus name them, nothing hangs on them',
  country:
    'a country a person, company, document type or division names: a name; rules go by its code on those records',
  'civil-status': 'a person’s civil status: personal data kept and shown, no rule hangs on it',
  'equipment-type':
    'the kind of an access-control device (turnstile, barrier, reader): a name of the equipment',
  'company-category': 'a company’s category (client, contractor, supplier): a name of the company',
  'position-type':
    'a position’s type: the dining cost assignments name it and act, the type itself is a name',
  'cessation-reason':
    'why a person ceased: kept with the cessation, which is what acts (the employment ends)',
  'contract-type': 'a contract’s type (works, service, supply): a name of the contract',
  'personnel-division':
    'the HR personnel division organisational units hang from: a name in the organisation',
  'restriction-type': 'why a restriction keeps a person out: the restriction acts, its type names it',
  'exoneration-type': 'why an exoneration waives a requirement: the exoneration acts, its type names it',
  'door-type': 'the kind of barrier a door is (turnstile, vehicle barrier): a name of the door',
};

const files: string[] = [];
const walk = (dir: string) => {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path);
    else if (/\.tsx?$/.test(name)) files.push(path);
  }
};
walk('src');
walk('workflows');
/** The generic code: the engine of every screen and call, the demo's loader, the generated types. */
const GENERIC =
  /^src\/(server\/(crud|demo|db)|shared\/generated|client\/resources)\/|^src\/server\/registry\.ts$/;
const texts = files.filter((f) => !GENERIC.test(f.replaceAll('\\', '/'))).map((f) => readFileSync(f, 'utf8'));

describe('the settings that act', () => {
  const registry = loadRegistry();
  const settings = registry.entities.filter((e) => !e.hidden && !e.workflow && !e.readOnly);

  it('reads every configuration entity outside the generic code, but the named pure catalogues', () => {
    const unread = settings
      .filter(
        (e) =>
          !texts.some((t) => t.includes(`'${e.name}'`) || t.includes(`"${e.name}"`) || t.includes(e.table)),
      )
      .map((e) => e.name)
      .sort();
    expect(unread).toEqual(Object.keys(PURE_CATALOGUES).sort());
  });

  it('names only configuration entities as catalogues, each with why', () => {
    for (const [name, why] of Object.entries(PURE_CATALOGUES)) {
      expect(settings.map((e) => e.name)).toContain(name);
      expect(why.length).toBeGreaterThan(20);
    }
  });
});
