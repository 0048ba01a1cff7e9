import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseGuide } from '../../src/shared/guide-markdown.js';
import { GUIDES, guidesFor, helpTarget, shotFile, shotsOf } from '../../src/shared/manuals.js';
import { SHOTS } from '../support/manual-shots/index.js';

const DIR = resolve(import.meta.dirname, '../../docs/manuals');
const read = (id: string, lang: string) => readFileSync(resolve(DIR, `${id}.${lang}.md`), 'utf8');

/** The user guides against their table (src/shared/manuals.ts) and their screenshots. */
describe('user guides', () => {
  it.each(GUIDES.map((g) => [g.id]))('%s has the same sections and pictures in both languages', (id) => {
    const guide = GUIDES.find((g) => g.id === id);
    const [es, en] = [read(id, 'es'), read(id, 'en')];
    const [pes, pen] = [parseGuide(es), parseGuide(en)];
    expect(pes.title).not.toBe('');
    expect(pen.title).not.toBe(pes.title);
    expect(pen.sections.map((s) => s.id)).toEqual(pes.sections.map((s) => s.id));
    // Every section the help buttons open is there, with words in it.
    for (const section of guide?.sections ?? []) {
      const found = pes.sections.find((s) => s.id === section.id);
      expect(found, `${id}#${section.id}`).toBeDefined();
      expect(found?.tokens.some((t) => t.type === 'paragraph' || t.type === 'list')).toBe(true);
    }
    expect(shotsOf(en)).toEqual(shotsOf(es));
    expect(shotsOf(es).length, `${id} shows the product`).toBeGreaterThanOrEqual(2);
  });

  it('every picture a guide shows is taken by the browser test and kept, in both languages', () => {
    const used = new Set(GUIDES.flatMap((g) => shotsOf(read(g.id, 'es'))));
    const taken = new Set(SHOTS.map((s) => s.name));
    expect([...used].filter((name) => !taken.has(name))).toEqual([]);
    expect([...taken].filter((name) => !used.has(name))).toEqual([]);
    expect(SHOTS.length).toBe(taken.size);
    // A picture is named after its guide (MANUAL_GUIDES picks a guide's by their names).
    for (const guide of GUIDES)
      for (const name of shotsOf(read(guide.id, 'es')))
        expect(name.startsWith(`${guide.id}-`), name).toBe(true);
    const missing = [...used].flatMap((name) =>
      (['es', 'en'] as const)
        .filter((l) => !existsSync(resolve(DIR, 'shots', shotFile(name, l))))
        .map((l) => `${name}.${l}`),
    );
    expect(missing).toEqual([]);
  });

  it('a guide belongs to the users whose menu holds its screens', () => {
    const menu = (...routes: string[]) => routes.map((Ruta) => ({ Ruta, Modulo: 'x' }));
    expect(guidesFor(menu('/movilizacion/solicitante/persona', '/person')).map((g) => g.id)).toEqual([
      'requester',
    ]);
    expect(guidesFor(menu('/hotel/tablero', '/hotel/reservas')).map((g) => g.id)).toEqual(['camp']);
    // A menu that reaches none still has a guide.
    expect(guidesFor([]).map((g) => g.id)).toEqual(['requester']);
  });

  it('the help button opens the section of the screen, the user’s own guide first', () => {
    const requester = [
      { Ruta: '/movilizacion/solicitante/persona', Modulo: 'accreditation' },
      { Ruta: '/hotel/reservas', Modulo: 'hotel' },
      { Ruta: '/person', Modulo: 'administration' },
    ];
    expect(helpTarget('/movilizacion/solicitante/persona/12', requester)).toEqual({
      guide: 'requester',
      section: 'workers',
    });
    expect(helpTarget('/hotel/reservas', requester)).toEqual({ guide: 'requester', section: 'services' });
    expect(helpTarget('/person/3/show', requester)).toEqual({ guide: 'requester', section: 'records' });
    expect(helpTarget('/dashboard', requester)).toEqual({ guide: 'requester', section: 'start' });
    const hotel = [
      { Ruta: '/hotel/tablero', Modulo: 'hotel' },
      { Ruta: '/hotel/reservas', Modulo: 'hotel' },
      { Ruta: '/camp', Modulo: 'hotel' },
    ];
    expect(helpTarget('/hotel/reservas', hotel)).toEqual({ guide: 'camp', section: 'reservations' });
    // A reference-data screen: the section of its module.
    expect(helpTarget('/camp/4', hotel)).toEqual({ guide: 'camp', section: 'setup' });
  });
});
