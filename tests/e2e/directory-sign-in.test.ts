import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD } from '../../src/server/demo/security.js';
import { launchBrowser } from '../support/browser.js';
import { watchedPage } from '../support/console.js';
import { startProvider, type TestProvider } from '../support/oidc.js';
import { api, sessionOf } from '../support/processes.js';
import { type RunningServer, startRealServer } from '../support/server.js';

describe('sign-in with a corporate account in a real browser', () => {
  let server: RunningServer;
  let provider: TestProvider;
  let browser: Browser;
  let adminToken: string | undefined;
  let division = '';
  const problems: string[] = [];

  async function adminApi(method: string, path: string, body?: object) {
    adminToken ??= await sessionOf(server.url, 'ADMIN');
    return api(server.url, method, path, adminToken, body);
  }

  // The refusal this test provokes on purpose (a directory user the console does not know).
  const newPage = () =>
    watchedPage(browser, problems, {
      context: { viewport: { width: 1400, height: 900 } },
      ignore: /Failed to load resource: the server responded with a status of 403/,
      timeout: 15_000,
    });

  /** The user at the provider's login form in the popup, as a person would fill it. */
  async function signInAtProvider(popup: Page, login: string) {
    await popup.locator('input[name="login"]').fill(login);
    await popup.locator('input[name="password"]').fill('cualquiera');
    await popup.getByRole('button', { name: 'Sign-in' }).click();
  }

  beforeAll(async () => {
    // The challenge on, as by default: the corporate-account call carries its answer too.
    server = await startRealServer({ LOG_LEVEL: 'info', SIGN_IN_CHALLENGE: 'on' });
    provider = await startProvider([`${server.url}/api/UsuarioAD/callback`]);
    provider.accounts.set('ana', { email: 'ana.quispe@minandes.com.pe', email_verified: true });
    provider.accounts.set('externo', { email: 'alguien@otra-empresa.com', email_verified: true });
    browser = await launchBrowser();

    const client = (await adminApi('GET', '/api/rest/client'))[0];
    const { id: _id, IdCliente, ...record } = client;
    await adminApi('PUT', `/api/rest/client/${IdCliente}`, {
      ...record,
      InicioSesionDirectorio: 'S',
      DirectorioEmisor: provider.issuer,
      DirectorioIdAplicacion: provider.clientId,
      DirectorioSecreto: provider.clientSecret,
      DirectorioReclamo: 'email',
    });
    await adminApi('POST', '/api/rest/user', {
      IdUsuario: 'ANAQUISPE',
      Nombre: 'Ana',
      Apellido: 'Quispe',
      Correo: 'ana.quispe@minandes.com.pe',
      ValidarDirectorio: 'S',
    });
    const profiles = await adminApi(
      'GET',
      `/api/rest/profile?filter=${encodeURIComponent('{"q":"AUTORIZADOR"}')}`,
    );
    const divisions = await adminApi('GET', '/api/rest/division');
    division = divisions[0].Division;
    await adminApi('POST', '/api/rest/user-profile', {
      IdUsuario: 'ANAQUISPE',
      IdPerfil: profiles[0].id,
      IdDivision: divisions[0].id,
    });
  });
  afterAll(async () => {
    await browser?.close();
    await provider?.close();
    await server?.stop();
  });

  it('signs in through the corporate-account popup, then the profile step', async () => {
    const page = await newPage();
    await page.goto(`${server.url}/auth/login`);
    const button = page.getByRole('button', { name: 'Iniciar sesión con cuenta corporativa' });
    const [popup] = await Promise.all([page.waitForEvent('popup'), button.click()]);
    await expect.poll(() => page.getByRole('status').textContent()).toContain('cuenta corporativa');
    // The popup closes itself as soon as its last page loads, which can be before the click resolves.
    const closed = popup.waitForEvent('close');
    const call = page.waitForRequest((request) =>
      request.url().endsWith('/api/UsuarioAD/authenticateAzureAD'),
    );
    await signInAtProvider(popup, 'ana');
    await closed;
    // The call carries the challenge's answer, solved by the page.
    const { tokenClient } = (await call).postDataJSON() as { tokenClient: string };
    expect(JSON.parse(Buffer.from(tokenClient, 'base64').toString()).solution.counter).toBeGreaterThan(0);
    await page.locator('#profile').waitFor();
    await expect.poll(() => page.getByText('Bienvenido, ANA QUISPE').count()).toBe(1);
    await page.getByRole('button', { name: 'Entrar' }).click();
    await page.waitForURL(/\/dashboard/);
    await expect.poll(() => page.getByTestId('client-division').textContent()).toContain(division);
    await page.context().close();
  });

  it('leaves a directory user the console does not know signed out, with the reason, in English too', async () => {
    const page = await newPage();
    await page.goto(`${server.url}/auth/login?lang=en`);
    const button = page.getByRole('button', { name: 'Sign in with corporate account' });
    const [popup] = await Promise.all([page.waitForEvent('popup'), button.click()]);
    // The popup closes itself as soon as its last page loads, which can be before the click resolves.
    const closed = popup.waitForEvent('close');
    await signInAtProvider(popup, 'externo');
    await closed;
    const alert = page.getByRole('alert');
    await expect
      .poll(() => alert.textContent())
      .toBe('The corporate account matches no user of the console: contact the administrator.');
    expect(await page.getByRole('status').count()).toBe(0);
    expect(await button.isEnabled()).toBe(true);
    expect(await page.evaluate(() => JSON.stringify(window.localStorage))).not.toMatch(/accessToken/);
    expect(page.url()).toContain('/auth/login');
    await page.context().close();
  });

  it('says so when the popup is closed before the sign-in ends, and the password sign-in refuses the user', async () => {
    const page = await newPage();
    await page.goto(`${server.url}/auth/login`);
    const button = page.getByRole('button', { name: 'Iniciar sesión con cuenta corporativa' });
    const [popup] = await Promise.all([page.waitForEvent('popup'), button.click()]);
    await popup.locator('input[name="login"]').waitFor();
    await popup.close();
    const alert = page.getByRole('alert');
    await expect
      .poll(() => alert.textContent())
      .toBe('Se cerró la ventana de la cuenta corporativa antes de terminar el inicio de sesión.');
    expect(await page.getByRole('status').count()).toBe(0);

    await page.locator('#username').fill('ANAQUISPE');
    await page.locator('#password').fill(DEMO_PASSWORD);
    await page.getByRole('button', { name: 'Ingresar' }).click();
    await expect.poll(() => alert.textContent()).toContain('solo con su cuenta corporativa');
    await page.context().close();
  });

  it('logs neither the client secret nor a code, state or ticket, and the page had no errors', () => {
    const log = server.output();
    expect(log).not.toContain(provider.clientSecret);
    expect(log).not.toMatch(/UsuarioAD\/callback\?/);
    expect(log).not.toMatch(/code=|state=|Bearer/);
    expect(problems).toEqual([]);
  });
});
