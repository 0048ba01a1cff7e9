import bwipjs from 'bwip-js/node';
import PDFDocument from 'pdfkit';
import type { Language } from '../../../shared/constants.js';
import { dmy } from '../../../shared/request-dates.js';
import { t } from '../../i18n.js';

/** What one badge (fotocheck, or a vehicle's windscreen card) shows, front and back. */
export interface BadgeCard {
  /** A person's badge (photo, emergency contact) or a vehicle's card (its plate where the photo goes). */
  TipoTitular: 'P' | 'V';
  Numero: string;
  TipoCredencial: string;
  /** The type's colour (#rrggbb): the band across the front. */
  Color: string;
  Cliente: string;
  Division: string;
  /** The big line and the one under it: surnames and names, or the vehicle's type and brand, and model. */
  Titulo: string;
  Subtitulo: string;
  /** The labelled lines under them (document, company, position, blood type; plate, company, colour, year). */
  Lineas: Array<[string, string | null]>;
  /** What the barcode carries and prints under it: the person's document or the vehicle's plate. */
  Codigo: string;
  /** A person's emergency contact (the back). */
  EmergenciaNombre: string | null;
  EmergenciaTelefono: string | null;
  FechaInicio: string;
  FechaFin: string;
  /** A person's photo as a data URL (PNG or JPEG), or null: the badge prints a placeholder. */
  Foto: string | null;
  /** The signed token the QR code carries. */
  Token: string;
}

/** One card per page (a card printer's) or ten per A4 sheet with cut marks, fronts then backs. */
export type BadgeLayout = 'tarjeta' | 'a4';

const MM = 72 / 25.4;
/** ID-1, ISO/IEC 7810. */
const CARD = { width: 85.6 * MM, height: 54 * MM };
const A4 = { width: 210 * MM, height: 297 * MM };
const SHEET = { columns: 2, rows: 5 };

/** Black or white, whichever reads on the colour. */
function inkOn(hex: string): string {
  const m = /^#?([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex);
  if (!m) return '#FFFFFF';
  const [r, g, b] = m.slice(1).map((h) => Number.parseInt(h, 16));
  return 0.299 * r + 0.587 * g + 0.114 * b > 160 ? '#1A1A1A' : '#FFFFFF';
}

const colour = (hex: string) => (/^#[0-9a-f]{6}$/i.test(hex) ? hex : '#0D3B66');

function imageOf(dataUrl: string | null): Buffer | undefined {
  const m = dataUrl ? /^data:image\/(png|jpeg);base64,(.+)$/.exec(dataUrl) : null;
  return m ? Buffer.from(m[2], 'base64') : undefined;
}

type Doc = InstanceType<typeof PDFDocument>;

/** Text fitted to a width: the size shrinks to `min`, then the line is cut with an ellipsis. */
function fitted(doc: Doc, text: string, x: number, y: number, width: number, size: number, min = 5) {
  let s = size;
  doc.fontSize(s);
  while (s > min && doc.widthOfString(text) > width) {
    s -= 0.5;
    doc.fontSize(s);
  }
  let shown = text;
  while (shown.length > 1 && doc.widthOfString(shown) > width) shown = `${shown.slice(0, -2)}…`;
  doc.text(shown, x, y, { width, lineBreak: false });
}

/** A code drawn as vectors, crisp at any printer's resolution: the QR's dark modules, the barcode's bars. */
interface Codes {
  /** The QR's side in modules and its dark modules, row by row. */
  qr: { size: number; dark: boolean[] };
  /** The barcode's bars and spaces, alternately, in module widths (a bar first). */
  bars: number[];
}

function codes(card: BadgeCard): Codes {
  // Error correction M: a worn badge still reads (a BWIPP option the typings leave out).
  const [qr] = bwipjs.raw({
    bcid: 'qrcode',
    text: card.Token,
    ...({ eclevel: 'M' } as object),
  }) as unknown as Array<{
    pixs: number[];
    pixx: number;
  }>;
  const [bar] = bwipjs.raw({ bcid: 'code128', text: card.Codigo }) as unknown as Array<{ sbs: number[] }>;
  return { qr: { size: qr.pixx, dark: qr.pixs.map((p) => p === 1) }, bars: bar.sbs };
}

function drawQr(doc: Doc, qr: Codes['qr'], x: number, y: number, side: number) {
  const module = side / qr.size;
  doc.save().fillColor('#000000');
  qr.dark.forEach((dark, i) => {
    if (dark) doc.rect(x + (i % qr.size) * module, y + Math.floor(i / qr.size) * module, module, module);
  });
  doc.fill().restore();
}

function drawBars(doc: Doc, bars: number[], x: number, y: number, width: number, height: number) {
  const total = bars.reduce((a, b) => a + b, 0);
  const unit = width / total;
  doc.save().fillColor('#000000');
  let at = x;
  bars.forEach((w, i) => {
    if (i % 2 === 0) doc.rect(at, y, w * unit, height);
    at += w * unit;
  });
  doc.fill().restore();
}

function front(doc: Doc, card: BadgeCard, x: number, y: number, language: Language) {
  const { width: w, height: h } = CARD;
  const band = colour(card.Color);
  const ink = inkOn(band);
  doc.save();
  doc.rect(x, y, w, h).fill('#FFFFFF');
  doc.rect(x, y, w, 11 * MM).fill(band);
  doc.fillColor(ink).font('Helvetica-Bold');
  fitted(doc, card.Cliente, x + 3 * MM, y + 2 * MM, w - 6 * MM, 7);
  doc.font('Helvetica');
  fitted(doc, card.Division, x + 3 * MM, y + 6 * MM, w - 6 * MM, 6);
  // The photo, or a placeholder that says it is missing; a vehicle's plate, as its plate shows it.
  const photo = { x: x + 3 * MM, y: y + 13.5 * MM, w: 21 * MM, h: 26 * MM };
  if (card.TipoTitular === 'V') plate(doc, photo, card.Codigo);
  else {
    const image = imageOf(card.Foto);
    if (image) {
      try {
        doc.image(image, photo.x, photo.y, { cover: [photo.w, photo.h], align: 'center', valign: 'center' });
      } catch {
        placeholder(doc, photo, language);
      }
    } else placeholder(doc, photo, language);
    doc.rect(photo.x, photo.y, photo.w, photo.h).lineWidth(0.5).stroke('#9AA5B1');
  }
  // Who or what, for whom, until when.
  const tx = x + 27 * MM;
  const tw = w - 30 * MM;
  doc.fillColor('#1A1A1A').font('Helvetica-Bold');
  fitted(doc, card.Titulo, tx, y + 13.5 * MM, tw, 9);
  doc.font('Helvetica');
  fitted(doc, card.Subtitulo, tx, y + 17.5 * MM, tw, 8);
  let ly = y + 22.5 * MM;
  for (const [label, value] of card.Lineas.slice(0, 4)) {
    doc.font('Helvetica-Bold').fontSize(5.5).fillColor('#52606D');
    doc.text(label.toUpperCase(), tx, ly, { width: tw, lineBreak: false });
    doc.font('Helvetica').fillColor('#1A1A1A');
    fitted(doc, value || '—', tx, ly + 2.2 * MM, tw, 6.5);
    ly += 4.6 * MM;
  }
  // The credential and its validity, in the band's colour.
  doc.rect(x, y + h - 9 * MM, w, 9 * MM).fill(band);
  doc.fillColor(ink).font('Helvetica-Bold');
  fitted(doc, card.Numero, x + 3 * MM, y + h - 7.3 * MM, 30 * MM, 8);
  doc.font('Helvetica');
  fitted(doc, card.TipoCredencial, x + 3 * MM, y + h - 3.6 * MM, 40 * MM, 5);
  const valid = t(language, 'identification.badge.valid', {
    from: dmy(card.FechaInicio),
    to: dmy(card.FechaFin),
  });
  doc
    .fontSize(6)
    .text(valid, x + 40 * MM, y + h - 6 * MM, { width: w - 43 * MM, align: 'right', lineBreak: false });
  doc.restore();
}

function placeholder(doc: Doc, box: { x: number; y: number; w: number; h: number }, language: Language) {
  doc.rect(box.x, box.y, box.w, box.h).fill('#E4E7EB');
  doc.fillColor('#52606D').font('Helvetica-Bold').fontSize(6);
  doc.text(t(language, 'identification.badge.noPhoto'), box.x, box.y + box.h / 2 - 3, {
    width: box.w,
    align: 'center',
  });
}

/** A vehicle's plate in the photo's place: black on white in a frame, as large as fits. */
function plate(doc: Doc, box: { x: number; y: number; w: number; h: number }, text: string) {
  const top = box.y + box.h / 2 - 6 * MM;
  doc.roundedRect(box.x, top, box.w, 12 * MM, 1.5 * MM).fill('#FFFFFF');
  doc
    .roundedRect(box.x, top, box.w, 12 * MM, 1.5 * MM)
    .lineWidth(1.2)
    .stroke('#1A1A1A');
  doc.fillColor('#1A1A1A').font('Helvetica-Bold');
  let size = 14;
  doc.fontSize(size);
  while (size > 6 && doc.widthOfString(text) > box.w - 2 * MM) {
    size -= 0.5;
    doc.fontSize(size);
  }
  doc.text(text, box.x, top + 6 * MM - size * 0.35, { width: box.w, align: 'center', lineBreak: false });
}

function back(doc: Doc, card: BadgeCard, images: Codes, x: number, y: number, language: Language) {
  const { width: w, height: h } = CARD;
  doc.save();
  doc.rect(x, y, w, h).fill('#FFFFFF');
  // The QR: big enough for a phone at arm's length (about 0.7 mm a module), with its quiet zone.
  drawQr(doc, images.qr, x + 3 * MM, y + 3 * MM, 32 * MM);
  const tx = x + 38 * MM;
  const tw = w - 41 * MM;
  doc.fillColor('#1A1A1A').font('Helvetica-Bold').fontSize(6.5);
  let found = y + 4 * MM;
  if (card.TipoTitular === 'P') {
    doc.text(t(language, 'identification.badge.emergency').toUpperCase(), tx, y + 4 * MM, { width: tw });
    doc.font('Helvetica');
    fitted(doc, card.EmergenciaNombre || '—', tx, y + 7.5 * MM, tw, 7);
    doc.font('Helvetica-Bold');
    fitted(doc, card.EmergenciaTelefono || '—', tx, y + 11 * MM, tw, 9);
    found = y + 17 * MM;
  } else {
    doc.text(t(language, 'identification.badge.vehicleUse', { division: card.Division }), tx, found, {
      width: tw,
      height: 12 * MM,
    });
    found += 13 * MM;
  }
  doc.font('Helvetica').fontSize(5.5).fillColor('#52606D');
  doc.text(
    t(
      language,
      card.TipoTitular === 'P' ? 'identification.badge.found' : 'identification.badge.vehicleFound',
      {
        // A name ending in an abbreviation's full stop (S.A.A.) ends the sentence with it.
        client: card.Cliente.replace(/\.$/, ''),
      },
    ),
    tx,
    found,
    { width: tw, height: 17 * MM },
  );
  // The document's (or plate's) Code 128, across the foot, with its text under it.
  const barsWidth = Math.min(w - 16 * MM, images.bars.reduce((a, b) => a + b, 0) * 0.33 * MM);
  drawBars(doc, images.bars, x + (w - barsWidth) / 2, y + 37 * MM, barsWidth, 10 * MM);
  doc.fillColor('#1A1A1A').font('Helvetica').fontSize(6.5);
  doc.text(card.Codigo, x, y + 48 * MM, { width: w, align: 'center', lineBreak: false });
  doc.restore();
}

function cutMarks(doc: Doc, x: number, y: number) {
  const l = 3 * MM;
  const { width: w, height: h } = CARD;
  doc.save().lineWidth(0.3).strokeColor('#000000');
  for (const [cx, cy] of [
    [x, y],
    [x + w, y],
    [x, y + h],
    [x + w, y + h],
  ]) {
    doc
      .moveTo(cx - l, cy)
      .lineTo(cx - 1, cy)
      .stroke();
    doc
      .moveTo(cx + 1, cy)
      .lineTo(cx + l, cy)
      .stroke();
    doc
      .moveTo(cx, cy - l)
      .lineTo(cx, cy - 1)
      .stroke();
    doc
      .moveTo(cx, cy + 1)
      .lineTo(cx, cy + l)
      .stroke();
  }
  doc.restore();
}

/**
 * The badges as one PDF. `tarjeta`: a page the size of the card for each side (front, then back),
 * as card printers take them. `a4`: ten cards a sheet with cut marks, a page of fronts and then a
 * page of their backs mirrored left to right, so a long-edge duplex print puts each back behind
 * its front.
 */
export async function badgePdf(cards: BadgeCard[], layout: BadgeLayout, language: Language): Promise<Buffer> {
  const images = cards.map(codes);
  const doc = new PDFDocument({
    size: layout === 'tarjeta' ? [CARD.width, CARD.height] : [A4.width, A4.height],
    margin: 0,
    autoFirstPage: false,
    info: { Title: t(language, 'identification.badge.title'), Creator: t(language, 'app.title') },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  if (layout === 'tarjeta') {
    cards.forEach((card, i) => {
      doc.addPage();
      front(doc, card, 0, 0, language);
      doc.addPage();
      back(doc, card, images[i], 0, 0, language);
    });
  } else {
    const perSheet = SHEET.columns * SHEET.rows;
    const left = (A4.width - SHEET.columns * CARD.width) / 2;
    const top = (A4.height - SHEET.rows * CARD.height) / 2;
    for (let start = 0; start < cards.length; start += perSheet) {
      const sheet = cards.slice(start, start + perSheet);
      for (const side of ['front', 'back'] as const) {
        doc.addPage();
        sheet.forEach((card, j) => {
          const column = j % SHEET.columns;
          const row = Math.floor(j / SHEET.columns);
          const shown = side === 'front' ? column : SHEET.columns - 1 - column;
          const x = left + shown * CARD.width;
          const y = top + row * CARD.height;
          if (side === 'front') front(doc, card, x, y, language);
          else back(doc, card, images[start + j], x, y, language);
          cutMarks(doc, x, y);
        });
      }
    }
  }
  doc.end();
  return done;
}
