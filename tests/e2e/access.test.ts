import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../support/browser.js';
import { signInThroughConsole } from '../support/console.js';
import { type RunningServer, startRealServer } from '../support/server.js';

const SOUTH = 'UNIDAD MINERA SAN GABRIEL';

describe('headcount and roll call in a real browser', () => {
  let server: RunningServer;
  let browser: Browser;
  const problems: string[] = [];

  async function newPage(): Promise<Page> {
    const page = await (await browser.newContext({ viewport: { width: 1400, height: 900 } })).newPage();
    page.setDefaultTimeout(15_000);
    page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
    page.on('console', (message) => {
      if (message.type() === 'error' || message.type() === 'warning')
        problems.push(`${message.type()}: ${message.text()}`);
    });
    return page;
  }

  beforeAll(async () => {
    server = await startRealServer();
    browser = await launchBrowser();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('shows the requester its present and absent workers, and the popup lists them', async () => {
    const page = await newPage();
    await signInThroughConsole(page, server.url, 'SOLICITANTE', { division: SOUTH });
    await page.getByRole('tab', { name: 'Dotación' }).click();
    const tab = page.getByTestId('headcount-tab');
    await tab.waitFor();
    const absent = tab.locator('[data-headcount-row="TA"]');
    await absent.waitFor();
    const count = Number(await absent.locator('span').last().textContent());
    expect(count).toBeGreaterThan(0);
    await absent.click();
    const dialog = page.getByRole('dialog');
    await expect(dialog.getByRole('columnheader', { name: 'Contrato' }).count()).resolves.toBe(1);
    await dialog.getByTestId('headcount-table').locator('tbody tr').first().waitFor();
    const rows = await dialog.getByTestId('headcount-table').locator('tbody tr').count();
    expect(rows).toBe(Math.min(15, count));
    await dialog.getByRole('button', { name: 'Cerrar' }).click();
    expect(problems).toEqual([]);
  }, 60_000);

  it('gives the security office the evacuation roll call of the division', async () => {
    const page = await newPage();
    await signInThroughConsole(page, `${server.url}`, 'ADMIN', { division: SOUTH });
    await page.goto(`${server.url}/acceso/evacuacion`);
    const roll = page.getByTestId('roll-call');
    await roll.waitFor();
    await roll.locator('tbody tr').first().waitFor();
    const heading = await roll.getByRole('heading', { level: 1 }).textContent();
    const inside = Number(heading?.split(':').pop());
    expect(inside).toBeGreaterThan(0);
    expect(await roll.locator('tbody tr').count()).toBe(inside);
    expect(problems).toEqual([]);
  }, 60_000);
});
