import { Secret, TOTP } from 'otpauth';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD } from '../../src/server/demo/security.js';
import { launchBrowser } from '../support/browser.js';
import { signInThroughConsole } from '../support/console.js';
import { type RunningServer, startRealServer } from '../support/server.js';

/** The code an authenticator app shows now for a secret. */
const appCode = (secret: string) =>
  new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' }).generate();

describe('a second factor by authenticator app in a real browser', () => {
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
    // The code of the enrolment's step works once: the app shows the next one thirty seconds on.
    await expect.poll(() => appCode(secret), { timeout: 35_000, interval: 500 }).not.toBe(used);
    await page.locator('#app-code').fill(appCode(secret));
    await page.getByRole('button', { name: 'Verificar' }).click();
    await page.locator('#profile').waitFor();
    await page.getByRole('button', { name: 'Entrar' }).click();
    await page.waitForURL(/\/dashboard/);
    await page.context().close();
    expect(problems).toEqual([]);
  }, 120_000);
});
