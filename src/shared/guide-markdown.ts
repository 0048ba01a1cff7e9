/**
 * A user guide's Markdown as its parts (src/shared/manuals.ts says what a guide is): marked's
 * tokens under each `## section {#id}`, the anchors taken off the headings.
 */
import { Lexer, type Token, type Tokens } from 'marked';
import { slug } from './manuals.js';

export interface ParsedSection {
  id: string;
  title: string;
  /** 2 for a section, 3 for a sub-section (its id is the section's, then its own). */
  depth: 2 | 3;
  tokens: Token[];
}

export interface ParsedGuide {
  title: string;
  intro: Token[];
  sections: ParsedSection[];
}

const HEADING_ID = /\s*\{#([a-z0-9-]+)\}\s*$/;

/** A guide's Markdown as its title, introduction and sections (marked's tokens, anchors taken off). */
export function parseGuide(markdown: string): ParsedGuide {
  const guide: ParsedGuide = { title: '', intro: [], sections: [] };
  for (const token of Lexer.lex(markdown)) {
    if (token.type === 'heading' && token.depth === 1 && !guide.title) {
      guide.title = token.text;
      continue;
    }
    if (token.type === 'heading' && (token.depth === 2 || token.depth === 3)) {
      const heading = token as Tokens.Heading;
      const id = HEADING_ID.exec(heading.text)?.[1] ?? slug(heading.text);
      const title = heading.text.replace(HEADING_ID, '');
      guide.sections.push({ id, title, depth: heading.depth as 2 | 3, tokens: [] });
      continue;
    }
    (guide.sections.at(-1)?.tokens ?? guide.intro).push(token);
  }
  return guide;
}

/** Text as marked leaves it in its tokens (quotes, ampersands and angle brackets escaped), as written. */
export const unescaped = (text: string) =>
  text
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

/** A list item's inline tokens and images, its text's wrapper taken off (a nested list stays a token). */
export const itemTokens = (item: Tokens.ListItem): Token[] =>
  item.tokens.flatMap((t) => (t.type === 'text' && 'tokens' in t ? (t.tokens ?? [t]) : [t]));
