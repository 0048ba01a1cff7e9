import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD } from '../../src/server/demo/security.js';
import { launchBrowser } from '../support/browser.js';
import { watchedPage } from '../support/console.js';
import { sessionOf } from '../support/processes.js';
import { type RunningServer, startRealServer } from '../support/server.js';
import { type SmsCentre, smsTo, startSmsCentre } from '../support/sms.js';

/** AUTORIZADOR's phone in the demo data. */
const PHONE = '963852741';

describe('a verification code by SMS in a real browser', () => {
  let server: RunningServer;
  let centre: SmsCentre;
  let browser: Browser;
  const problems: string[] = [];

  // The refusal this test provokes on purpose shows as a failed request.
  const newPage = () =>
    watchedPage(browser, problems, {
      context: { viewport: { width: 1400, height: 900 } },
      ignore: /Failed to load resource: the server responded with a status of 403/,
      timeout: 15_000,
    });

  async function submitPassword(page: Page) {
    await page.goto(`${server.url}/auth/login`, { waitUntil: 'networkidle' });
    await page.locator('#username').fill('AUTORIZADOR');
    await page.locator('#password').fill(DEMO_PASSWORD);
    await page.getByRole('button', { name: 'Ingresar' }).click();
  }

  beforeAll(async () => {
    centre = await startSmsCentre();
    server = await startRealServer({ SMPP_URL: centre.url, SMPP_SOURCE: 'MINANDES' });
    browser = await launchBrowser();
    // AUTORIZADOR gets a login setting that sends its code by phone (allowed: an SMS centre is set).
    const token = await sessionOf(server.url, 'ADMIN');
    const setting = await fetch(`${server.url}/api/rest/login-setting`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ Descripcion: 'CÓDIGO POR SMS', DobleAutenticacion: 'S', NotificarPor: 'T' }),
    });
    expect(setting.status).toBe(201);
    const settingId = ((await setting.json()) as { id: number }).id;
    const user = await (
      await fetch(`${server.url}/api/rest/user/AUTORIZADOR`, {
        headers: { authorization: `Bearer ${token}` },
      })
    ).json();
    const fields = { ...(user as Record<string, unknown>) };
    delete fields.id;
    const saved = await fetch(`${server.url}/api/rest/user/AUTORIZADOR`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ ...fields, IdConfiguracionLogeo: settingId, Telefono: PHONE }),
    });
    expect(saved.status, await saved.text()).toBe(200);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await centre?.close();
  });

  it('signs in with the code the SMS centre delivered to the phone', async () => {
    const page = await newPage();
    await submitPassword(page);
    await page.locator('#code').waitFor();
    const sms = await smsTo(centre, PHONE);
    expect(sms.source).toBe('MINANDES');
    const code = /código de verificación es (\d{4})/.exec(sms.text)?.[1];
    expect(code).toMatch(/^\d{4}$/);
    await page.locator('#code').fill(code as string);
    await page.getByRole('button', { name: 'Verificar' }).click();
    await page.locator('#profile').waitFor();
    await page.getByRole('button', { name: 'Entrar' }).click();
    await page.waitForURL(/\/dashboard/);
    await expect
      .poll(() => page.getByTestId('client-division').textContent())
      .toContain('UNIDAD MINERA SAN GABRIEL');
    await page.context().close();
  });

  it('says so when the SMS centre refuses the code, and leaves the user at the password step', async () => {
    centre.mode = 'refuse';
    const page = await newPage();
    await submitPassword(page);
    const alert = page.getByRole('alert');
    await expect
      .poll(() => alert.textContent())
      .toBe(
        'No se pudo enviar el código por SMS: intente de nuevo en unos minutos o comuníquese con el administrador.',
      );
    expect(await page.locator('#code').count()).toBe(0);
    expect(await page.locator('#password').isVisible()).toBe(true);
    centre.mode = 'accept';
    await page.context().close();
  });

  it('shows no error in the browser', () => {
    expect(problems).toEqual([]);
  });
});
