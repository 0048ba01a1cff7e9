/**
 * On a 390×844 phone: every grid's pager is on the screen and turns the page (the request grids,
 * and react-admin's lists, whose create button must not cover it), in Spanish and English.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, PHONE } from '../support/browser.js';
import { signInBySession } from '../support/console.js';
import { asUser } from '../support/request-screens.js';
import { type RunningServer, startRealServer } from '../support/server.js';

const SOUTH = 'UNIDAD MINERA SAN GABRIEL';

describe('a phone in a real browser', () => {
  let server: RunningServer;
  let browser: Browser;
  const problems: string[] = [];
  const { go } = asUser(() => server.url);

  const phone = async (user: string) => {
    const context = await browser.newContext(PHONE);
    const page = await context.newPage();
    page.setDefaultTimeout(20_000);
    page.on('pageerror', (error) => problems.push(`${user} pageerror: ${error.message}`));
    await signInBySession(page, server.url, user, { division: SOUTH, at: null });
    return page;
  };
  /** The element a tap at the middle of the locator's box reaches: it, or what covers it. */
  const reachable = (page: Page, selector: string) =>
    page.evaluate((sel) => {
      const el = document.querySelector(sel) as HTMLElement | null;
      if (!el) return 'missing';
      el.scrollIntoView({ block: 'center' });
      const box = el.getBoundingClientRect();
      if (box.left < 0 || box.right > window.innerWidth) return `off the screen (${box.left}–${box.right})`;
      const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
      return hit && (hit === el || el.contains(hit)) ? 'reachable' : `covered by ${hit?.className}`;
    }, selector);

  beforeAll(async () => {
    server = await startRealServer();
    browser = await launchBrowser();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  for (const lang of ['es', 'en'] as const)
    it(`turns the page of a request grid and of a list at 390 px (${lang})`, async () => {
      const page = await phone('AUTORIZADOR');
      await go(page, '/movilizacion/autorizador/persona', lang);
      const next = `[aria-label="${lang === 'es' ? 'Ir a la página siguiente' : 'Go to next page'}"]`;
      await page.locator('.MuiTablePagination-displayedRows').first().waitFor();
      // Five a page, so that there is a next one: the rows-per-page choice is on the screen too.
      expect(await reachable(page, '.MuiTablePagination-select')).toBe('reachable');
      await page.locator('.MuiTablePagination-select').first().click();
      await page.getByRole('option', { name: '5', exact: true }).click();
      await page.locator('.MuiMenu-root').waitFor({ state: 'detached' });
      expect(await reachable(page, next)).toBe('reachable');
      const range = page.locator('.MuiTablePagination-displayedRows').first();
      const before = await range.textContent();
      expect(before).toMatch(/^1-/);
      await page.locator(next).first().click();
      await expect.poll(() => range.textContent()).not.toBe(before);
      await page.screenshot({ path: `test-results/phone-grid-pager-${lang}.png` });

      // A react-admin list: its create button does not cover the pager.
      await go(page, '/person', lang);
      const listNext = `[aria-label="${lang === 'es' ? 'Ir a la página siguiente' : 'Go to next page'}"]`;
      await page.locator(listNext).first().waitFor();
      expect(await reachable(page, listNext)).toBe('reachable');
      await page.screenshot({ path: `test-results/phone-list-pager-${lang}.png` });
      expect(problems).toEqual([]);
    }, 120_000);
});
