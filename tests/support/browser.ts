import { type Browser, chromium } from 'playwright-core';
import { findChromium } from './chromium.js';

/**
 * Debian's Chromium (or another found), headless, with `extra` switches after the usual ones (a
 * fake camera, say). Without one the browser tests fail, loudly, with the command to install it.
 * Its pages prefer reduced motion, as a person may ask their system: the console then draws no
 * transitions and no ripples, which is less work for a busy machine and nothing a test waits on
 * (a test of the motion itself asks its context for `reducedMotion: 'no-preference'`).
 *
 * One browser per set of switches serves the files a worker runs one after another (the browser
 * files share their worker, `isolate: false`): each file gets it as its own, and its `close()`
 * closes the contexts the file opened (cookies, storage and cache live in a context, so nothing
 * passes from one file to the next). The browser itself ends with the worker.
 */
export async function launchBrowser(extra: string[] = []): Promise<Browser> {
  const key = extra.join(' ');
  let launched = shared.get(key);
  if (!launched) {
    launched = start(extra);
    shared.set(key, launched);
  }
  const browser = await launched;
  if (!browser.isConnected()) {
    shared.delete(key);
    return launchBrowser(extra);
  }
  return new Proxy(browser, {
    get(target, property) {
      if (property === 'close')
        return async () => {
          await Promise.all(target.contexts().map((context) => context.close()));
        };
      const value = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

const shared = new Map<string, Promise<Browser>>();

async function start(extra: string[]): Promise<Browser> {
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
