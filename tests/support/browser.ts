import { type Browser, chromium } from 'playwright-core';
import { findChromium } from './chromium.js';

/**
 * Debian's Chromium (or another found), headless, with `extra` switches after the usual ones (a
 * fake camera, say). Without one the browser tests fail, loudly, with the command to install it.
 */
export async function launchBrowser(extra: string[] = []): Promise<Browser> {
  return chromium.launch({
    executablePath: findChromium(),
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      ...extra,
    ],
  });
}

/** The phone every browser test looks through: 390×844, touch, a mobile browser. */
export const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true } as const;
