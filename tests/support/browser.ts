import { type Browser, chromium } from 'playwright-core';
import { findChromium } from './chromium.js';

/**
 * Debian's Chromium (or another found), headless, with `extra` switches after the usual ones (a
 * fake camera, say). Without one the browser tests fail, loudly, with the command to install it.
 * Its pages prefer reduced motion, as a person may ask their system: the console then draws no
 * transitions and no ripples, which is less work for a busy machine and nothing a test waits on
 * (a test of the motion itself asks its context for `reducedMotion: 'no-preference'`).
 */
export async function launchBrowser(extra: string[] = []): Promise<Browser> {
  const browser = await chromium.launch({
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
  // Every context's default (Browser.newPage makes its context through this too).
  const newContext = browser.newContext.bind(browser);
  browser.newContext = (options) => newContext({ reducedMotion: 'reduce', ...options });
  return browser;
}

/** The phone every browser test looks through: 390×844, touch, a mobile browser. */
export const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true } as const;
