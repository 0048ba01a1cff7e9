/**
 * The security page's Data tab (/seguridad/usuarioLogin) in a real browser, as every demo user who
 * reaches it: the fields the user's settings let them change are editable and saved, the others
 * read-only; the administrator changes more. On a desktop in Spanish and on a phone in English.
 */
import type { Browser, BrowserContextOptions, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import en from '../../locales/en.json';
import es from '../../locales/es.json';
import { launchBrowser, PHONE } from '../support/browser.js';
import { signInBySession } from '../support/console.js';
import { mailTo, startMailServer } from '../support/mail.js';
import { asUser, type Lang } from '../support/request-screens.js';
import { type RunningServer, startRealServer } from '../support/server.js';

const MAIL: Record<string, string> = {
  ADMIN: 'admin@minandes.com.pe',
  SOLICITANTE: 'solicitante@sermipac.com.pe',
  AUTORIZADOR: 'autorizador@minandes.com.pe',
  SUPERVISOR: 'supervisor@minandes.com.pe',
  IDENTIFICACION: 'identificacion@minandes.com.pe',
  HOTELERO: 'hoteleria@minandes.com.pe',
  COMEDOR: 'comedores@minandes.com.pe',
  ASISTENCIA: 'asistencia@minandes.com.pe',
};
const TEXTS = { es, en } as const;

describe('the security page’s Data tab', () => {
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

  /** The Data tab of the user's security page, signed in through the console. */
  async function openData(
    user: string,
    lang: Lang = 'es',
    options: { context?: BrowserContextOptions; ignore?: RegExp } = {},
  ) {
    const page = await (
      await browser.newContext({ viewport: { width: 1280, height: 900 }, ...options.context })
    ).newPage();
    page.setDefaultTimeout(20_000);
    /** Errors and warnings of the browser's console and uncaught errors: a test ends expecting none. */
    const problems: string[] = [];
    page.on('console', (m) => {
      if (options.ignore?.test(m.text())) return;
      if (m.type() === 'error' || m.type() === 'warning') problems.push(`${user} ${m.type()}: ${m.text()}`);
    });
    page.on('pageerror', (error) => problems.push(`${user} pageerror: ${error.message}`));
    const sent = () => smtp.mails.filter((m) => m.to === MAIL[user]).length;
    const before = sent();
    await signInBySession(page, server.url, user, {
      at: null,
      code: async () => {
        await expect.poll(sent, { timeout: 10_000 }).toBeGreaterThan(before);
        return /código de verificación es (\d{4})/.exec(await mailTo(smtp.mails, MAIL[user]))?.[1] ?? '';
      },
    });
    await go(page, '/seguridad/usuarioLogin', lang);
    const labels = TEXTS[lang].resources.user.fields;
    const text = (field: keyof typeof labels) => page.getByRole('textbox', { name: labels[field] });
    const select = (field: keyof typeof labels) => page.getByRole('combobox', { name: labels[field] });
    await expect.poll(() => text('IdUsuario').inputValue()).toBe(user);
    const save = page.getByRole('button', { name: lang === 'es' ? 'Guardar' : 'Save', exact: true });
    return { page, text, select, save, problems };
  }

  const readOnly = async (field: Locator) =>
    (await field.getAttribute('readonly')) !== null || (await field.getAttribute('aria-readonly')) === 'true';
  const stored = (page: Page) => api(page, 'PUT', '/api/SeguridadusuarioLogin/obtener', {});

  it('shows the administrator every field but the user name editable, and saves the document, telephone and a cleared setting', async () => {
    const { page, text, select, save, problems } = await openData('ADMIN');
    expect(await readOnly(text('IdUsuario'))).toBe(true);
    for (const field of [text('Nombre'), text('Documento'), text('Correo'), text('Telefono')])
      expect(await readOnly(field)).toBe(false);
    for (const field of [select('IdTipoDocumento'), select('IdConfiguracionLogeo'), select('Activo')])
      expect(await readOnly(field)).toBe(false);
    expect(await save.isDisabled()).toBe(true);

    await select('IdTipoDocumento').click();
    await page.getByRole('option', { name: /^DNI/ }).first().click();
    await text('Documento').fill('40712345');
    // The telephone takes digits only.
    await text('Telefono').fill('');
    await text('Telefono').pressSequentially('98a7-65 4321');
    expect(await text('Telefono').inputValue()).toBe('987654321');
    await text('Telefono').fill('912000111');
    // The login setting can be cleared: the client's default then applies.
    await select('IdConfiguracionLogeo').click();
    await page.getByRole('option', { name: es.security.noSetting }).click();
    await save.click();
    await page.getByText(es.security.saved).waitFor();
    const record = await stored(page);
    expect(record).toMatchObject({
      Documento: '40712345',
      Telefono: '912000111',
      IdConfiguracionLogeo: null,
    });
    expect(record.IdTipoDocumento).not.toBeNull();
    // Saved is what the page shows again.
    await page.reload({ waitUntil: 'networkidle' });
    await expect.poll(() => text('Telefono').inputValue()).toBe('912000111');
    await page.screenshot({ path: 'test-results/security-data-admin.png' });
    // The page's own rules are listed with the others, named in words.
    await go(page, '/field-rule');
    await expect.poll(() => page.getByText(es.security.ownRecordForm, { exact: true }).count()).toBe(3);
    expect(problems).toEqual([]);
  }, 90_000);

  it('lets a requester change only names, mail and telephone, and shows the server’s word on a bad mail', async () => {
    // The refusal of the bad mail is a 400 the browser reports.
    const { page, text, select, save, problems } = await openData('SOLICITANTE', 'es', {
      ignore: /status of 400/,
    });
    for (const field of [text('IdUsuario'), text('Documento')]) expect(await readOnly(field)).toBe(true);
    for (const field of [select('IdTipoDocumento'), select('IdConfiguracionLogeo'), select('Activo')])
      expect(await readOnly(field)).toBe(true);
    for (const field of [text('Nombre'), text('Apellido'), text('Correo'), text('Telefono')])
      expect(await readOnly(field)).toBe(false);
    // A read-only select does not open.
    await select('Activo').click();
    expect(await page.getByRole('listbox').count()).toBe(0);
    // The mail is required by the page's rules.
    expect(await text('Correo').getAttribute('required')).not.toBeNull();

    await text('Correo').fill('ricardo@');
    await save.click();
    const error = page.locator('#security-Correo-helper-text');
    await error.waitFor();
    expect(await error.textContent()).toBeTruthy();
    expect(await text('Correo').getAttribute('aria-invalid')).toBe('true');
    await text('Correo').fill('ricardo.huaman@sermipac.com.pe');
    await text('Nombre').fill('Ricardo Martín');
    await save.click();
    await page.getByText(es.security.saved).waitFor();
    await expect.poll(() => text('Nombre').inputValue()).toBe('RICARDO MARTÍN');
    expect(await stored(page)).toMatchObject({
      Nombre: 'RICARDO MARTÍN',
      Correo: 'ricardo.huaman@sermipac.com.pe',
      Activo: 'S',
    });
    expect(await page.locator('#security-Correo-helper-text').count()).toBe(0);
    await page.screenshot({ path: 'test-results/security-data-requester.png' });
    expect(problems).toEqual([]);
  }, 90_000);

  it('works on a phone in English', async () => {
    const { page, text, select, save, problems } = await openData('AUTORIZADOR', 'en', { context: PHONE });
    expect(await readOnly(select('Activo'))).toBe(true);
    await text('Telefono').fill('955444333');
    await save.click();
    await page.getByText(en.security.saved).waitFor();
    expect((await stored(page)).Telefono).toBe('955444333');
    // Nothing wider than the phone.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.screenshot({ path: 'test-results/security-data-phone-en.png', fullPage: true });
    expect(problems).toEqual([]);
  }, 90_000);

  for (const user of ['SUPERVISOR', 'IDENTIFICACION', 'HOTELERO', 'COMEDOR', 'ASISTENCIA'])
    it(`lets ${user} change their telephone and nothing of their access`, async () => {
      const { page, text, select, save, problems } = await openData(user);
      for (const field of [text('IdUsuario'), select('IdConfiguracionLogeo'), select('Activo')])
        expect(await readOnly(field)).toBe(true);
      const phone = `9${String(user.length).padStart(2, '0')}123456`;
      await text('Telefono').fill(phone);
      await save.click();
      await page.getByText(es.security.saved).waitFor();
      expect((await stored(page)).Telefono).toBe(phone);
      await page.context().close();
      expect(problems).toEqual([]);
    }, 90_000);
});
