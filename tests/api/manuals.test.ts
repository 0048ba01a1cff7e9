import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { describe, expect, it } from 'vitest';
import { APPLICATION_ID } from '../../src/shared/constants.js';
import { parseGuide } from '../../src/shared/guide-markdown.js';
import { GUIDES, guidesFor, helpTarget, type MenuEntry, shotsOf } from '../../src/shared/manuals.js';
import { call, signIn } from '../support/app.js';
import { DIALECTS } from '../support/databases.js';
import { world } from '../support/world.js';

const DIR = resolve(import.meta.dirname, '../../docs/manuals');
const markdown = (id: string, lang: string) => readFileSync(resolve(DIR, `${id}.${lang}.md`), 'utf8');

/** A PDF's words, page by page, and its outline's titles. */
async function pdfText(bytes: Buffer) {
  const doc = await getDocument({
    data: new Uint8Array(bytes),
    isEvalSupported: false,
    standardFontDataUrl: `${resolve(import.meta.dirname, '../../node_modules/pdfjs-dist/standard_fonts')}/`,
    verbosity: 0,
  }).promise;
  const pages: string[] = [];
  for (let n = 1; n <= doc.numPages; n++) {
    const content = await (await doc.getPage(n)).getTextContent();
    pages.push(content.items.map((i) => ('str' in i ? i.str : '')).join(' '));
  }
  const outline = ((await doc.getOutline()) ?? []).map((o) => o.title);
  return { pages, outline };
}

/**
 * The user guides as the server serves them: each guide's PDF in the caller's language (title,
 * every section in the outline, every screenshot embedded), only the guides' names; and the help
 * button of every screen of every demo user's menu opens a section that explains it.
 */
describe.each(DIALECTS)('user guides on %s', (dialect) => {
  const w = world(dialect, { users: { requester: 'SOLICITANTE' } });

  it.each(GUIDES.flatMap((g) => (['es', 'en'] as const).map((lang) => [g.file, lang, g.id])))(
    'serves %s in %s with its sections and pictures',
    async (fileName, lang, id) => {
      const res = await call(w.app, {
        method: 'GET',
        url: `/api/SistemaArchivo/descargar?fileName=${fileName}&fileType=pdf`,
        headers: { 'accept-language': lang },
        token: w.tokens.requester,
      });
      expect(res.status).toBe(200);
      expect(res.body.result).toMatchObject({ fileName, fileType: 'application/pdf' });
      const bytes = Buffer.from(res.body.result.fileBase64, 'base64');
      const guide = parseGuide(markdown(id, lang));
      const { pages, outline } = await pdfText(bytes);
      expect(pages[0]).toContain(guide.title);
      expect(outline).toEqual(guide.sections.map((s) => s.title));
      // Each screenshot is in the PDF, as a JPEG of its own.
      const images = bytes.toString('latin1').match(/\/Subtype \/Image/g) ?? [];
      expect(images.length).toBe(new Set(shotsOf(markdown(id, lang))).size);
    },
    60_000,
  );

  it('refuses any other file name', async () => {
    for (const fileName of ['../../package.json', 'manual-solicitante.txt', 'requester.es.md']) {
      const res = await call(w.app, {
        method: 'GET',
        url: `/api/SistemaArchivo/descargar?fileName=${encodeURIComponent(fileName)}`,
        token: w.tokens.requester,
      });
      expect(res.status).toBe(404);
      expect(res.body.messageKey).toBe('files.notFound');
    }
  });

  it('every screen of every demo user has its section in the user’s guides', async () => {
    const sections = new Map(
      GUIDES.map((g) => [g.id, new Set(parseGuide(markdown(g.id, 'es')).sections.map((s) => s.id))]),
    );
    const users = [
      'ADMIN',
      'SOLICITANTE',
      'AUTORIZADOR',
      'IDENTIFICACION',
      'HOTELERO',
      'COMEDOR',
      'ASISTENCIA',
      'INDUCCION',
      'TRANSPORTE',
    ];
    const expected: Record<string, string> = {
      ADMIN: 'administrator',
      SOLICITANTE: 'requester',
      AUTORIZADOR: 'authoriser',
      IDENTIFICACION: 'identification',
      HOTELERO: 'camp',
      COMEDOR: 'dining',
      ASISTENCIA: 'attendance',
      INDUCCION: 'induction',
      TRANSPORTE: 'transport',
    };
    const missing: string[] = [];
    for (const user of users) {
      const session = await signIn(w.app, user);
      const query = new URLSearchParams({
        IdCliente: String(session.perfil.IdCliente),
        IdPerfil: String(session.perfil.IdPerfil),
        IdUsuario: user,
        IdAplicacion: APPLICATION_ID,
      });
      const res = await call(w.app, {
        method: 'GET',
        url: `/api/SeguridadMenu/obtenerMenu?${query}`,
        token: session.accessToken,
      });
      const menu = (res.body.result ?? res.body) as MenuEntry[];
      expect(guidesFor(menu)[0].id, user).toBe(expected[user]);
      const screens = menu.filter((m) => m.Ruta);
      expect(screens.length, user).toBeGreaterThan(3);
      for (const { Ruta } of screens) {
        const target = helpTarget(Ruta as string, menu);
        // A screen's own section, never only the start of a guide that does not speak of it.
        const start = GUIDES.find((g) => g.id === target.guide)?.sections.find((s) => s.id === 'start');
        const unnamed = target.section === 'start' && !start?.routes?.some((r) => Ruta === r);
        if (unnamed || !sections.get(target.guide)?.has(target.section))
          missing.push(`${user} ${Ruta} → ${target.guide}#${target.section}`);
      }
    }
    expect(missing).toEqual([]);
  });
});
