import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import zxing from '@zxing/library';
import jsQR from 'jsqr';
import { PNG } from 'pngjs';

const {
  BarcodeFormat,
  BinaryBitmap,
  DecodeHintType,
  HybridBinarizer,
  MultiFormatReader,
  RGBLuminanceSource,
} = zxing;

/** A page of a PDF as a PNG picture at `dpi` (pdftoppm, from Debian's poppler-utils). */
export function pageAsPng(pdf: Buffer, page: number, dpi = 300): Buffer {
  const dir = mkdtempSync(join(tmpdir(), 'badge-'));
  try {
    writeFileSync(join(dir, 'in.pdf'), pdf);
    execFileSync('pdftoppm', [
      '-png',
      '-r',
      String(dpi),
      '-f',
      String(page),
      '-l',
      String(page),
      '-singlefile',
      join(dir, 'in.pdf'),
      join(dir, 'out'),
    ]);
    return readFileSync(join(dir, 'out.png'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A part of a picture, in fractions of its width and height. */
export interface Region {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** The code of a format (QR_CODE, CODE_128) a picture or a region of it holds, as a scanner reads it. */
export function readCode(
  png: Buffer,
  format: 'QR_CODE' | 'CODE_128',
  region: Region = { x: 0, y: 0, width: 1, height: 1 },
): { format: string; text: string } {
  const image = PNG.sync.read(png);
  const left = Math.round(region.x * image.width);
  const top = Math.round(region.y * image.height);
  const width = Math.round(region.width * image.width);
  const height = Math.round(region.height * image.height);
  const luminance = new Uint8ClampedArray(width * height);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const i = ((top + y) * image.width + left + x) * 4;
      luminance[y * width + x] =
        (image.data[i] * 299 + image.data[i + 1] * 587 + image.data[i + 2] * 114) / 1000;
    }
  if (format === 'QR_CODE') {
    // jsQR reads every QR code; the barcode library misses some of them (a few in a hundred).
    const rgba = new Uint8ClampedArray(width * height * 4);
    for (let i = 0; i < luminance.length; i++)
      rgba.fill(luminance[i], i * 4, i * 4 + 3).fill(255, i * 4 + 3, i * 4 + 4);
    const qr = jsQR(rgba, width, height);
    if (!qr) throw new Error('no QR code found');
    return { format, text: qr.data };
  }
  const bitmap = new BinaryBitmap(new HybridBinarizer(new RGBLuminanceSource(luminance, width, height)));
  const hints = new Map();
  hints.set(DecodeHintType.POSSIBLE_FORMATS, [BarcodeFormat[format]]);
  hints.set(DecodeHintType.TRY_HARDER, true);
  const result = new MultiFormatReader().decode(bitmap, hints);
  return { format: BarcodeFormat[result.getBarcodeFormat()], text: result.getText() };
}
