import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import en from '../../locales/en.json';
import es from '../../locales/es.json';
import { shotFile } from '../../src/shared/manuals.js';
import { launchBrowser, PHONE } from '../support/browser.js';
import { consoleSession, signedInPage } from '../support/console.js';
import { SHOTS, type Shot } from '../support/manual-shots/index.js';
import { type RunningServer, startRealServer } from '../support/server.js';
import { drawingProblems } from '../support/shots.js';

const LANGUAGES = ['es', 'en'] as const;
const RAW_KEY = /\b(?:resources|enums|app|ra|manuals|shell|validation)\.[a-zA-Z-]+\.[a-zA-Z]/;
/** Where the pictures go: the guides' own folder when refreshing them (UPDATE_MANUALS=1), else a scratch one. */
const OUT = process.env.UPDATE_MANUALS
  ? resolve(import.meta.dirname, '../../docs/manuals/shots')
  : mkdtempSync(join(tmpdir(), 'acr-manual-shots-'));
const KEPT = resolve(import.meta.dirname, '../../docs/manuals/shots');
/** MANUAL_GUIDES=camp,dining takes only those guides' pictures (while writing a guide). */
const ONLY = process.env.MANUAL_GUIDES?.split(',');
const TAKEN = SHOTS.filter((s) => !ONLY || ONLY.some((g) => s.name.startsWith(`${g}-`)));

/**
 * The user guides' screenshots, taken from the demo data as each guide's user sees each screen,
 * in Spanish and English: every screen a guide shows still draws what the guide says (its
 * `ready`), in words (no raw keys), and its picture is kept with the guides. Then the guides as a
 * person reads them in the console: the requester (Spanish, desktop) from the footer and the
 * help button, searching; the camp administrator (English, phone) from a screen's help button to
 * its section, and the guide's PDF.
 */
describe('user guides in a real browser', () => {
  let server: RunningServer;
  let browser: Browser;
  const problems: string[] = [];

  beforeAll(async () => {
    server = await startRealServer();
    browser = await launchBrowser();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  /** One signed-in context per user, language and device, its page reused shot after shot. */
  const pages = new Map<string, Promise<{ context: BrowserContext; page: Page }>>();
  const pageFor = (shot: Shot, lang: string) => {
    const key = `${shot.user}|${shot.division ?? ''}|${lang}|${shot.phone ? 'phone' : 'desktop'}`;
    let made = pages.get(key);
    if (!made) {
      made = (async () => {
        const storageState = await consoleSession(server.url, shot.user, { division: shot.division });
        const context = await browser.newContext({
          ...(shot.phone ? PHONE : { viewport: { width: 1280, height: 800 } }),
          storageState,
          locale: lang === 'es' ? 'es-PE' : 'en-GB',
        });
        const page = await context.newPage();
        page.setDefaultTimeout(20_000);
        page.on('pageerror', (error) => problems.push(`${shot.name} ${lang}: ${error.message}`));
        return { context, page };
      })();
      pages.set(key, made);
    }
    return made;
  };

  const guides = [...new Set(TAKEN.map((s) => s.name.split('-')[0]))];
  // A test run takes each picture in one language, the languages by turns (both when refreshing
  // them): every screen is still drawn as its guide says, and both languages are walked.
  let alternate = 0;
  it.each(guides)(
    'takes every screenshot of the %s guide from the demo data, in both languages',
    async (guide) => {
      for (const shot of TAKEN.filter((s) => s.name.startsWith(`${guide}-`))) {
        const turn = LANGUAGES[alternate++ % 2];
        for (const lang of process.env.UPDATE_MANUALS ? LANGUAGES : [turn]) {
          const { page } = await pageFor(shot, lang);
          // Each screen loaded afresh, in the language: never the picture of the one before.
          await page.goto(`${server.url}${shot.path}${shot.path.includes('?') ? '&' : '?'}lang=${lang}`, {
            waitUntil: process.env.UPDATE_MANUALS ? 'networkidle' : 'domcontentloaded',
          });
          await shot.act?.(page);
          await page.locator(shot.ready).first().waitFor();
          problems.push(...(await drawingProblems(page, `${shot.name} ${lang}`, RAW_KEY)));
          // Pictures are of what a person sees: finite transitions ended, the mouse out of the way.
          await page.mouse.move(0, 0);
          await page.evaluate(() =>
            Promise.all(
              document
                .getAnimations()
                .filter((a) => a.effect?.getComputedTiming().iterations !== Number.POSITIVE_INFINITY)
                .map((a) => a.finished.catch(() => undefined)),
            ),
          );
          await page.screenshot({ path: join(OUT, shotFile(shot.name, lang)), type: 'jpeg', quality: 70 });
          expect(existsSync(join(KEPT, shotFile(shot.name, lang))), `${shot.name} ${lang} is kept`).toBe(
            true,
          );
        }
      }
      expect(problems).toEqual([]);
    },
    300_000,
  );

  it('the requester reads its guide from the footer, searches it, and a screen’s help opens its section', async () => {
    const page = await signedInPage(browser, server.url, 'SOLICITANTE', problems, {
      context: { viewport: { width: 1280, height: 800 } },
    });
    await page.goto(`${server.url}/dashboard?lang=es`);
    await page.locator('[data-testid="manuals"]').click();
    const guide = page.locator('[data-testid="manual-page"][data-guide="requester"]');
    await guide.waitFor();
    await expect.poll(() => page.locator('h1').first().textContent()).toBe(es.manuals.guides.requester);
    // Its pictures are the build's files, drawn.
    const image = guide.locator('figure img').first();
    await image.scrollIntoViewIfNeeded();
    await expect
      .poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
      .toBeGreaterThan(300);
    // The search keeps the sections that speak of it.
    await page.locator('#manual-search').fill('desmovilizacion');
    await page.locator('[data-testid="manual-results"]').waitFor();
    const sections = await guide
      .locator('section')
      .evaluateAll((s) => s.map((e) => e.getAttribute('data-section')));
    expect(sections).toContain('demobilisation');
    expect(sections).not.toContain('bulk');
    await page.locator('#manual-search').fill('zzzz-nada');
    await expect
      .poll(() => page.locator('[data-testid="manual-results"]').textContent())
      .toBe(es.manuals.noResults.replace('%{query}', 'zzzz-nada'));
    // The help button of the workers' requests screen opens the guide at that screen's section.
    await page.goto(`${server.url}/movilizacion/solicitante/persona?lang=es`);
    await page.locator('[data-testid="help"]').click();
    const section = page.locator('section[data-section="workers"]');
    await section.waitFor();
    await expect.poll(() => page.url()).toMatch(/\/manuales\/requester#workers$/);
    await expect.poll(() => section.evaluate((s) => s.getBoundingClientRect().top)).toBeLessThan(200);
    expect(problems).toEqual([]);
  });

  it('the camp administrator on a phone: help on the availability grid, then the guide’s PDF', async () => {
    const page = await signedInPage(browser, server.url, 'HOTELERO', problems, { context: PHONE });
    await page.goto(`${server.url}/hotel/disponibilidad?lang=en`);
    const help = page.locator('[data-testid="help"]');
    await expect.poll(() => help.getAttribute('data-target')).toBe('camp#availability');
    await help.click();
    const section = page.locator('section[data-section="availability"]');
    await section.waitFor();
    await expect.poll(() => page.locator('h1').first().textContent()).toBe(en.manuals.guides.camp);
    const download = page.waitForEvent('download');
    await page.locator('[data-testid="manual-pdf"]').click();
    const file = await download;
    expect(file.suggestedFilename()).toBe('manual-campamento.pdf');
    problems.push(...(await drawingProblems(page, 'camp guide phone', RAW_KEY)));
    expect(problems).toEqual([]);
  });
});
