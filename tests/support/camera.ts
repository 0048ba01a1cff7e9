/**
 * Chromium's fake camera for scanning tests: a y4m video of badges' QR codes or documents' barcodes,
 * each held a few seconds as a hand holds it, and a browser whose camera plays it.
 */
import { writeFileSync } from 'node:fs';
import bwipjs from 'bwip-js/node';
import { PNG } from 'pngjs';
import { launchBrowser } from './browser.js';

const WIDTH = 640;
const HEIGHT = 480;
const FPS = 5;

/**
 * The badge as a hand holds it in front of a camera: a little larger or smaller, a little to a side,
 * from frame to frame. (A perfectly still synthetic QR code is one the decoder may never find: a few
 * in a hundred are missed at a given size and place, and a real camera never shows the same frame.)
 */
const POSES: Array<[shrink: number, dx: number, dy: number]> = [
  [0, 0, 0],
  [1, -37, 11],
  [2, 23, -17],
  [0, 31, 9],
  [1, 14, -21],
  [2, -29, 15],
];

/** What a frame shows: a badge's QR code or a document's Code 128 barcode. */
export type Code = { bcid: 'qrcode' | 'code128'; text: string };

/** A grey frame (luma only) with the code in a pose, as a y4m frame's planes. */
async function frameOf({ bcid, text }: Code, [shrink, dx, dy]: (typeof POSES)[number]): Promise<Buffer> {
  const render = async (scale: number) =>
    PNG.sync.read(
      await bwipjs.toBuffer({
        bcid,
        text,
        scale,
        paddingwidth: 2,
        paddingheight: 2,
        ...(bcid === 'code128' && { height: 18 }),
      }),
    );
  // As large as the frame allows, in whole pixels per module, less the pose's shrink.
  const unit = await render(1);
  const fit = Math.min(Math.floor((HEIGHT - 80) / unit.height), Math.floor((WIDTH - 120) / unit.width));
  const png = await render(fit - shrink);
  const luma = Buffer.alloc(WIDTH * HEIGHT, 235);
  const left = Math.floor((WIDTH - png.width) / 2) + dx;
  const top = Math.floor((HEIGHT - png.height) / 2) + dy;
  for (let y = 0; y < png.height; y++)
    for (let x = 0; x < png.width; x++) {
      const i = (y * png.width + x) * 4;
      const dark = png.data[i + 3] > 0 && png.data[i] < 128;
      luma[(top + y) * WIDTH + left + x] = dark ? 16 : 235;
    }
  const chroma = Buffer.alloc((WIDTH / 2) * (HEIGHT / 2) * 2, 128);
  return Buffer.concat([luma, chroma]);
}

/** A y4m video for Chromium's fake camera: each code held for `seconds`, one after the other (looped). */
export async function videoOf(codes: Code[], seconds: number, path: string) {
  const parts: Buffer[] = [Buffer.from(`YUV4MPEG2 W${WIDTH} H${HEIGHT} F${FPS}:1 Ip A1:1 C420jpeg\n`)];
  for (const code of codes) {
    const frames = await Promise.all(POSES.map((pose) => frameOf(code, pose)));
    for (let i = 0; i < seconds * FPS; i++) parts.push(Buffer.from('FRAME\n'), frames[i % frames.length]);
  }
  writeFileSync(path, Buffer.concat(parts));
}

/** Chromium whose camera plays `video`. */
export const launchWithCamera = (video: string) =>
  launchBrowser([
    '--use-fake-device-for-media-stream',
    '--use-fake-ui-for-media-stream',
    `--use-file-for-fake-video-capture=${video}`,
  ]);
