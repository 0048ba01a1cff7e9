import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Token, Tokens } from 'marked';
import PDFDocument from 'pdfkit';
import type { Language } from '../../../shared/constants.js';
import { itemTokens, parseGuide, unescaped } from '../../../shared/guide-markdown.js';
import { shotFile } from '../../../shared/manuals.js';

const WIDTH = 515;
const FONTS = { plain: 'Helvetica', strong: 'Helvetica-Bold', em: 'Helvetica-Oblique', codespan: 'Courier' };

/** Text the PDF's standard fonts can draw (WinAnsi): arrows and the like as their nearest letters. */
const drawable = (text: string) =>
  unescaped(text).replace(/[→⟶]/g, '>').replace(/[←]/g, '<').replace(/[“”]/g, '"').replace(/[‘’]/g, "'");

type Doc = PDFKit.PDFDocument;
/** pdfkit's image opener (its typings leave it out): an image's size before it is drawn. */
type Opened = { width: number; height: number };
const open = (doc: Doc, path: string) =>
  (doc as unknown as { openImage(src: string): Opened }).openImage(path);

/** A run of inline tokens (text, bold, italics, code) as one paragraph at the current position. */
function inline(doc: Doc, tokens: Token[], options: PDFKit.Mixins.TextOptions = {}) {
  const runs: Array<{ font: string; text: string }> = [];
  const walk = (list: Token[], font: string) => {
    for (const t of list) {
      if (t.type === 'strong' || t.type === 'em') walk((t as Tokens.Strong).tokens, FONTS[t.type]);
      else if (t.type === 'codespan') runs.push({ font: FONTS.codespan, text: (t as Tokens.Codespan).text });
      else if (t.type === 'link') walk((t as Tokens.Link).tokens, font);
      else if (t.type === 'br') runs.push({ font, text: '\n' });
      else if ('tokens' in t && t.tokens) walk(t.tokens, font);
      else if (t.type !== 'image') runs.push({ font, text: (t as Tokens.Text).text ?? t.raw });
    }
  };
  walk(tokens, FONTS.plain);
  if (!runs.length) return;
  runs.forEach((run, i) => {
    doc.font(run.font).text(drawable(run.text), { ...options, continued: i < runs.length - 1 });
  });
}

/** The paragraph's screenshots, each fitted to the page's width with its caption beneath. */
function images(doc: Doc, tokens: Token[], shots: string, language: Language) {
  for (const t of tokens) {
    if (t.type !== 'image') continue;
    const image = t as Tokens.Image;
    const name = /^shot:([a-z0-9-]+)$/.exec(image.href)?.[1];
    const path = name && join(shots, shotFile(name, language));
    if (!path || !existsSync(path)) continue;
    const opened = open(doc, path);
    const scale = Math.min(1, WIDTH / opened.width, 330 / opened.height);
    const height = opened.height * scale;
    if (doc.y + height + 30 > doc.page.height - doc.page.margins.bottom) doc.addPage();
    doc.image(opened as unknown as string, doc.page.margins.left, doc.y, {
      width: opened.width * scale,
      height,
    });
    doc.y += height + 4;
    doc
      .font(FONTS.em)
      .fontSize(9)
      .fillColor('#555555')
      .text(drawable(image.text), { width: WIDTH })
      .fillColor('black')
      .fontSize(10.5);
    doc.moveDown(0.6);
  }
}

function block(doc: Doc, token: Token, shots: string, language: Language) {
  switch (token.type) {
    case 'paragraph': {
      const paragraph = token as Tokens.Paragraph;
      const words = paragraph.tokens.filter((t) => t.type !== 'image');
      if (words.some((t) => t.raw.trim())) {
        inline(doc, words, { width: WIDTH });
        doc.moveDown(0.5);
      }
      images(doc, paragraph.tokens, shots, language);
      break;
    }
    case 'list': {
      const list = token as Tokens.List;
      list.items.forEach((item, i) => {
        const mark = list.ordered ? `${Number(list.start || 1) + i}.` : '•';
        const y = doc.y;
        doc.font(FONTS.plain).text(mark, doc.page.margins.left + 4, y, { width: 18 });
        doc.y = y;
        const text = itemTokens(item);
        inline(
          doc,
          text.filter((t) => t.type !== 'list' && t.type !== 'image'),
          { width: WIDTH - 24, indent: 0 },
        );
        doc.x = doc.page.margins.left;
        doc.moveDown(0.25);
        images(doc, text, shots, language);
      });
      doc.x = doc.page.margins.left;
      doc.moveDown(0.4);
      break;
    }
    case 'blockquote': {
      doc.fillColor('#0D3B66');
      for (const t of (token as Tokens.Blockquote).tokens)
        if (t.type === 'paragraph') inline(doc, (t as Tokens.Paragraph).tokens, { width: WIDTH });
      doc.fillColor('black').moveDown(0.5);
      break;
    }
    default:
      break;
  }
}

/**
 * A guide as an A4 PDF in its language: the title, the introduction, then each section with an
 * entry in the document's outline, its steps and its screenshots (docs/manuals/shots).
 */
export async function guidePdf(markdown: string, shots: string, language: Language): Promise<Buffer> {
  const guide = parseGuide(markdown);
  const doc = new PDFDocument({ size: 'A4', margin: 40, info: { Title: drawable(guide.title) } });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<void>((resolve) => doc.on('end', () => resolve()));
  doc.font(FONTS.strong).fontSize(20).fillColor('#0D3B66').text(drawable(guide.title));
  doc.fillColor('black').fontSize(10.5).moveDown(0.6);
  for (const token of guide.intro) block(doc, token, shots, language);
  for (const section of guide.sections) {
    if (section.depth === 2 && doc.y > doc.page.height - 160) doc.addPage();
    doc.moveDown(0.4);
    doc.outline.addItem(drawable(section.title));
    doc
      .font(FONTS.strong)
      .fontSize(section.depth === 2 ? 14 : 12)
      .fillColor('#0D3B66')
      .text(drawable(section.title), { width: WIDTH });
    doc.fillColor('black').fontSize(10.5).moveDown(0.3);
    for (const token of section.tokens) block(doc, token, shots, language);
  }
  doc.end();
  await done;
  return Buffer.concat(chunks);
}
