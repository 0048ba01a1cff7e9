import { mkdirSync } from 'node:fs';
import ExcelJS from 'exceljs';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import en from '../../locales/en.json';
import es from '../../locales/es.json';
import { siteDate } from '../../src/shared/dates.js';
import { seriousAxeFindings } from '../support/axe.js';
import { launchBrowser, PHONE } from '../support/browser.js';
import { signInBySession } from '../support/console.js';
import { mobiliseWorker } from '../support/mobilisation.js';
import { asUser, type Lang } from '../support/request-screens.js';
import { type RunningServer, startRealServer } from '../support/server.js';
import { drawingProblems, screenshot } from '../support/shots.js';

// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON
type Json = any;
const SOUTH = 'UNIDAD MINERA SAN GABRIEL';
const ROOM = 'COMEDOR CENTRAL SAN GABRIEL';
const READER = 'LECTOR COMEDOR CENTRAL SAN GABRIEL';
/** A room of the division without a reader: no meals. */
const EMPTY_ROOM = 'COMEDOR EJECUTIVO SAN GABRIEL';
const SHOTS = '/tmp/dining-shots';
const DESKTOP: BrowserContextOptions = { viewport: { width: 1400, height: 900 } };
/** Text that shows a translation key instead of its text. */
const RAW_KEY = /\b(?:dining|identification|gate|resources|enums|app|ra)\.[a-zA-Z-]+\.[a-zA-Z]/;
const WORKER = { Documento: '72418536', Apellido: 'Condori Ticona', Nombre: 'Edwin' };
const NAME = 'CONDORI TICONA EDWIN';
const today = siteDate('PE');
/** Cents from money as the screens write it ("S/ 1,234.50"). */
const cents = (text: string) => Math.round(Number(text.replace(/[^\d.]/g, '')) * 100);

/**
 * Dining halls through their screens. A worker accredited through the mobilisation flow eats lunch
 * at the central dining room's reader and is refused a second one; the dining supervisor (Spanish,
 * desktop) follows the room live and sees the meal served and the refusal counted, is refused a
 * meal by hand for the worker who already ate, finds the meal in the consumption report whose
 * Excel totals are the screen's, and voids the meal with its reason; the requester (English) sees
 * its company's meals only; the hotel administrator is not let in. Both screens on a desktop and a
 * phone in both languages.
 */
describe('dining halls in a real browser', () => {
  let server: RunningServer;
  let browser: Browser;
  let admin: Page;
  let supervisor: Page;
  let key: string;
  let roomId: number;
  let lunchId: number;
  let meal: number;
  const problems: string[] = [];
  const refusals: string[] = [];
  const { api, go } = asUser(() => server.url);

  const open = async (user: string, options: BrowserContextOptions) => {
    const context = await browser.newContext(options);
    const page = await context.newPage();
    page.setDefaultTimeout(20_000);
    page.on('pageerror', (error) => problems.push(`${user} pageerror: ${error.message}`));
    page.on('console', (message) => {
      // The meal by hand the server refuses (409) is expected, once: the last test counts it.
      if (/Failed to load resource: the server responded with a status of 409/.test(message.text()))
        refusals.push(user);
      else if (message.type() === 'error' || message.type() === 'warning')
        problems.push(`${user} console ${message.type()}: ${message.text()}`);
    });
    await signInBySession(page, server.url, user, { division: SOUTH, at: null });
    return page;
  };
  const list = (page: Page, resource: string, filter: object = {}) =>
    api(
      page,
      'GET',
      `/api/rest/${resource}?range=${encodeURIComponent('[0,999]')}&filter=${encodeURIComponent(JSON.stringify(filter))}`,
    );
  /** A record of the generic API changed: the rest of it as it was. */
  const change = async (resource: string, record: Json, changes: object) => {
    const {
      id,
      IdCliente,
      IdDivision,
      FechaCreacion,
      IdUsuarioCreacion,
      FechaModificacion,
      IdUsuarioModificacion,
      ...rest
    } = record;
    const saved = await api(admin, 'PUT', `/api/rest/${resource}/${id}`, { ...rest, ...changes });
    expect(saved.id, JSON.stringify(saved)).toBe(id);
  };
  /** What the central room's reader answers for the worker's document. */
  const present = async () => {
    const res = await fetch(`${server.url}/api/comedor/decidir`, {
      method: 'POST',
      headers: {
        authorization: `Device ${key}`,
        'content-type': 'application/json',
        'accept-language': 'es',
      },
      body: JSON.stringify({ Documento: WORKER.Documento }),
    });
    expect(res.status).toBe(200);
    return ((await res.json()) as Json).result;
  };
  const sitting = (page: Page, service: number | string) => page.getByTestId(`dining-sitting-${service}`);
  const figure = async (page: Page, name: string) =>
    Number(await sitting(page, lunchId).locator(`[data-figure="${name}"]`).innerText());
  const alreadyServed = async (page: Page) => {
    const line = sitting(page, lunchId).locator('[data-reason="ALREADY_SERVED"] [data-count]');
    return (await line.count()) ? Number(await line.innerText()) : 0;
  };
  /** A row (a card on a phone) of a list that names the text. */
  const row = (page: Page, list: string, text: string) =>
    page.getByTestId(list).locator('tbody tr, li').filter({ hasText: text });
  const shoot = (page: Page, name: string) => screenshot(page, `${SHOTS}/${name}.png`, true);
  const fits = async (page: Page, where: string) => {
    problems.push(...(await drawingProblems(page, where, RAW_KEY)));
  };

  beforeAll(async () => {
    // The reader's answers, not their speed: the budget is tested in tests/api.
    server = await startRealServer({ GATE_DECISION_BUDGET_MS: '60000' });
    browser = await launchBrowser();
    mkdirSync(SHOTS, { recursive: true });
    admin = await open('ADMIN', DESKTOP);
    const requester = await open('SOLICITANTE', DESKTOP);
    const authoriser = await open('AUTORIZADOR', DESKTOP);
    await mobiliseWorker(server.url, { requester, authoriser, admin }, WORKER, today);
    await requester.context().close();
    await authoriser.context().close();

    const rooms = await api(admin, 'GET', '/api/comedor/comedores');
    const room = rooms.comedores.find((r: Json) => r.Descripcion === ROOM);
    roomId = room.IdComedor;
    lunchId = room.servicios.find((s: Json) => s.Descripcion === 'ALMUERZO').IdServicio;
    // The server's clock is the real one: lunch is made the room's first service, open round the
    // clock, for its groups too, so that the worker's lunch is lunch at any hour of the test.
    for (const service of await list(admin, 'dining-service', { IdComedor: roomId }))
      if (service.id === lunchId)
        await change('dining-service', service, { Orden: 1, HoraInicio: '00:00', HoraFin: '23:59' });
      else if (service.Orden === 1) await change('dining-service', service, { Orden: 2 });
    for (const hours of await list(admin, 'dining-group-schedule', { IdServicio: lunchId }))
      await change('dining-group-schedule', hours, { HoraInicio: '00:00', HoraFin: '23:59' });
    const reader = (await list(admin, 'equipment')).find((e: Json) => e.Descripcion === READER);
    key = (await api(admin, 'POST', `/api/acceso/equipo/${reader.id}/clave`)).key;
    expect(key?.length).toBeGreaterThan(20);
    supervisor = await open('COMEDOR', DESKTOP);
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('serves the worker lunch at the reader once, and the supervisor sees it served and the second refused (Spanish, desktop)', async () => {
    const before = await api(supervisor, 'GET', `/api/comedor/gestion?IdComedor=${roomId}`);
    const lunchBefore = before.servicios.find((s: Json) => s.IdServicio === lunchId);

    const first = await present();
    expect(first, JSON.stringify(first)).toMatchObject({ allow: true, reason: 'ALLOWED' });
    meal = first.IdConsumo;
    const second = await present();
    expect(second).toMatchObject({ allow: false, reason: 'ALREADY_SERVED' });
    expect(second.message).toBe('Ya consumió ALMUERZO (1 de 1)');

    await go(supervisor, '/comedor/gestion', 'es');
    await expect.poll(() => supervisor.title()).toContain(es.app.menu.items.diningManagement);
    await sitting(supervisor, lunchId).waitFor();
    expect(await sitting(supervisor, lunchId).getAttribute('data-open')).toBe('true');
    expect(await sitting(supervisor, lunchId).innerText()).toContain(es.dining.screens.management.openNow);
    await expect.poll(() => figure(supervisor, 'servidos')).toBe(lunchBefore.servidos + 1);
    expect(await alreadyServed(supervisor)).toBe((lunchBefore.rechazos.ALREADY_SERVED ?? 0) + 1);
    expect(await figure(supervisor, 'voided')).toBe(lunchBefore.anulados);
    // The last meals: the refusal on top with its reason, the meal served below it, neither voided.
    const rows = row(supervisor, 'dining-last-meals', WORKER.Documento);
    await expect.poll(() => rows.count()).toBe(2);
    const [refused, served] = [rows.nth(0), rows.nth(1)];
    expect(await refused.locator('[data-result]').getAttribute('data-result')).toBe('D');
    expect(await refused.innerText()).toContain('Ya consumió ALMUERZO');
    expect(await served.locator('[data-result]').getAttribute('data-result')).toBe('P');
    expect(await served.innerText()).toContain(NAME);
    expect(await served.innerText()).toContain(es.dining.screens.origin.E);
    expect(await served.locator(`[data-void="${meal}"]`).count()).toBe(1);
    expect(await refused.locator('[data-void]').count()).toBe(0);
    for (const finding of await seriousAxeFindings(supervisor)) problems.push(`management: ${finding}`);
    await fits(supervisor, 'management desktop es');

    // A meal by hand for the worker, who already ate: refused with the reader's reason, nothing kept.
    await supervisor.getByTestId('manual-open').click();
    const dialog = supervisor.getByTestId('manual-dialog');
    await dialog.waitFor();
    expect(await supervisor.locator('#manual-service').innerText()).toContain('ALMUERZO');
    await supervisor.locator('#manual-document').fill(WORKER.Documento);
    await supervisor.locator('#manual-observation').fill('El lector no leyó su DNI');
    await supervisor.getByTestId('manual-save').click();
    await expect
      .poll(() => supervisor.getByTestId('manual-refusal').innerText())
      .toBe('Ya consumió ALMUERZO (1 de 1)');
    await shoot(supervisor, 'management-manual-refused-desktop-es');
    await supervisor.getByRole('dialog').getByRole('button', { name: 'Cancelar', exact: true }).click();
    await dialog.waitFor({ state: 'detached' });
    const after = await api(supervisor, 'GET', `/api/comedor/gestion?IdComedor=${roomId}`);
    expect(after.ultimos.filter((m: Json) => m.Documento === WORKER.Documento)).toHaveLength(2);
    await shoot(supervisor, 'management-desktop-es');
  }, 120_000);

  it('reports the worker’s meal, and the Excel’s totals row is the screen’s totals', async () => {
    await go(supervisor, '/comedor/consumos', 'es');
    await expect.poll(() => supervisor.title()).toContain(es.app.menu.items.consumptionReport);
    const total = (name: string) => supervisor.locator(`[data-total="${name}"]`).innerText();
    await supervisor.locator('[data-total="consumos"]').waitFor();
    // The month so far, every room: the worker's meal among them, newest first.
    await expect.poll(() => row(supervisor, 'dining-report-rows', WORKER.Documento).count()).toBe(1);
    const line = await row(supervisor, 'dining-report-rows', WORKER.Documento).innerText();
    expect(line).toContain(NAME);
    expect(line).toContain('ALMUERZO');
    expect(line).toContain('S/ 18.90');
    expect(await supervisor.getByTestId('dining-report-chart').locator('svg').count()).toBeGreaterThan(0);
    const shown = {
      consumos: Number(await total('consumos')),
      importe: cents(await total('importe')),
      compania: cents(await total('compania')),
      trabajador: cents(await total('trabajador')),
    };
    expect(shown.consumos).toBeGreaterThan(0);
    expect(shown.importe).toBe(shown.compania + shown.trabajador);
    for (const finding of await seriousAxeFindings(supervisor)) problems.push(`report: ${finding}`);

    const [download] = await Promise.all([
      supervisor.waitForEvent('download'),
      supervisor.getByTestId('dining-report-excel').click(),
    ]);
    const book = new ExcelJS.Workbook();
    await book.xlsx.readFile((await download.path()) as string);
    const sheet = book.worksheets[0];
    const header = (sheet.getRow(1).values as Json[]).map(String);
    const last = sheet.getRow(sheet.rowCount).values as Json[];
    // An amount's header names the client's currency: "Importe total (PEN)".
    const at = (name: string) => {
      const label = es.dining.report[name as keyof typeof es.dining.report];
      return last[header.findIndex((h) => h === label || h === `${label} (PEN)`)];
    };
    expect(header).toContain(`${es.dining.report.ImporteTotal} (PEN)`);
    expect(String(at('Nombres'))).toBe(`${es.dining.report.total}: ${shown.consumos}`);
    expect(Math.round(Number(at('ImporteTotal')) * 100)).toBe(shown.importe);
    expect(Math.round(Number(at('ImporteCompania')) * 100)).toBe(shown.compania);
    expect(Math.round(Number(at('ImporteTrabajador')) * 100)).toBe(shown.trabajador);
    expect(sheet.rowCount - 2).toBe(shown.consumos);

    // The person's document narrows it to the worker's one meal.
    await supervisor.locator('#report-document').fill(WORKER.Documento);
    await expect.poll(() => total('consumos')).toBe('1');
    expect(await total('importe')).toBe('S/ 18.90');
    expect(await supervisor.getByTestId('dining-report-rows').locator('tbody tr').count()).toBe(1);
  }, 120_000);

  it('shows the requester its company’s meals only (English)', async () => {
    const requester = await open('SOLICITANTE', DESKTOP);
    await go(requester, '/comedor/consumos', 'en');
    await expect.poll(() => requester.title()).toContain(en.app.menu.items.consumptionReport);
    await requester.locator('[data-total="consumos"]').waitFor();
    // No company to choose: its own is the only one.
    expect(await requester.locator('#report-company').count()).toBe(0);
    const company = (await list(admin, 'company')).find((c: Json) => c.Alias === 'SERMIPAC');
    const theirs = await api(
      supervisor,
      'GET',
      `/api/comedor/reporte?desde=${today.slice(0, 8)}01&hasta=${today}&IdCompania=${company.id}&take=1`,
    );
    await expect
      .poll(async () => Number(await requester.locator('[data-total="consumos"]').innerText()))
      .toBe(theirs.totalCount);
    const rows = requester.getByTestId('dining-report-rows').locator('tbody tr');
    await expect.poll(() => rows.count()).toBe(Math.min(25, theirs.totalCount));
    for (const text of await rows.allInnerTexts()) expect(text).toContain(company.Compania);
    await fits(requester, 'report requester en');
    await requester.context().close();
  }, 120_000);

  it('voids the worker’s lunch with its reason, marked voided, and the reader serves it again', async () => {
    await go(supervisor, '/comedor/gestion', 'es');
    await sitting(supervisor, lunchId).waitFor();
    const served = await figure(supervisor, 'servidos');
    const voided = await figure(supervisor, 'voided');
    await supervisor.locator(`[data-void="${meal}"]`).click();
    const dialog = supervisor.getByTestId('void-dialog');
    await dialog.waitFor();
    expect(await supervisor.getByRole('dialog').innerText()).toContain(NAME);
    // Without a reason nothing happens but the field saying so.
    await supervisor.getByTestId('void-confirm').click();
    await expect.poll(() => supervisor.locator('#void-reason').getAttribute('aria-invalid')).toBe('true');
    await supervisor.locator('#void-reason').fill('Se registró por error: llevó lonchera');
    await supervisor.getByTestId('void-confirm').click();
    await dialog.waitFor({ state: 'detached' });
    const row = supervisor
      .getByTestId('dining-last-meals')
      .locator('tbody tr')
      .filter({ has: supervisor.locator(`[data-meal="${meal}"]`) });
    await expect.poll(() => row.locator('[data-voided="true"]').count()).toBe(1);
    expect(await row.innerText()).toContain('SE REGISTRÓ POR ERROR: LLEVÓ LONCHERA');
    expect(await row.locator('[data-void]').count()).toBe(0);
    expect(await figure(supervisor, 'servidos')).toBe(served - 1);
    expect(await figure(supervisor, 'voided')).toBe(voided + 1);
    // Its place given back, the worker is served lunch at the reader again.
    expect(await present()).toMatchObject({ allow: true, reason: 'ALLOWED' });
  }, 120_000);

  it('does not let the hotel administrator into the dining management', async () => {
    const hotelero = await open('HOTELERO', DESKTOP);
    const calls: string[] = [];
    hotelero.on('response', (r) => {
      if (r.url().includes('/api/comedor/')) calls.push(`${r.status()} ${r.url()}`);
    });
    await go(hotelero, '/comedor/gestion', 'es');
    await hotelero.waitForURL(/\/sinpermiso$/);
    await expect
      .poll(() => hotelero.getByRole('heading', { level: 1 }).innerText())
      .toBe(es.errors.noPermission.title);
    expect(calls).toEqual([]);
    await hotelero.context().close();
  }, 60_000);

  it('draws both screens whole on a desktop and a phone, in both languages', async () => {
    const choose = async (page: Page, id: string, option: string) => {
      await page.locator(`#${id}`).click();
      await page.getByRole('option', { name: option, exact: true }).click();
      await page.locator('[role="listbox"]').waitFor({ state: 'detached' });
    };
    for (const [device, options] of [
      ['desktop', DESKTOP],
      ['phone', PHONE],
    ] as const)
      for (const lang of ['es', 'en'] as Lang[]) {
        const page = device === 'desktop' && lang === 'es' ? supervisor : await open('COMEDOR', options);
        const where = `${device} ${lang}`;
        const texts = lang === 'es' ? es : en;
        await go(page, '/comedor/gestion', lang);
        await row(page, 'dining-last-meals', WORKER.Documento).first().waitFor();
        await fits(page, `management ${where}`);
        await shoot(page, `management-${device}-${lang}`);
        await page.getByTestId('manual-open').click();
        await page.getByTestId('manual-dialog').waitFor();
        await fits(page, `manual meal ${where}`);
        await shoot(page, `manual-${device}-${lang}`);
        await page
          .getByRole('dialog')
          .getByRole('button', { name: /^(Cancelar|Cancel)$/ })
          .click();
        await page.getByRole('dialog').waitFor({ state: 'detached' });
        // A room without a reader has had no meal today: its services, and the list says so.
        await choose(page, 'dining-room', EMPTY_ROOM);
        await page.getByText(texts.dining.screens.management.noMeals).waitFor();
        await fits(page, `management empty ${where}`);
        await shoot(page, `management-empty-${device}-${lang}`);

        await go(page, '/comedor/consumos', lang);
        await row(page, 'dining-report-rows', WORKER.Documento).first().waitFor();
        await fits(page, `report ${where}`);
        await shoot(page, `report-${device}-${lang}`);
        await choose(page, 'report-room', EMPTY_ROOM);
        await page.getByText(texts.dining.screens.report.noMeals).waitFor();
        expect(await page.locator('[data-total="consumos"]').innerText()).toBe('0');
        await fits(page, `report empty ${where}`);
        await shoot(page, `report-empty-${device}-${lang}`);
        if (page !== supervisor) await page.context().close();
      }
  }, 240_000);

  it('logged no errors or warnings in the browser console and found no serious accessibility problem', () => {
    expect(problems).toEqual([]);
    expect(refusals).toEqual(['COMEDOR']);
  });
});
