/**
 * The users screen in a real browser, as the administrator (Spanish on a desktop, English on a
 * phone): a new user is registered from the create form (through auth/register: the temporary
 * password goes by e-mail), the administrator sets the user's password from the user's screen (the
 * dialog checks it by the user's login setting and shows the server's refusal), and the user signs
 * in with it, asked to change it first.
 */
import type { Browser, BrowserContextOptions } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import en from '../../locales/en.json';
import es from '../../locales/es.json';
import { launchBrowser, PHONE } from '../support/browser.js';
import { signedInPage, signInThroughConsole, watchedPage } from '../support/console.js';
import { mailTo, startMailServer } from '../support/mail.js';
import { asUser, type Lang } from '../support/request-screens.js';
import { type RunningServer, startRealServer } from '../support/server.js';

// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON
type Json = any;
const TEXTS = { es, en } as const;
// The refusals the test provokes on purpose show in the console as failed requests.
const REFUSALS = /Failed to load resource: the server responded with a status of 400/;

describe('a user’s password set by the administrator, and a user registered, in a real browser', () => {
  let server: RunningServer;
  let smtp: Awaited<ReturnType<typeof startMailServer>>;
  let browser: Browser;
  const { api, go } = asUser(() => server.url);

  beforeAll(async () => {
    smtp = await startMailServer();
    server = await startRealServer({ SMTP_URL: `smtp://127.0.0.1:${smtp.port}` });
    browser = await launchBrowser();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await smtp?.close();
  });

  const cases: Array<{ lang: Lang; device: string; context: BrowserContextOptions; user: string }> = [
    { lang: 'es', device: 'desktop', context: { viewport: { width: 1400, height: 900 } }, user: 'NORMA' },
    { lang: 'en', device: 'phone', context: PHONE, user: 'WALTER' },
  ];

  it.each(cases)(
    'in $lang on a $device: registers $user, sets the password, and $user signs in with it',
    async ({ lang, context, user, device }) => {
      const texts = TEXTS[lang];
      const problems: string[] = [];
      const admin = await signedInPage(browser, server.url, 'ADMIN', problems, { context, ignore: REFUSALS });
      const mail = `${user.toLowerCase()}.quispe@minandes.com.pe`;

      // Registered from the users screen's create form: through auth/register.
      await go(admin, '/user/create', lang);
      const field = (name: string) => admin.locator(`#root_${name}`);
      await field('IdUsuario').fill(user.toLowerCase());
      await field('Nombre').fill('Quispe');
      await field('Apellido').fill('Huamán');
      const saveUser = admin.getByRole('button', { name: lang === 'es' ? 'Guardar' : 'Save', exact: true });
      // auth/register asks for the e-mail the temporary password goes to (the generic create did not).
      await saveUser.click();
      await expect
        .poll(() => admin.locator('#root_Correo__error').textContent())
        .toContain(texts.validation.required);
      await field('Correo').fill(mail);
      await saveUser.click();
      await admin.waitForURL((url) => url.pathname === '/user');
      const registered = (await api(admin, 'GET', `/api/rest/user/${user}`)) as Json;
      expect(registered).toMatchObject({ IdUsuario: user, PrimeraClaveCambiada: 'N', Activo: 'S' });
      expect(await mailTo(smtp.mails, mail, /Clave temporal/)).toContain(`Usuario: ${user}`);
      // A profile and division to sign in with, as the profile-assignment screen gives them.
      const profiles = (await api(
        admin,
        'GET',
        `/api/rest/profile?filter=${encodeURIComponent('{"q":"AUTORIZADOR"}')}`,
      )) as Json[];
      const divisions = (await api(admin, 'GET', '/api/rest/division')) as Json[];
      const assigned = (await api(admin, 'POST', '/api/rest/user-profile', {
        IdUsuario: user,
        IdPerfil: profiles[0].id,
        IdDivision: divisions[0].id,
      })) as Json;
      expect(assigned.IdUsuario).toBe(user);

      // The administrator sets the password from the user's screen.
      await go(admin, `/user/${user}/show`, lang);
      await admin.getByRole('button', { name: texts.security.setPassword.button }).click();
      const dialog = admin.getByRole('dialog');
      await dialog.locator('#new-password').waitFor();
      const save = dialog.getByRole('button', { name: texts.security.setPassword.save });
      // Checked by the user's setting as the server checks it (the demo's: advanced).
      await dialog.locator('#new-password').fill('Sinsimbolo2026');
      await expect.poll(() => dialog.getByText(texts.password.needsSymbol).count()).toBe(1);
      expect(await save.isDisabled()).toBe(true);
      // What only the server knows (the user name inside it) comes back as its answer.
      const withName = `${user[0]}${user.slice(1).toLowerCase()}#2026x`;
      await dialog.locator('#new-password').fill(withName);
      await dialog.locator('#confirm-password').fill(withName);
      await save.click();
      await expect.poll(() => dialog.getByRole('alert').textContent()).toBe(texts.password.containsUser);
      await admin.screenshot({ path: `test-results/user-password-refused-${lang}-${device}.png` });
      const password = 'Cordillera#Blanca7';
      await dialog.locator('#new-password').fill(password);
      await dialog.locator('#confirm-password').fill(password);
      await save.click();
      const done = texts.security.setPassword.done.replace('%{user}', user);
      await expect.poll(() => dialog.getByRole('status').textContent()).toBe(done);
      await admin.screenshot({ path: `test-results/user-password-${lang}-${device}.png` });
      await dialog.getByRole('button', { name: lang === 'es' ? 'Cerrar' : 'Close' }).click();

      // The user signs in with it and must change it first.
      const page = await watchedPage(browser, problems, { context, label: user });
      await page.goto(`${server.url}/auth/login?lang=${lang}`, { waitUntil: 'networkidle' });
      await page.locator('#username').fill(user);
      await page.locator('#password').fill(password);
      await page.getByRole('button', { name: lang === 'es' ? 'Ingresar' : 'Sign in' }).click();
      await page.locator('#new-password').waitFor();
      expect(await page.getByText(texts.password.firstChange).count()).toBe(1);
      await page.locator('#new-password').fill('Vilcanota#Rio2026');
      await page.locator('#confirm-password').fill('Vilcanota#Rio2026');
      await page.getByRole('button', { name: texts.login.savePassword }).click();
      await expect.poll(() => page.getByText(texts.password.changed).count()).toBe(1);
      await signInThroughConsole(page, server.url, user, { password: 'Vilcanota#Rio2026' });
      expect(problems).toEqual([]);
      await page.context().close();
      await admin.context().close();
    },
    180_000,
  );
});
