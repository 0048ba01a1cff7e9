import { Secret, TOTP } from 'otpauth';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD } from '../../src/server/demo/security.js';
import { launchBrowser, PHONE } from '../support/browser.js';
import { signInThroughConsole, watchedPage } from '../support/console.js';
import { api, sessionOf } from '../support/processes.js';
import { type RunningServer, startRealServer } from '../support/server.js';

/** The code an authenticator app shows for a secret: now, or `ahead` ms on. */
const appCode = (secret: string, ahead = 0) =>
  new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' }).generate({
    timestamp: Date.now() + ahead,
  });

describe('a second factor by authenticator app in a real browser', () => {
  let server: RunningServer;
  let browser: Browser;
  const problems: string[] = [];

  const newPage = (device: object = { viewport: { width: 1400, height: 900 } }) =>
    watchedPage(browser, problems, { context: device, timeout: 15_000 });

  beforeAll(async () => {
    server = await startRealServer();
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('enrols from the security page, signs out, and signs in with the app’s code', async () => {
    const page = await newPage();
    await signInThroughConsole(page, server.url, 'AUTORIZADOR');
    await page.goto(`${server.url}/seguridad/usuarioLogin`);
    await page.getByRole('tab', { name: 'Segundo factor' }).click();
    await page.getByRole('button', { name: 'Activar la aplicación autenticadora' }).click();
    await page.getByRole('img', { name: 'Código QR de la aplicación autenticadora' }).waitFor();
    const secret = ((await page.getByTestId('totp-secret').textContent()) ?? '').replace(/\s/g, '');
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    const used = appCode(secret);
    await page.locator('#totp-code').fill(used);
    await page.getByRole('button', { name: 'Confirmar' }).click();
    const codes = page.getByTestId('recovery-codes').getByRole('listitem');
    await expect.poll(() => codes.count()).toBe(10);
    await page.getByRole('button', { name: 'Continuar' }).click();
    await expect.poll(() => page.getByText('La aplicación autenticadora está activada').count()).toBe(1);

    await page.getByRole('button', { name: 'Perfil' }).click();
    await page.getByRole('menuitem', { name: 'Cerrar sesión' }).click();
    await page.waitForURL(/\/auth\/login/);

    await page.locator('#username').fill('AUTORIZADOR');
    await page.locator('#password').fill(DEMO_PASSWORD);
    await page.getByRole('button', { name: 'Ingresar' }).click();
    await page.locator('#app-code').waitFor();
    // The code of the enrolment's step works once: the app's next one (the step after, which the
    // server takes within the one step it allows a phone's clock) signs in.
    const next = appCode(secret, 30_000);
    expect(next).not.toBe(used);
    await page.locator('#app-code').fill(next);
    await page.getByRole('button', { name: 'Verificar' }).click();
    await page.locator('#profile').waitFor();
    await page.getByRole('button', { name: 'Entrar' }).click();
    await page.waitForURL(/\/dashboard/);
    await page.context().close();
    expect(problems).toEqual([]);
  }, 120_000);

  it('takes a user whose setting requires the app to its enrolment before any session (English, phone)', async () => {
    const admin = await sessionOf(server.url, 'ADMIN');
    const setting = await api(server.url, 'POST', '/api/rest/login-setting', admin, {
      Descripcion: 'APLICACIÓN AUTENTICADORA OBLIGATORIA',
      AutenticadorApp: 'S',
      NumeroIntentos: 5,
    });
    const user = await api(server.url, 'GET', '/api/rest/user/COMEDOR', admin);
    const { id: _id, ...record } = user;
    await api(server.url, 'PUT', '/api/rest/user/COMEDOR', admin, {
      ...record,
      IdConfiguracionLogeo: setting.IdConfiguracionLogeo,
    });

    const page = await newPage(PHONE);
    await page.goto(`${server.url}/auth/login?lang=en`, { waitUntil: 'networkidle' });
    await page.locator('#username').fill('COMEDOR');
    await page.locator('#password').fill(DEMO_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page
      .getByText('Your login setting requires an authenticator app. Turn it on to continue.')
      .waitFor();
    await page.getByRole('img', { name: 'Authenticator app QR code' }).waitFor();
    // The step fits the phone: nothing wider than its screen.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      PHONE.viewport.width,
    );
    // Every text of the step in words: none of its translation keys shows (the texts load with the page).
    expect(await page.locator('body').innerText()).not.toMatch(/\b(totp|login)\.[a-zA-Z]+/);
    expect(await page.evaluate(() => JSON.stringify(window.localStorage))).not.toMatch(/accessToken/);
    const secret = ((await page.getByTestId('totp-secret').textContent()) ?? '').replace(/\s/g, '');
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);

    // A code that is not the app's is refused with its reason, and the step stays.
    const code = appCode(secret);
    await page.locator('#totp-code').fill(code === '000000' ? '111111' : '000000');
    await page.getByRole('button', { name: 'Confirm' }).click();
    await page
      .getByText('The code does not match the key: check your phone’s time and type the current code.')
      .waitFor();

    await page.locator('#totp-code').fill(appCode(secret));
    await page.getByRole('button', { name: 'Confirm' }).click();
    const codes = page.getByTestId('recovery-codes').getByRole('listitem');
    await expect.poll(() => codes.count()).toBe(10);
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.locator('#profile').waitFor();
    await page.getByRole('button', { name: 'Enter' }).click();
    await page.waitForURL(/\/dashboard/);
    await page.context().close();
    // The one refusal the test asked for (the wrong code), and nothing else.
    expect(problems).toEqual([
      'error: Failed to load resource: the server responded with a status of 400 (Bad Request)',
    ]);
  }, 120_000);
});
