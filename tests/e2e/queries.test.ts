import ExcelJS from 'exceljs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import es from '../../locales/es.json' with { type: 'json' };
import { launchBrowser, PHONE } from '../support/browser.js';
import { signedInPage } from '../support/console.js';
import { asUser } from '../support/request-screens.js';
import { type RunningServer, startRealServer } from '../support/server.js';

// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON
type Json = any;

/**
 * The queries of /consultas in a real browser: the administrator filters the current status of
 * the division's people by presence and downloads every row; the requester, on a phone in
 * English, sees its company's mobilisations only; a profile without the screens is sent away.
 */
describe('queries in a real browser', () => {
  let server: RunningServer;
  let browser: Browser;
  const problems: string[] = [];
  const calls = asUser(() => server.url);

  /** A filter's choice: its select opened, the option clicked. */
  const pick = async (page: Page, id: string, option: string) => {
    await page.locator(`#${id}`).click();
    await page.getByRole('option', { name: option, exact: true }).click();
  };
  const shown = (page: Page) => page.getByTestId('query-grid').locator('.MuiTablePagination-displayedRows');

  beforeAll(async () => {
    server = await startRealServer();
    browser = await launchBrowser();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('gives the administrator the status of the people on site, and every row in Excel (es, desktop)', async () => {
    const page = await signedInPage(browser, server.url, 'ADMIN', problems, {
      context: { viewport: { width: 1400, height: 900 } },
    });
    const all = (await calls.api(page, 'GET', '/api/consulta/estado?IdEntidad=T&take=1'))
      .totalCount as number;
    const inside = (await calls.api(page, 'GET', '/api/consulta/estado?IdEntidad=T&Presente=S&take=1'))
      .totalCount as number;
    expect(inside).toBeGreaterThan(0);
    await calls.go(page, '/consultas/estado', 'es');
    await expect.poll(() => shown(page).textContent()).toMatch(new RegExp(` ${all}$`));
    await pick(page, 'query-presence', 'Presente');
    await expect.poll(() => shown(page).textContent()).toMatch(new RegExp(` ${inside}$`));
    const cells = await page.getByTestId('query-grid').locator('tbody tr td:last-child').allTextContents();
    expect(cells.every((c) => c.startsWith('Presente · '))).toBe(true);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByTestId('query-excel').click(),
    ]);
    const book = new ExcelJS.Workbook();
    await book.xlsx.readFile((await download.path()) as string);
    const sheet = book.getWorksheet('data') as ExcelJS.Worksheet;
    expect(sheet.rowCount - 1).toBe(inside);
    expect(sheet.getRow(1).values).toContain('En el sitio');
    await page.context().close();
  }, 90_000);

  it('shows the requester its company’s mobilisations only (en, phone)', async () => {
    const page = await signedInPage(browser, server.url, 'SOLICITANTE', problems, { context: PHONE });
    const mine = (await calls.api(page, 'GET', '/api/consulta/solicitudes?Tipo=M&take=1000')).data as Json[];
    expect(new Set(mine.map((r) => r.IdCompania)).size).toBe(1);
    await calls.go(page, '/consultas/movilizaciones', 'en');
    const cards = page.getByTestId('query-grid').locator('li');
    await expect.poll(() => cards.count()).toBe(Math.min(mine.length, 20));
    await pick(page, 'query-status', 'Approved');
    const approved = mine.filter((r) => r.EstadoAprobacion === 'A').length;
    await expect.poll(() => cards.count()).toBe(Math.min(approved, 20));
    // No company filter: a contractor's queries are its own company's.
    expect(await page.locator('#query-company').count()).toBe(0);
    await page.context().close();
  }, 90_000);

  it('sends a profile without the query screens away', async () => {
    const page = await signedInPage(browser, server.url, 'COMEDOR', problems, {
      context: { viewport: { width: 1400, height: 900 } },
    });
    const asked: string[] = [];
    page.on('response', (r) => {
      if (r.url().includes('/api/consulta/')) asked.push(`${r.status()} ${r.url()}`);
    });
    for (const route of ['/consultas/movilizaciones', '/consultas/desmovilizaciones', '/consultas/estado']) {
      await calls.go(page, route, 'es');
      await page.waitForURL(/\/sinpermiso$/);
      await expect
        .poll(() => page.getByRole('heading', { level: 1 }).innerText())
        .toBe(es.errors.noPermission.title);
    }
    expect(asked).toEqual([]);
    await page.context().close();
  }, 60_000);

  it('said nothing wrong in the console', () => {
    expect(problems).toEqual([]);
  });
});
