import ExcelJS from 'exceljs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import en from '../../locales/en.json' with { type: 'json' };
import es from '../../locales/es.json' with { type: 'json' };
import { launchBrowser, PHONE } from '../support/browser.js';
import { signedInPage } from '../support/console.js';
import { asUser } from '../support/request-screens.js';
import { type RunningServer, startRealServer } from '../support/server.js';

// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON
type Json = any;

/**
 * The efficiency-of-approval report in a real browser: the authoriser reads the demo year's
 * months with their charts and the table per authoriser, and downloads the months' workbook,
 * whose figures are the screen's; on a phone in English the same report; a requester is sent away.
 */
describe('the efficiency report in a real browser', () => {
  let server: RunningServer;
  let browser: Browser;
  const problems: string[] = [];
  const calls = asUser(() => server.url);

  const totals = (page: Page) => page.getByTestId('efficiency-totals');

  beforeAll(async () => {
    server = await startRealServer();
    browser = await launchBrowser();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('shows the authoriser the year’s months in charts and tables, and exports them (es, desktop)', async () => {
    const page = await signedInPage(browser, server.url, 'AUTORIZADOR', problems, {
      context: { viewport: { width: 1400, height: 900 } },
    });
    const month = new Date().getMonth() + 1;
    const report = await calls.api(
      page,
      'GET',
      `/api/reporte/eficiencia?Anio=${new Date().getFullYear()}&MesDesde=1&MesHasta=${month}`,
    );
    expect(report.total.Decisiones).toBeGreaterThan(0);
    await calls.go(page, '/reporte/eficiencia', 'es');
    await expect
      .poll(() => totals(page).textContent())
      .toContain(`${report.total.Solicitudes} solicitudes enviadas · ${report.total.Decisiones} decisiones`);
    // Three charts, each an image named for readers of the screen, with its bars or lines drawn.
    for (const name of Object.values(es.reports.charts).slice(0, 3))
      expect(await page.getByRole('img', { name }).locator('svg path, svg rect').count()).toBeGreaterThan(0);
    const months = page.getByTestId('efficiency-months').locator('tbody tr');
    await expect.poll(() => months.count()).toBe(month);
    const authoriser = page.getByTestId('efficiency-authorisers').locator('tbody tr').first();
    expect(await authoriser.textContent()).toContain(String(report.autorizadores[0].Decisiones));
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByTestId('efficiency-excel-meses').click(),
    ]);
    const book = new ExcelJS.Workbook();
    await book.xlsx.readFile((await download.path()) as string);
    const sheet = book.getWorksheet('data') as ExcelJS.Worksheet;
    expect(sheet.rowCount).toBe(month + 2);
    const total = sheet.getRow(month + 2);
    expect(total.getCell(1).value).toBe('Total');
    expect(total.getCell(2).value).toBe(report.total.Solicitudes);
    expect(total.getCell(3).value).toBe(report.total.Decisiones);
    await page.context().close();
  }, 90_000);

  it('reads the same in English on a phone, and follows the month range chosen', async () => {
    const page = await signedInPage(browser, server.url, 'AUTORIZADOR', problems, { context: PHONE });
    await calls.go(page, '/reporte/eficiencia', 'en');
    await page.getByRole('heading', { name: en.reports.sections.authorisers }).waitFor();
    await page.locator('#efficiency-from').click();
    await page.getByRole('option', { name: 'Jan', exact: true }).click();
    await page.locator('#efficiency-to').click();
    await page.getByRole('option', { name: 'Jan', exact: true }).click();
    const year = new Date().getFullYear();
    const january = (await calls.api(
      page,
      'GET',
      `/api/reporte/eficiencia?Anio=${year}&MesDesde=1&MesHasta=1`,
    )) as Json;
    await expect
      .poll(() => totals(page).textContent())
      .toBe(
        january.total.Decisiones
          ? `${january.total.Solicitudes} requests sent · ${january.total.Decisiones} decisions · average attention ${january.total.PromedioHoras} h, longest ${january.total.MaximoHoras} h`
          : en.reports.empty,
      );
    await page.context().close();
  }, 90_000);

  it('sends a requester away from the report', async () => {
    const page = await signedInPage(browser, server.url, 'SOLICITANTE', problems, {
      context: { viewport: { width: 1400, height: 900 } },
    });
    await calls.go(page, '/reporte/eficiencia', 'es');
    await page.waitForURL(/\/sinpermiso$/);
    await expect
      .poll(() => page.getByRole('heading', { level: 1 }).innerText())
      .toBe(es.errors.noPermission.title);
    await page.context().close();
  }, 60_000);

  it('said nothing wrong in the console', () => {
    expect(problems).toEqual([]);
  });
});
