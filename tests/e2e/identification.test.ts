import { readFileSync, writeFileSync } from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import es from '../../locales/es.json';
import { seriousAxeFindings } from '../support/axe.js';
import { pageAsPng, readCode } from '../support/badge-codes.js';
import { launchBrowser, PHONE } from '../support/browser.js';
import { signInBySession } from '../support/console.js';
import { asUser, type Lang } from '../support/request-screens.js';
import { type RunningServer, startRealServer } from '../support/server.js';

// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON
type Json = any;
const SOUTH = 'UNIDAD MINERA SAN GABRIEL';

/**
 * Identification management as the identification office (Spanish, desktop) and the administrator
 * (English, phone) meet it: a credential issued to an accredited worker, its badge printed (a PDF
 * whose QR the server verifies), reissued with its reasons, and a dialog that says what is missing.
 */
describe('identification management in a real browser', () => {
  let server: RunningServer;
  let browser: Browser;
  const problems: string[] = [];
  const { api, go } = asUser(() => server.url);

  const open = async (user: string, options: Parameters<Browser['newContext']>[0]) => {
    const context: BrowserContext = await browser.newContext(options);
    const page = await context.newPage();
    page.setDefaultTimeout(20_000);
    page.on('pageerror', (error) => problems.push(`${user} pageerror: ${error.message}`));
    page.on('console', (message) => {
      if (message.type() === 'error' || message.type() === 'warning')
        problems.push(`${user} console ${message.type()}: ${message.text()}`);
    });
    await signInBySession(page, server.url, user, { division: SOUTH, at: null });
    return page;
  };

  beforeAll(async () => {
    server = await startRealServer();
    browser = await launchBrowser();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const row = (page: Page, documento: string) =>
    page.locator('[data-testid="identification-grid"] tr, [data-testid="identification-grid"] li').filter({
      hasText: documento,
    });
  const choose = async (page: Page, id: string, option: RegExp) => {
    await page.locator(`#${id}`).click();
    await page.getByRole('option', { name: option }).click();
  };
  const screen = async (page: Page, lang: Lang, documento?: string) => {
    await go(page, '/identificacion/gestion', lang);
    await page.locator('[data-testid="identification-grid"]').waitFor();
    if (documento) await page.locator('#identification-search').fill(documento);
  };

  it('issues a credential and prints its badge as the identification office (Spanish, desktop)', async () => {
    const page = await open('IDENTIFICACION', { viewport: { width: 1400, height: 900 } });
    await screen(page, 'es');
    expect(await page.title()).toContain('Gestión de identificación');
    const holders = await api(page, 'GET', '/api/identificacion/titulares?take=100');
    const worker: Json = holders.data.find((h: Json) => h.IdCredencial === null);
    await page.locator('#identification-search').fill(worker.Documento);
    await expect.poll(() => row(page, worker.Documento).count()).toBe(1);
    // Issued without the required choices: the dialog says what is missing and writes nothing.
    await row(page, worker.Documento).locator('[data-action="issue"]').click();
    await page.getByTestId('credential-save').click();
    await expect
      .poll(() => page.getByTestId('credential-missing').innerText())
      .toBe('Complete los campos obligatorios.');
    await choose(page, 'credential-type', /^FOTOCHECK DE CONTRATISTA$/);
    await choose(page, 'credential-issue-reason', /^EMISIÓN INICIAL$/);
    // Judged once the choices' lists have closed (a fading list is no finding).
    await page.locator('[role="listbox"]').waitFor({ state: 'detached' });
    for (const finding of await seriousAxeFindings(page)) problems.push(`issue dialog: ${finding}`);
    await page.getByTestId('credential-save').click();
    await expect
      .poll(() => page.getByTestId('identification-notice').innerText())
      .toMatch(/^Credencial FC-\d{6} emitida\.$/);
    const number = /FC-\d{6}/.exec(
      await page.getByTestId('identification-notice').innerText(),
    )?.[0] as string;
    await expect.poll(() => row(page, worker.Documento).innerText()).toContain(number);
    // Chosen and printed ten a sheet: a PDF whose card backs carry a QR the server verifies.
    await row(page, worker.Documento).getByRole('checkbox').check();
    await expect
      .poll(() => page.getByTestId('identification-chosen').innerText())
      .toBe('1 fotocheck elegido para imprimir');
    await choose(page, 'identification-layout', /Hoja A4/);
    const download = page.waitForEvent('download');
    await page.getByTestId('identification-print').click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^fotochecks-\d{4}-\d{2}-\d{2}\.pdf$/);
    const pdf = readFileSync((await file.path()) as string);
    const sheetBack = pageAsPng(pdf, 2, 200);
    // The back of the sheet's first card is mirrored to the right half (for duplex printing).
    const token = readCode(sheetBack, 'QR_CODE', { x: 0.45, y: 0, width: 0.55, height: 0.3 }).text;
    const verified = await api(page, 'POST', '/api/identificacion/verificar', { token });
    expect(verified).toMatchObject({ genuine: true, credential: { Numero: number } });
    await expect.poll(() => row(page, worker.Documento).innerText()).toContain('Impreso');
    // The demo's people have no photo: the badge prints with a placeholder, and the screen says so.
    expect(await page.getByTestId('identification-no-photo').innerText()).toContain(worker.Nombres);
    for (const finding of await seriousAxeFindings(page)) problems.push(`screen: ${finding}`);
    await page.screenshot({ path: '/tmp/identification-es.png', fullPage: true });
    await page.context().close();
  }, 180_000);

  it('issues and prints a vehicle’s windscreen card from the vehicles’ list (Spanish, desktop)', async () => {
    const page = await open('IDENTIFICACION', { viewport: { width: 1400, height: 900 } });
    await screen(page, 'es');
    const vehicles = await api(page, 'GET', '/api/identificacion/titulares?tipo=V&take=100');
    const vehicle: Json = vehicles.data.find((h: Json) => h.IdCredencial === null);
    expect(vehicle, 'an accredited demo vehicle without a card').toBeTruthy();
    await page.getByRole('button', { name: 'Vehículos' }).click();
    await expect
      .poll(() => page.locator('label[for="identification-search"]').innerText())
      .toContain('placa');
    await page.locator('#identification-search').fill(vehicle.Documento);
    await expect.poll(() => row(page, vehicle.Documento).count()).toBe(1);
    expect(await page.locator('[data-testid="identification-grid"]').innerText()).toContain('Placa');
    await row(page, vehicle.Documento).locator('[data-action="issue"]').click();
    await choose(page, 'credential-type', /^TAG VEHICULAR$/);
    await choose(page, 'credential-issue-reason', /^EMISIÓN INICIAL$/);
    await page.locator('[role="listbox"]').waitFor({ state: 'detached' });
    await page.getByTestId('credential-save').click();
    await expect
      .poll(() => page.getByTestId('identification-notice').innerText())
      .toMatch(/^Credencial FC-\d{6} emitida\.$/);
    await row(page, vehicle.Documento).getByRole('checkbox').check();
    const download = page.waitForEvent('download');
    await page.getByTestId('identification-print').click();
    const pdf = readFileSync((await (await download).path()) as string);
    // The card's back: a QR the server verifies as this vehicle's, and the plate's barcode.
    const back = pageAsPng(pdf, 2);
    expect(readCode(back, 'CODE_128', { x: 0, y: 0.66, width: 1, height: 0.24 }).text).toBe(
      vehicle.Documento,
    );
    const token = readCode(back, 'QR_CODE', { x: 0, y: 0, width: 0.45, height: 0.7 }).text;
    const verified = await api(page, 'POST', '/api/identificacion/verificar', { token });
    expect(verified).toMatchObject({ genuine: true, holder: { Documento: vehicle.Documento } });
    // A vehicle has no photo to miss.
    await expect.poll(() => row(page, vehicle.Documento).innerText()).toContain('Impreso');
    expect(await page.getByTestId('identification-no-photo').count()).toBe(0);
    writeFileSync('/tmp/vehicle-card-front.png', pageAsPng(pdf, 1));
    writeFileSync('/tmp/vehicle-card-back.png', back);
    await page.context().close();
  }, 180_000);

  it('reissues a credential with its reasons as the administrator (English, phone)', async () => {
    const page = await open('ADMIN', PHONE);
    const holders = await api(page, 'GET', '/api/identificacion/titulares?take=100');
    const worker: Json = holders.data.find((h: Json) => h.IdCredencial !== null);
    await screen(page, 'en', worker.Documento);
    expect(await page.title()).toContain('Identification management');
    await expect.poll(() => row(page, worker.Documento).count()).toBe(1);
    await row(page, worker.Documento).locator('[data-action="reissue"]').click();
    await expect
      .poll(() => page.getByTestId('credential-dialog').innerText())
      .toContain(`Active credential: ${worker.Numero}`);
    await choose(page, 'credential-end-reason', /^PÉRDIDA$/);
    await choose(page, 'credential-issue-reason', /^DUPLICADO POR PÉRDIDA$/);
    await page.getByTestId('credential-save').click();
    await expect
      .poll(() => page.getByTestId('identification-notice').innerText())
      .toMatch(/^Credential FC-\d{6} issued; the previous one is inactive\.$/);
    await expect.poll(() => row(page, worker.Documento).innerText()).not.toContain(worker.Numero);
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(390);
    for (const finding of await seriousAxeFindings(page)) problems.push(`phone: ${finding}`);
    await page.screenshot({ path: '/tmp/identification-en-phone.png', fullPage: true });
    await page.context().close();
  }, 180_000);

  it('sends a requester who types the screen’s address to the no-permission page, calling nothing', async () => {
    const page = await open('SOLICITANTE', PHONE);
    const refused: string[] = [];
    page.on('response', (r) => {
      if (r.url().includes('/api/identificacion/')) refused.push(`${r.status()} ${r.url()}`);
    });
    await go(page, '/identificacion/gestion', 'es');
    await page.waitForURL(/\/sinpermiso$/);
    await expect
      .poll(() => page.getByRole('heading', { level: 1 }).innerText())
      .toBe(es.errors.noPermission.title);
    expect(refused).toEqual([]);
    await page.context().close();
  }, 180_000);

  it('logged no errors or warnings in the browser console and found no serious accessibility problem', () => {
    expect(problems).toEqual([]);
  });
});
