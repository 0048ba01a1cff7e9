import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD } from '../../src/server/demo/security.js';
import { launchBrowser, PHONE } from '../support/browser.js';
import { watchedPage } from '../support/console.js';
import { api, sessionOf } from '../support/processes.js';
import { type RunningServer, startRealServer } from '../support/server.js';

/**
 * The sign-in challenge as a person meets it: the page solves it while they type (the widget says
 * so), the answer rides with the sign-in, a failed try gets a new answer, and the server's refusal
 * of a forged one is what a script gets.
 */
describe('the sign-in challenge in a real browser', () => {
  let server: RunningServer;
  let browser: Browser;
  const problems: string[] = [];

  beforeAll(async () => {
    server = await startRealServer({ SIGN_IN_CHALLENGE: 'on' });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  // The wrong passwords this test types answer 401.
  const newPage = (options: object, language: 'es' | 'en') =>
    watchedPage(browser, problems, {
      context: { ...options, locale: language === 'es' ? 'es-PE' : 'en-GB' },
      ignore: /Failed to load resource: the server responded with a status of 401/,
      warnings: false,
      timeout: 30_000,
    });

  it('solves the challenge while the person types, and signs in with it (desktop, Spanish)', async () => {
    const page = await newPage({ viewport: { width: 1280, height: 800 } }, 'es');
    await page.goto(`${server.url}/auth/login`);
    // The widget is a labelled checkbox a screen reader announces; it ticks itself once solved.
    const box = page.getByRole('checkbox', { name: 'Verificado' });
    await box.waitFor();
    expect(await box.isChecked()).toBe(true);
    await page.locator('#username').fill('ADMIN');
    await page.locator('#password').fill(DEMO_PASSWORD);
    const answer = page.waitForRequest((request) => request.url().endsWith('/api/usuario/authenticate'));
    await page.getByRole('button', { name: 'Ingresar' }).click();
    const sent = (await answer).postDataJSON() as { tokenClient: string };
    const payload = JSON.parse(Buffer.from(sent.tokenClient, 'base64').toString()) as {
      challenge: { parameters: { algorithm: string } };
      solution: { counter: number };
    };
    expect(payload.challenge.parameters.algorithm).toBe('PBKDF2/SHA-256');
    expect(payload.solution.counter).toBeGreaterThan(0);
    await page.getByRole('heading', { name: 'Perfil y división' }).waitFor();
    // The same answer, replayed as a script would: spent.
    const replay = await fetch(`${server.url}/api/usuario/authenticate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'ADMIN', password: DEMO_PASSWORD, tokenClient: sent.tokenClient }),
    });
    expect(replay.status).toBe(403);
    expect(((await replay.json()) as { params: { codigo: string } }).params.codigo).toBe('07');
    await page.context().close();
  });

  it('gives a failed try a new answer, so the next one goes through (phone, English)', async () => {
    const page = await newPage(PHONE, 'en');
    await page.goto(`${server.url}/auth/login?lang=en`);
    await page.getByRole('checkbox', { name: 'Verified' }).waitFor();
    await page.locator('#username').fill('AUTORIZADOR');
    await page.locator('#password').fill('not the password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText('Incorrect username or password.', { exact: false }).waitFor();
    await page.locator('#password').fill(DEMO_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Profile and division' }).waitFor();
    await page.context().close();
  });

  it('unlocks the locked screen with a new answer, after a wrong password too (desktop, Spanish)', async () => {
    const page = await newPage({ viewport: { width: 1280, height: 800 } }, 'es');
    // A setting that locks after a minute idle, for HOTELERO's sessions (the sign-in's own
    // answer is spent: the lock screen solves a new one for each try).
    const admin = await sessionOf(server.url, 'ADMIN');
    const setting = await api(server.url, 'POST', '/api/rest/login-setting', admin, {
      Descripcion: 'BLOQUEO RÁPIDO',
      SegundosInactividad: 60,
      CaducaClave: 'N',
    });
    const user = await api(server.url, 'GET', '/api/rest/user/HOTELERO', admin);
    const { id: _id, ...record } = user;
    await api(server.url, 'PUT', '/api/rest/user/HOTELERO', admin, {
      ...record,
      IdConfiguracionLogeo: setting.IdConfiguracionLogeo,
    });
    // The page's clock is the test's: a minute without activity passes at once.
    await page.clock.install();
    // Signed in as a person does, waiting on what shows, not on the network going quiet: with the
    // page's clock installed and the challenge on, that wait once passed 30 s under load.
    await page.goto(`${server.url}/auth/login`);
    await page.getByRole('checkbox', { name: 'Verificado' }).waitFor();
    await page.locator('#username').fill('HOTELERO');
    await page.locator('#password').fill(DEMO_PASSWORD);
    await page.getByRole('button', { name: 'Ingresar' }).click();
    await page.getByRole('button', { name: 'Entrar' }).click();
    await page.waitForURL(/\/dashboard/);
    await page.getByTestId('client-division').waitFor();
    await page.getByTestId('splash').waitFor({ state: 'detached' });
    await page.clock.runFor(61_000);
    const lock = page.getByTestId('lock-screen');
    await lock.waitFor();
    await lock.getByRole('checkbox', { name: 'Verificado' }).waitFor();
    await page.locator('#lock-password').fill('Equivocada#1');
    await lock.getByRole('button', { name: 'Desbloquear' }).click();
    await expect
      .poll(() => lock.getByRole('alert').textContent())
      .toContain('Usuario o contraseña incorrectos.');
    // The failures of this address and name (the other tests' too) may ask for more work: the
    // page then solves a harder challenge and calls once more, as the sign-in page does.
    const answers: Array<{ status: number; codigo?: string }> = [];
    page.on('response', async (response) => {
      if (!response.url().endsWith('/api/usuario/unlock')) return;
      const body = (await response.json().catch(() => ({}))) as { params?: { codigo?: string } };
      answers.push({ status: response.status(), codigo: body.params?.codigo });
    });
    const unlocked = page.waitForResponse(
      (response) => response.url().endsWith('/api/usuario/unlock') && response.status() === 200,
    );
    await page.locator('#lock-password').fill(DEMO_PASSWORD);
    await lock.getByRole('button', { name: 'Desbloquear' }).click();
    await unlocked;
    await expect.poll(() => lock.count()).toBe(0);
    const asked = answers.filter((a) => a.status !== 200);
    expect(asked.every((a) => a.status === 403 && a.codigo === '07')).toBe(true);
    expect(asked.length).toBeLessThanOrEqual(1);
    await page.context().close();
    const more = /Failed to load resource: the server responded with a status of 403/;
    expect(problems.filter((p) => !more.test(p))).toEqual([]);
    expect(problems.length).toBe(asked.length);
  });
});
