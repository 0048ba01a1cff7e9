/**
 * The configuration screens are one generic code drawn from each entity's schema: what differs
 * from one screen to another is the kinds of field it draws. These helpers name those kinds and
 * choose a few screens that between them draw every kind, so a browser test can cover every kind
 * of screen without opening ninety screens of the same code again.
 */
import type { ResourceMeta } from '../../src/shared/schema/types.js';

/** The kinds of field a screen draws: its widgets, formats, selects, references and its own flags. */
export function fieldKinds(resource: ResourceMeta): Set<string> {
  const kinds = new Set<string>([`access:${resource.access}`]);
  if (resource.schema['x-readOnly']) kinds.add('readOnly');
  if (resource.schema['x-sections']) kinds.add('sections');
  for (const prop of Object.values(resource.schema.properties)) {
    if (prop['x-widget']) kinds.add(`widget:${prop['x-widget']}`);
    if (prop.format) kinds.add(`format:${prop.format}`);
    if (prop.enum) kinds.add('enum');
    if (prop['x-ref']) kinds.add(prop.type === 'array' ? 'refs' : prop['x-ref'].filter ? 'cascade' : 'ref');
    if (prop['x-computed']) kinds.add('computed');
  }
  return kinds;
}

/**
 * A few screens that between them draw every kind of field (greedy: the screen that adds most
 * kinds first, ties in the given order).
 */
export function kindSample(screens: ResourceMeta[]): Set<string> {
  const missing = new Set(screens.flatMap((s) => [...fieldKinds(s)]));
  const chosen = new Set<string>();
  while (missing.size) {
    const best = screens
      .map((s) => ({ screen: s, gain: [...fieldKinds(s)].filter((k) => missing.has(k)).length }))
      .reduce((a, b) => (b.gain > a.gain ? b : a));
    chosen.add(best.screen.name);
    for (const kind of fieldKinds(best.screen)) missing.delete(kind);
  }
  return chosen;
}
