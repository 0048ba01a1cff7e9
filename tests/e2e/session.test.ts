import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD } from '../../src/server/demo/security.js';
import { launchBrowser } from '../support/browser.js';
import { signInThroughConsole, watchedPage } from '../support/console.js';
import { mailTo, startMailServer } from '../support/mail.js';
import { adminCalls } from '../support/processes.js';
import { type RunningServer, startRealServer } from '../support/server.js';

describe('sign-in, session and shell in a real browser', () => {
  let server: RunningServer;
  let smtp: Awaited<ReturnType<typeof startMailServer>>;
  let browser: Browser;
  const problems: string[] = [];

  /** The administrator's calls for arranging. */
  const adminApi = adminCalls(() => server.url);

  // The refusals this test provokes on purpose (a wrong password, a refused new one) show as failed requests.
  const newPage = () =>
    watchedPage(browser, problems, {
      context: { viewport: { width: 1400, height: 900 } },
      ignore: /Failed to load resource: the server responded with a status of (400|401|403|404)/,
      timeout: 15_000,
    });

  beforeAll(async () => {
    smtp = await startMailServer();
    server = await startRealServer({
      SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
      MAIL_FROM: 'acreditacion@minandes.com.pe',
    });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await smtp?.close();
  });

  it('signs in with the code a double authentication sends by e-mail', async () => {
    const page = await newPage();
    await page.goto(`${server.url}/`, { waitUntil: 'networkidle' });
    await page.waitForURL(/\/auth\/login/);
    await page.locator('#username').fill('supervisor');
    expect(await page.locator('#username').inputValue()).toBe('SUPERVISOR');
    await page.locator('#password').fill(DEMO_PASSWORD);
    await page.getByRole('button', { name: 'Ingresar' }).click();
    await page.locator('#code').waitFor();
    const mail = await mailTo(smtp.mails, 'supervisor@minandes.com.pe');
    const code = /código de verificación es (\d{4})/.exec(mail)?.[1];
    expect(code).toMatch(/^\d{4}$/);
    const send = page.getByRole('button', { name: 'Verificar' });
    await page.locator('#code').fill('12');
    expect(await send.isDisabled()).toBe(true);
    await page.locator('#code').fill(`99${code}`);
    expect(await page.locator('#code').inputValue()).toBe(code);
    await send.click();
    await page.locator('#profile').waitFor();
    await page.getByRole('button', { name: 'Entrar' }).click();
    await page.waitForURL(/\/dashboard/);
    await expect
      .poll(() => page.getByTestId('client-division').textContent())
      .toContain('UNIDAD MINERA SAN GABRIEL');
    expect(await page.getByText('Aprobaciones').count()).toBe(1);
    await page.context().close();
  });

  it('refuses a wrong password with the spec’s message, upper-cased', async () => {
    const page = await newPage();
    await page.goto(`${server.url}/auth/login`, { waitUntil: 'networkidle' });
    await page.locator('#username').fill('AUTORIZADOR');
    await page.locator('#password').fill('Equivocada#1');
    await page.getByRole('button', { name: 'Ingresar' }).click();
    const alert = page.getByRole('alert');
    await expect.poll(() => alert.textContent()).toBe('Usuario o contraseña incorrectos.');
    expect(await alert.evaluate((el) => getComputedStyle(el).textTransform)).toBe('uppercase');
    await page.context().close();
  });

  it('makes a new user change the temporary password received by e-mail', async () => {
    const created = await adminApi('POST', '/api/rest/user', {
      IdUsuario: 'INGRESANTE',
      Nombre: 'Lucía',
      Apellido: 'Paredes',
      Correo: 'lucia.paredes@minandes.com.pe',
    });
    expect(created.IdUsuario).toBe('INGRESANTE');
    const profiles = await adminApi(
      'GET',
      `/api/rest/profile?filter=${encodeURIComponent('{"q":"AUTORIZADOR"}')}`,
    );
    const divisions = await adminApi('GET', '/api/rest/division');
    await adminApi('POST', '/api/rest/user-profile', {
      IdUsuario: 'INGRESANTE',
      IdPerfil: profiles[0].id,
      IdDivision: divisions[0].id,
    });
    const mail = await mailTo(smtp.mails, 'lucia.paredes@minandes.com.pe', /Clave temporal/);
    const temporary = /Clave temporal: (\S+)/.exec(mail)?.[1] as string;

    const page = await newPage();
    await page.goto(`${server.url}/auth/login`, { waitUntil: 'networkidle' });
    await page.locator('#username').fill('INGRESANTE');
    await page.locator('#password').fill(temporary);
    await page.getByRole('button', { name: 'Ingresar' }).click();
    await page.locator('#new-password').waitFor();
    expect(await page.getByText('Debe cambiar su primera clave.').count()).toBe(1);
    const save = page.getByRole('button', { name: 'Guardar contraseña' });
    await page.locator('#new-password').fill('sinmayuscula1#');
    expect(await page.getByText('La clave debe contener una letra mayúscula.').count()).toBe(1);
    expect(await save.isDisabled()).toBe(true);
    // The server refuses a password holding the user name, and the step says so, not only that the data are invalid.
    await page.locator('#new-password').fill('Ingresante#2026');
    await page.locator('#confirm-password').fill('Ingresante#2026');
    await save.click();
    const refusal = page.locator('.MuiAlert-colorError');
    await expect.poll(() => refusal.textContent()).toBe('La clave no debe contener el nombre de usuario.');
    expect(await refusal.evaluate((el) => getComputedStyle(el).textTransform)).toBe('none');
    await page.locator('#new-password').fill('Ilo#Puerto2026');
    await page.locator('#confirm-password').fill('Ilo#Puerto2026');
    await save.click();
    await expect.poll(() => page.getByText('La clave se cambió correctamente.').count()).toBe(1);
    await signInThroughConsole(page, server.url, 'INGRESANTE', { password: 'Ilo#Puerto2026' });
    await page.context().close();

    // Recovering it, view 3 says why the server refuses a new password too.
    const recovery = await newPage();
    await recovery.goto(`${server.url}/auth/login`, { waitUntil: 'networkidle' });
    await recovery.getByRole('button', { name: '¿Olvidó su contraseña?' }).click();
    await recovery.locator('#forgot-username').fill('INGRESANTE');
    await recovery.locator('#forgot-email').fill('lucia.paredes@minandes.com.pe');
    const mailsBefore = smtp.mails.length;
    await recovery.getByRole('button', { name: 'Enviar código' }).click();
    await recovery.locator('#forgot-code').waitFor();
    await expect.poll(() => smtp.mails.length).toBeGreaterThan(mailsBefore);
    const code = /recuperar la clave es (\d{6})/.exec(
      await mailTo(smtp.mails, 'lucia.paredes@minandes.com.pe'),
    )?.[1];
    await recovery.locator('#forgot-code').fill(code as string);
    await recovery.getByRole('button', { name: 'Siguiente' }).click();
    await recovery.locator('#new-password').fill('Ingresante#2027');
    await recovery.locator('#confirm-password').fill('Ingresante#2027');
    await recovery.getByRole('button', { name: 'Guardar contraseña', exact: true }).click();
    await expect
      .poll(() => recovery.locator('.MuiAlert-colorError').textContent())
      .toBe('La clave no debe contener el nombre de usuario.');
    await recovery.context().close();
  });

  it('switches division from the user menu and reloads into it', async () => {
    const page = await newPage();
    await signInThroughConsole(page, server.url, 'SOLICITANTE');
    await expect
      .poll(() => page.getByTestId('client-division').textContent())
      .toContain('UNIDAD MINERA SAN GABRIEL');
    await page.getByRole('button', { name: 'Perfil' }).click();
    await page.locator('[data-division="PROYECTO CORDILLERA NORTE"]').click();
    await expect
      .poll(() => page.getByTestId('client-division').textContent(), { timeout: 15_000 })
      .toContain('PROYECTO CORDILLERA NORTE');
    // The contractor still sees only its own company's contracts, now those of this division.
    await page.goto(`${server.url}/contract`, { waitUntil: 'networkidle' });
    await expect.poll(() => page.locator('table tbody tr').count()).toBe(1);
    expect(await page.getByText('CT-2026-006').count()).toBe(1);
    await page.context().close();
  });

  it('locks the screen after the setting’s idle seconds and unlocks with the password', async () => {
    // A lock every few seconds is no setting: a minute at least.
    const tooShort = await adminApi('POST', '/api/rest/login-setting', {
      Descripcion: 'BLOQUEO INMEDIATO',
      SegundosInactividad: 5,
      CaducaClave: 'N',
    });
    expect(tooShort.errors?.SegundosInactividad?.message).toBe('Debe ser como mínimo 60');
    const setting = await adminApi('POST', '/api/rest/login-setting', {
      Descripcion: 'BLOQUEO RÁPIDO',
      SegundosInactividad: 60,
      CaducaClave: 'N',
    });
    const user = await adminApi('GET', '/api/rest/user/AUTORIZADOR');
    await adminApi('PUT', '/api/rest/user/AUTORIZADOR', { ...user, IdConfiguracionLogeo: setting.id });

    const page = await newPage();
    // The page's clock is the test's: a minute without activity passes at once.
    await page.clock.install();
    await signInThroughConsole(page, server.url, 'AUTORIZADOR');
    // The shell is up (its header shows), so its idle watch has started: only then does the
    // minute pass (under load the shell can mount after the sign-in's page change).
    await page.getByTestId('client-division').waitFor();
    await page.getByTestId('splash').waitFor({ state: 'detached' });
    expect(await page.getByTestId('lock-screen').count()).toBe(0);
    await page.clock.runFor(61_000);
    await page.getByTestId('lock-screen').waitFor({ timeout: 15_000 });
    await page.locator('#lock-password').fill('Equivocada#1');
    await page.getByRole('button', { name: 'Desbloquear' }).click();
    await expect
      .poll(() => page.getByTestId('lock-screen').getByRole('alert').textContent())
      .toContain('Usuario o contraseña incorrectos.');
    await page.locator('#lock-password').fill(DEMO_PASSWORD);
    await page.getByRole('button', { name: 'Desbloquear' }).click();
    await expect.poll(() => page.getByTestId('lock-screen').count()).toBe(0);
    // The session works again: a list loads.
    await page.goto(`${server.url}/person`, { waitUntil: 'networkidle' });
    await expect.poll(() => page.locator('table tbody tr').count()).toBeGreaterThan(0);
    await page.context().close();
    await adminApi('PUT', '/api/rest/user/AUTORIZADOR', { ...user });
  });

  it('signs out from the user menu: the session is gone and the dashboard needs a sign-in again', async () => {
    const page = await newPage();
    await signInThroughConsole(page, server.url, 'ADMIN');
    const token = await page.evaluate(
      () => JSON.parse(localStorage.getItem('acreditacion.auth') ?? '{}').accessToken,
    );
    await page.getByRole('button', { name: 'Perfil' }).click();
    await page.getByRole('menuitem', { name: 'Cerrar sesión' }).click();
    await page.waitForURL(/\/auth\/login/);
    expect(await page.evaluate(() => localStorage.getItem('acreditacion.auth'))).toBeNull();
    const res = await fetch(`${server.url}/api/rest/country`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(res.status).toBe(401);
    await page.goto(`${server.url}/dashboard`, { waitUntil: 'networkidle' });
    await page.waitForURL(/\/auth\/login/);
    await page.context().close();
  });

  it('shows the Spanish 404 page for an unknown address, and the error pages', async () => {
    const page = await newPage();
    await signInThroughConsole(page, server.url, 'ADMIN');
    await page.goto(`${server.url}/no-existe`, { waitUntil: 'networkidle' });
    await expect.poll(() => page.getByRole('heading', { name: 'Página no encontrada' }).count()).toBe(1);
    expect(await page.title()).toBe('Página no encontrada · Acreditación');
    await page.goto(`${server.url}/error`, { waitUntil: 'networkidle' });
    await page.waitForURL(/\/error\/error-v1$/);
    expect(await page.getByRole('heading', { name: 'Página no encontrada' }).count()).toBe(1);
    await page.goto(`${server.url}/error/error-v3`, { waitUntil: 'networkidle' });
    expect(await page.getByRole('heading', { name: 'Algo salió mal' }).count()).toBe(1);
    await page.context().close();
  });

  it('logged no errors or warnings in the browser console', () => {
    expect(problems).toEqual([]);
  });
});
