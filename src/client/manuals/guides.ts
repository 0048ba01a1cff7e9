import type { Language } from '../../shared/constants.js';
import { type ParsedGuide, parseGuide } from '../../shared/guide-markdown.js';
import { shotFile } from '../../shared/manuals.js';

/** The guides' Markdown, each loaded when first read; their screenshots, as the build's files. */
const SOURCES = import.meta.glob<string>('../../../docs/manuals/*.md', { query: '?raw', import: 'default' });
const SHOTS = import.meta.glob<string>('../../../docs/manuals/shots/*.jpg', {
  query: '?url',
  import: 'default',
  eager: true,
});

/** A guide in a language (Spanish when it has no text in that one). */
export async function loadGuide(id: string, language: Language): Promise<ParsedGuide | undefined> {
  const load =
    SOURCES[`../../../docs/manuals/${id}.${language}.md`] ?? SOURCES[`../../../docs/manuals/${id}.es.md`];
  return load ? parseGuide(await load()) : undefined;
}

/** A screenshot's address in the build, or undefined for a name the guides do not have. */
export const shotUrl = (name: string, language: Language): string | undefined =>
  SHOTS[`../../../docs/manuals/shots/${shotFile(name, language)}`];
