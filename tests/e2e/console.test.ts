import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../support/browser.js';
import { signInThroughConsole } from '../support/console.js';
import { type RunningServer, startRealServer } from '../support/server.js';

/**
 * The console as a user meets it after `npm start`: the real server on a fresh database with the
 * demo data, the built console, headless Chromium.
 */
describe('console in a real browser', () => {
  let server: RunningServer;
  let browser: Browser;
  let page: Page;
  const problems: string[] = [];

  beforeAll(async () => {
    server = await startRealServer();
    browser = await launchBrowser();
    page = await (await browser.newContext({ viewport: { width: 1400, height: 900 } })).newPage();
    page.setDefaultTimeout(15_000);
    page.on('console', (message) => {
      // The refusals this test provokes on purpose show up as failed requests.
      if (/Failed to load resource: the server responded with a status of 409/.test(message.text())) return;
      if (message.type() === 'error' || message.type() === 'warning')
        problems.push(`${message.type()}: ${message.text()}`);
    });
    page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const rows = (p: Page) => p.locator('table tbody tr');
  /** The API as the signed-in console calls it, with the session's token. */
  const api = async (path: string) => {
    const token = await page.evaluate(
      () => JSON.parse(localStorage.getItem('acreditacion.auth') ?? '{}').accessToken,
    );
    return fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${token}` } });
  };
  const field = (p: Page, name: string) => p.locator(`#root_${name}`);
  const errorUnder = (p: Page, name: string) => p.locator(`#root_${name}__error`);

  it('opens in Spanish with the side menu grouped by module', async () => {
    await signInThroughConsole(page, server.url, 'ADMIN');
    const menu = page.getByRole('navigation', { name: 'Administrador' });
    await expect.poll(() => menu.getByRole('button', { name: 'Sistema', exact: true }).count()).toBe(1);
    expect(await menu.getByRole('button', { name: 'Administración', exact: true }).count()).toBe(1);
    expect(await page.locator('html').getAttribute('lang')).toBe('es');
    await expect.poll(() => page.locator('[data-figure="Contratistas activas"]').textContent()).toBe('8');
    await menu.getByRole('button', { name: 'Sistema', exact: true }).click();
    await menu.getByRole('link', { name: 'Países' }).click();
    await page.waitForURL(/\/country/);
    await expect.poll(() => rows(page).count()).toBe(15);
    expect(await page.getByText('PERÚ', { exact: true }).count()).toBe(1);
  });

  it('creates a country, upper-casing as the user types', async () => {
    await page.getByRole('link', { name: 'Crear' }).click();
    await page.waitForURL(/\/country\/create/);
    await field(page, 'IdPais').fill('gt');
    await field(page, 'Pais').fill('Guatemala');
    expect(await field(page, 'Pais').inputValue()).toBe('GUATEMALA');
    await page.getByRole('button', { name: 'Guardar' }).click();
    await page.waitForURL((url) => url.pathname === '/country');
    await expect.poll(() => page.getByText('GUATEMALA', { exact: true }).count()).toBe(1);
  });

  it('shows validation errors under their fields, from the form and from the server', async () => {
    await page.goto(`${server.url}/country/create`, { waitUntil: 'networkidle' });
    await field(page, 'IdPais').fill('P1');
    await page.getByRole('button', { name: 'Guardar' }).click();
    await expect.poll(() => errorUnder(page, 'IdPais').textContent()).toContain('Valor incorrecto');
    await expect.poll(() => errorUnder(page, 'Pais').textContent()).toContain('Obligatorio');

    // The form accepts these; the server refuses the duplicate code and says so under the field.
    await field(page, 'IdPais').fill('PE');
    await field(page, 'Pais').fill('Otro Perú');
    await page.getByRole('button', { name: 'Guardar' }).click();
    await expect.poll(() => errorUnder(page, 'IdPais').textContent()).toContain('Ya existe');
    expect(page.url()).toMatch(/\/country\/create$/);
  });

  it('edits the country it created', async () => {
    await page.goto(`${server.url}/country`, { waitUntil: 'networkidle' });
    await page.getByText('GUATEMALA', { exact: true }).click();
    await page.waitForURL(/\/country\/GT$/);
    expect(await field(page, 'IdPais').isDisabled()).toBe(true);
    await field(page, 'Nacionalidad').fill('guatemalteca');
    await field(page, 'CodigoTelefonico').fill('502');
    await page.getByRole('button', { name: 'Guardar' }).click();
    await page.waitForURL((url) => url.pathname === '/country');
    await expect.poll(() => page.getByText('GUATEMALTECA', { exact: true }).count()).toBe(1);
    const saved = await (await api('/api/rest/country/GT')).json();
    expect(saved).toMatchObject({
      Nacionalidad: 'GUATEMALTECA',
      CodigoTelefonico: '502',
      IdUsuarioModificacion: 'ADMIN',
    });
  });

  it('filters the list by free text', async () => {
    await page.getByPlaceholder('Buscar').fill('guate');
    await expect.poll(() => rows(page).count()).toBe(1);
    expect(await rows(page).first().textContent()).toContain('GUATEMALA');
  });

  it('deletes the country after confirmation', async () => {
    await rows(page).first().getByRole('checkbox').check();
    await page.getByRole('button', { name: 'Eliminar' }).click();
    await page.getByRole('button', { name: 'Confirmar' }).click();
    await expect.poll(() => page.getByText('GUATEMALA', { exact: true }).count()).toBe(0);
    expect((await api('/api/rest/country/GT')).status).toBe(404);
  });

  it('switches to English from the header, and with ?lang=en', async () => {
    await page.getByRole('button', { name: 'Español' }).click();
    await page.getByRole('menuitem', { name: 'English' }).click();
    await expect
      .poll(() =>
        page
          .getByRole('navigation', { name: 'Administrator' })
          .getByRole('button', { name: 'System' })
          .count(),
      )
      .toBe(1);
    await expect.poll(() => page.getByPlaceholder('Search').count()).toBe(1);
    expect(await page.locator('html').getAttribute('lang')).toBe('en');

    const fresh = await page.context().newPage();
    await fresh.goto(`${server.url}/country/create?lang=en`, { waitUntil: 'networkidle' });
    await fresh.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => errorUnder(fresh, 'Pais').textContent()).toContain('Required');
    expect(await fresh.locator('html').getAttribute('lang')).toBe('en');
    await fresh.close();
  });

  it('serves a screen that exists only as a schema file and its labels (currencies)', async () => {
    await page.goto(`${server.url}/currency`, { waitUntil: 'networkidle' });
    await expect.poll(() => rows(page).count()).toBe(8);
    expect(await page.getByRole('columnheader', { name: 'Symbol' }).count()).toBe(1);
    await page.getByText('SOL', { exact: true }).click();
    await page.waitForURL(/\/currency\/PEN$/);
    await field(page, 'Decimales').fill('9');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => errorUnder(page, 'Decimales').textContent()).toContain('Must be at most 4');
  });

  it('moves nothing for a person whose system asks for reduced motion, and ripples for the others', async () => {
    // A pressed button's ripple, and the menu group's collapse: drawn only without the setting.
    const motion = async (reducedMotion: 'reduce' | 'no-preference') => {
      const storageState = await page.context().storageState();
      const context = await browser.newContext({
        viewport: { width: 1400, height: 900 },
        reducedMotion,
        storageState,
      });
      const other = await context.newPage();
      await other.goto(`${server.url}/country?lang=es`);
      const group = other.getByRole('navigation', { name: 'Administrador' }).getByRole('button', {
        name: 'Administración',
        exact: true,
      });
      await group.click();
      await expect.poll(() => group.getAttribute('aria-expanded')).toBe('true');
      // The ripple's layer is mounted by the first press, unless ripples are off.
      const ripple = group.locator('.MuiTouchRipple-root');
      if (reducedMotion === 'no-preference') await ripple.waitFor({ state: 'attached' });
      const ripples = await ripple.count();
      const collapse = other.locator('.MuiCollapse-root').first();
      const transition = await collapse.evaluate((el) => getComputedStyle(el).transitionDuration);
      await context.close();
      return { ripples, transition };
    };
    expect(await motion('reduce')).toEqual({ ripples: 0, transition: '0s' });
    const moving = await motion('no-preference');
    expect(moving.ripples).toBeGreaterThan(0);
    expect(moving.transition).not.toBe('0s');
  });

  it('logged no errors or warnings in the browser console', () => {
    expect(problems).toEqual([]);
  });
});
