import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import en from '../../locales/en.json' with { type: 'json' };
import es from '../../locales/es.json' with { type: 'json' };
import { addDays, siteDate } from '../../src/shared/dates.js';
import { launchBrowser, PHONE } from '../support/browser.js';
import { signedInPage } from '../support/console.js';
import { png } from '../support/png.js';
import { asUser, button, choose, fillPersonal, type Lang, typeDate } from '../support/request-screens.js';
import { type RunningServer, startRealServer } from '../support/server.js';

// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON
type Json = any;
const SOUTH = 'UNIDAD MINERA SAN GABRIEL';
const today = siteDate('PE');
const dmy = (iso: string) => iso.split('-').reverse().join('/');
// What the form library logs when a step it checks is invalid, as these tests make one.
const INVALID_FORM = /^Form validation failed/;
const LIST = '/movilizacion/solicitante/persona?estado=I';

/**
 * The requester's request form and wizard in a real browser (spec sections 2 and 4, "Form and
 * wizard"), in Spanish on a desktop and in English on a phone: a save goes back to the list the
 * request was opened from (its filters kept) where both grids read again (the request's row shows
 * what was saved, the company's total counts it); Next on an invalid step stays and shows an error
 * toast for 3 seconds; the last step's button reads Finalise on a request that may be changed
 * (it saves and goes back to the list) and Return on one only read (it goes home).
 */
describe('the request wizard in a real browser', () => {
  let server: RunningServer;
  let browser: Browser;
  let desk: Page;
  let phone: Page;
  const problems: string[] = [];
  const { api, go } = asUser(() => server.url);

  beforeAll(async () => {
    server = await startRealServer();
    browser = await launchBrowser();
    desk = await signedInPage(browser, server.url, 'SOLICITANTE', problems, {
      division: SOUTH,
      context: { viewport: { width: 1400, height: 900 } },
      ignore: INVALID_FORM,
    });
    phone = await signedInPage(browser, server.url, 'SOLICITANTE', problems, {
      division: SOUTH,
      context: PHONE,
      ignore: INVALID_FORM,
    });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  /** The request's row of the requests grid (a table row on a desktop, a card on a phone). */
  const requestRow = (page: Page, id: number) =>
    page
      .getByTestId('request-grid')
      .locator('tr, li')
      .filter({ has: page.locator(`[data-open-request="${id}"]`) });
  /** The requester's company's total of requests in the companies grid (its only row). */
  const companyTotal = async (page: Page) => {
    const row = page.getByTestId('company-grid').locator('tbody tr, li').first();
    await row.waitFor();
    return Number(await row.locator('td, dd').last().textContent());
  };
  /** The list of the requester's incomplete worker requests, as the dashboard's row opens it. */
  const openList = async (page: Page, lang: Lang) => {
    await go(page, LIST, lang);
    await page.getByTestId('company-grid').locator('tbody tr, li').first().waitFor();
  };
  const atList = (page: Page) =>
    page.waitForURL(
      (url) => url.pathname === '/movilizacion/solicitante/persona' && url.searchParams.get('estado') === 'I',
    );
  /** Opens the request from the list, as the requester does. */
  const openFromList = async (page: Page, id: number) => {
    await page.locator(`[data-open-request="${id}"]`).click();
    await page.locator(`[data-testid="request-form"][data-status="I"]`).waitFor();
  };

  /**
   * Clicks Next on a step that is not valid: the step stays, and an error toast says why for 3
   * seconds (measured in the page, from when it shows to when it goes).
   */
  const refusedStep = async (page: Page, next: RegExp, text: string, step: string) => {
    await page.evaluate(() => {
      const seen: { shown?: number; gone?: number } = {};
      (window as unknown as { toastSeen: typeof seen }).toastSeen = seen;
      const watch = new MutationObserver(() => {
        const there = document.querySelector('.RaNotification-error') !== null;
        if (there && seen.shown === undefined) seen.shown = performance.now();
        if (!there && seen.shown !== undefined && seen.gone === undefined) {
          seen.gone = performance.now();
          watch.disconnect();
        }
      });
      watch.observe(document.body, { childList: true, subtree: true });
    });
    // The toast waits while a pointer rests on it: on a phone, whose toast covers the foot of the
    // screen where Next was tapped, Next is pressed from the keyboard, the pointer left aside.
    if (await page.evaluate(() => matchMedia('(pointer: coarse)').matches)) {
      await page.mouse.move(1, 1);
      await button(page, next).focus();
      await page.keyboard.press('Enter');
    } else {
      await button(page, next).click();
      await page.mouse.move(1, 1);
    }
    await page.locator('.RaNotification-error', { hasText: text }).waitFor();
    expect(await page.locator(`[data-step="${step}"][aria-selected="true"]`).count()).toBe(1);
    const lasted = async () =>
      page.evaluate(() => {
        const seen = (window as unknown as { toastSeen: { shown?: number; gone?: number } }).toastSeen;
        return seen.gone === undefined || seen.shown === undefined ? undefined : seen.gone - seen.shown;
      });
    await expect.poll(lasted, { timeout: 8_000 }).toBeDefined();
    const ms = (await lasted()) as number;
    expect(ms).toBeGreaterThanOrEqual(2_900);
    // The wizard's 3 s, not the 3.5 s of the console's other toasts.
    expect(ms).toBeLessThan(3_450);
  };

  /** Opens a pending (sent) worker request of the requester's from its list: one it can only read. */
  const openSent = async (page: Page, lang: Lang) => {
    await go(page, '/movilizacion/solicitante/persona?estado=P', lang);
    await page.getByTestId('request-grid').locator('[data-open-request]').first().click();
    await page.locator('[data-testid="request-form"][data-status="P"]').waitFor();
  };

  it('returns to the list after a save, both grids read again; Finalise saves, Return goes home (Spanish)', async () => {
    const page = desk;
    await openList(page, 'es');
    const before = await companyTotal(page);
    await page.getByTestId('new-request').click();
    await page.locator('#general_IdContrato').waitFor();

    // Next on an empty first step: it stays, with the error for 3 seconds.
    await refusedStep(page, /^Siguiente/, es.accreditation.form.stepInvalid, 'general');

    await choose(page, 'general_IdContrato', 'CT-2026');
    await choose(page, 'general_IdPerfilAcreditacion', 'TRABAJADOR');
    await typeDate(page, 'general_FechaInicio-label', today);
    await typeDate(page, 'general_FechaFin-label', addDays(today, 30));
    await button(page, /^Siguiente/).click();
    await fillPersonal(page, {
      photo: png(150, 160),
      document: '71865402',
      surname: 'Condori Vargas',
      name: 'Elena',
      sex: /Femenino/,
      birth: '1991-06-14',
      phone: '987400500',
    });
    await button(page, /Guardar y continuar/).click();
    await page.waitForURL(/\/movilizacion\/solicitante\/persona\/\d+$/);
    const id = Number(new URL(page.url()).pathname.split('/').pop());
    await page.locator('[data-testid="request-form"][data-status="I"]').waitFor();

    // A new end date, saved: back on the list it came from, filters kept, both grids read again.
    await page.locator('[data-step="general"]').click();
    await typeDate(page, 'general_FechaFin-label', addDays(today, 60));
    await page.getByTestId('save-request').click();
    await atList(page);
    await page.getByText(es.accreditation.form.saved, { exact: true }).first().waitFor();
    await expect.poll(() => requestRow(page, id).textContent()).toContain(dmy(addDays(today, 60)));
    expect(await requestRow(page, id).textContent()).toMatch(/elena/i);
    await expect.poll(() => companyTotal(page)).toBe(before + 1);
    await page.screenshot({ path: 'test-results/request-wizard-saved-es.png' });

    // The last step of a request that may be changed: Finalise saves it and goes back to the list.
    await openFromList(page, id);
    await page.locator('[data-step="general"]').click();
    await typeDate(page, 'general_FechaFin-label', addDays(today, 75));
    await page.locator('[data-step="finalise"]').click();
    const finish = page.getByTestId('finish-wizard');
    expect(await finish.textContent()).toBe(es.accreditation.form.finalise);
    expect(await page.getByTestId('save-request').count()).toBe(0);
    await finish.scrollIntoViewIfNeeded();
    await page.screenshot({ path: 'test-results/request-wizard-finalise-es.png' });
    await finish.click();
    await atList(page);
    await expect.poll(() => requestRow(page, id).textContent()).toContain(dmy(addDays(today, 75)));
    const saved = (await api(
      page,
      'GET',
      `/api/acreditacionsolicitud/obtenersolicitud?IdSolicitud=${id}`,
    )) as Json;
    expect(String(saved.FechaFin).slice(0, 10)).toBe(addDays(today, 75));

    // A sent request is only read: its last step's button reads Return and goes home, saving nothing.
    await openSent(page, 'es');
    await page.locator('[data-step="finalise"]').click();
    expect(await page.getByTestId('finish-wizard').textContent()).toBe(es.accreditation.form.return);
    expect(await page.getByTestId('send-request').count()).toBe(0);
    await page.getByTestId('finish-wizard').click();
    await page.waitForURL((url) => url.pathname === '/dashboard');
    expect(problems).toEqual([]);
  }, 180_000);

  it('does the same on a phone (English)', async () => {
    const page = phone;
    const list = async (resource: string) =>
      (await api(page, 'GET', `/api/rest/${resource}?range=${encodeURIComponent('[0,999]')}`)) as Json[];
    const contract = (await list('contract')).find((c) => c.NumeroContrato === 'CT-2026-001');
    const profile = (await list('accreditation-profile')).find(
      (p) => p.Descripcion === 'TRABAJADOR CONTRATISTA',
    );
    const dni = (await list('document-type')).find((d) => d.Alias === 'DNI' && d.IdPais === 'PE');
    await openList(page, 'en');
    const before = await companyTotal(page);
    // A worker's request filed by the wizard's first steps, elsewhere (another tab of the requester's).
    const draft = (await api(page, 'POST', '/api/acreditacionsolicitud/crearsolicitante', {
      IdEntidad: 'T',
      IdContrato: contract.IdContrato,
      IdPerfilAcreditacion: profile.IdPerfilAcreditacion,
      FechaInicio: today,
      FechaFin: addDays(today, 30),
      IdTipoDocumento: dni.IdTipoDocumento,
      Documento: '72955310',
      Apellido: 'Huamán Ríos',
      Nombre: 'Teodoro',
      Sexo: 'M',
      FechaNacimiento: '1989-11-02',
      IdPaisNacimiento: 'PE',
      IdPaisResidencia: 'PE',
      TelefonoMovil: '987600700',
    })) as Json;
    expect(draft.IdSolicitud, JSON.stringify(draft)).toBeGreaterThan(0);
    const id = draft.IdSolicitud as number;
    await openList(page, 'en');
    await openFromList(page, id);

    // An end date past the contract's: Next stays on the step, with the error for 3 seconds.
    await typeDate(page, 'general_FechaFin-label', '2031-01-01');
    await refusedStep(page, /^Next/, en.accreditation.form.stepInvalid, 'general');
    await typeDate(page, 'general_FechaFin-label', addDays(today, 45));
    await page.getByTestId('save-request').click();
    await atList(page);
    await expect.poll(() => requestRow(page, id).textContent()).toContain(dmy(addDays(today, 45)));
    expect(await requestRow(page, id).textContent()).toMatch(/teodoro/i);
    // The company's total counts the request filed since the list was first read.
    await expect.poll(() => companyTotal(page)).toBe(before + 1);
    await requestRow(page, id).scrollIntoViewIfNeeded();
    await page.screenshot({ path: 'test-results/request-wizard-saved-en-phone.png' });

    await openFromList(page, id);
    await typeDate(page, 'general_FechaFin-label', addDays(today, 50));
    await page.locator('[data-step="finalise"]').click();
    const finish = page.getByTestId('finish-wizard');
    expect(await finish.textContent()).toBe(en.accreditation.form.finalise);
    await finish.scrollIntoViewIfNeeded();
    await page.screenshot({ path: 'test-results/request-wizard-finalise-en-phone.png' });
    await finish.click();
    await atList(page);
    await expect.poll(() => requestRow(page, id).textContent()).toContain(dmy(addDays(today, 50)));

    await openSent(page, 'en');
    await page.locator('[data-step="finalise"]').click();
    expect(await page.getByTestId('finish-wizard').textContent()).toBe(en.accreditation.form.return);
    await page.getByTestId('finish-wizard').click();
    await page.waitForURL((url) => url.pathname === '/dashboard');
    expect(problems).toEqual([]);
  }, 180_000);
});
