import ExcelJS from 'exceljs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import en from '../../locales/en.json';
import type { ResourceMeta } from '../../src/shared/schema/types.js';
import { launchBrowser } from '../support/browser.js';
import { signInBySession } from '../support/console.js';
import { kindSample } from '../support/screen-kinds.js';
import { type RunningServer, startRealServer } from '../support/server.js';

/** Text that shows a translation key instead of its text (resources.x.name, enums.y.z, ...). */
const RAW_KEY = /\b(?:resources|enums|app|ra|validation|rules|locations)\.[a-zA-Z-]+\.[a-zA-Z]/;

/**
 * The configuration screens as the administrator meets them: every list in both languages, the
 * field rules applied to a form as it loads, the export, a schedule's copy, saved filters that
 * follow the user, and a record's history.
 */
describe('configuration screens in a real browser', () => {
  let server: RunningServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const problems: string[] = [];
  const watch = (p: Page) => {
    p.on('console', (message) => {
      // Refusals a test provokes on purpose show up as failed requests.
      if (/Failed to load resource: the server responded with a status of (400|409)/.test(message.text()))
        return;
      if (message.type() === 'error' || message.type() === 'warning')
        problems.push(`${message.type()}: ${message.text()} (${p.url()})`);
    });
    p.on('pageerror', (error) => problems.push(`pageerror: ${error.message} (${p.url()})`));
  };

  beforeAll(async () => {
    server = await startRealServer();
    browser = await launchBrowser();
    context = await browser.newContext({ viewport: { width: 1400, height: 900 }, acceptDownloads: true });
    page = await context.newPage();
    page.setDefaultTimeout(15_000);
    watch(page);
    await signInBySession(page, server.url, 'ADMIN', { at: null });
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  /** The API as the signed-in console calls it, with the session's token. */
  const api = async (path: string, init: RequestInit = {}) => {
    const token = await page.evaluate(
      () => JSON.parse(localStorage.getItem('acreditacion.auth') ?? '{}').accessToken,
    );
    return fetch(`${server.url}${path}`, {
      ...init,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...init.headers },
    });
  };
  const rows = () => page.locator('table tbody tr');

  // In Spanish every list is opened by the role walk (roles.test.ts), which checks the same, and
  // tests/unit/locales.test.ts holds English to a text for every key Spanish has. Here, in English,
  // the few screens that between them draw every kind of field (screen-kinds.ts).
  it('opens the list of every kind of screen in English, labelled, with no console errors', async () => {
    await page.goto(`${server.url}/dashboard?lang=en`, { waitUntil: 'networkidle' });
    const meta = (await (await api('/api/meta')).json()) as { resources: ResourceMeta[] };
    const screens = meta.resources.filter((r) => !r.schema['x-hidden']);
    expect(screens.length).toBeGreaterThan(85);
    const sample = kindSample(screens);
    expect(sample.size).toBeGreaterThanOrEqual(5);
    for (const resource of screens.filter((s) => sample.has(s.name))) {
      await page.goto(`${server.url}/${resource.name}`, { waitUntil: 'domcontentloaded' });
      await page.locator('table tbody tr, .list-empty').first().waitFor();
      // Headers, toolbar and breadcrumb in words (records may hold keys as data: the menu's tags).
      const chrome = page.locator('thead, .RaTopToolbar-root, .list-empty, [data-testid="breadcrumb"]');
      const text = (await chrome.allInnerTexts()).join(' ');
      expect(text, resource.name).not.toMatch(RAW_KEY);
      // The headers are the English labels (a list the demo leaves empty, such as the access log
      // before anyone reads sensitive data, shows its empty state instead, checked above).
      if (!(await page.locator('table tbody tr').count())) continue;
      expect(await page.locator('thead').innerText(), resource.name).toContain(
        (en.resources as Record<string, { fields: Record<string, string> }>)[resource.name].fields[
          resource.schema['x-list'][0]
        ],
      );
    }
    expect(problems).toEqual([]);
  });

  it('applies the field rules on the form’s next load, and shows the server’s refusal under the field', async () => {
    await page.goto(`${server.url}/person?lang=es`, { waitUntil: 'networkidle' });
    const rule = async (Campo: string, Obligatorio: string, Modificable: string) =>
      (await (
        await api('/api/rest/field-rule', {
          method: 'POST',
          body: JSON.stringify({ IdDato: 'person', Campo, Obligatorio, Modificable, Activo: 'S' }),
        })
      ).json()) as { id: number };
    const required = await rule('Alergia', 'S', 'S');
    await rule('NumeroHijos', 'N', 'N');
    await rows().first().click();
    await page.waitForURL(/\/person\/\d+$/);
    const label = page.locator('label[for="root_Alergia"]');
    await expect.poll(() => label.textContent()).toMatch(/\*/);
    await expect.poll(() => page.locator('#root_NumeroHijos').isDisabled()).toBe(true);
    await page.locator('#root_Alergia').fill('');
    await page.getByRole('button', { name: 'Guardar' }).click();
    await expect.poll(() => page.locator('#root_Alergia__error').textContent()).toContain('Obligatorio');

    // The administrator switches the rule off: the same form, loaded again, no longer asks.
    const current = await (await api(`/api/rest/field-rule/${required.id}`)).json();
    const { id: _id, IdCliente: _c, IdReglaCampo: _k, ...fields } = current;
    for (const key of ['FechaCreacion', 'IdUsuarioCreacion', 'FechaModificacion', 'IdUsuarioModificacion'])
      delete fields[key];
    await api(`/api/rest/field-rule/${required.id}`, {
      method: 'PUT',
      body: JSON.stringify({ ...fields, Activo: 'N' }),
    });
    await page.reload({ waitUntil: 'networkidle' });
    await page.locator('#root_Alergia').waitFor();
    expect(await label.textContent()).not.toMatch(/\*/);

    // The rules' list names the form and the field in words.
    await page.goto(`${server.url}/field-rule?lang=es`, { waitUntil: 'networkidle' });
    await expect.poll(() => rows().filter({ hasText: 'Alergia' }).count()).toBe(1);
    expect(await rows().filter({ hasText: 'Alergia' }).textContent()).toContain('Persona');
  });

  it('offers a field rule the forms the form objects stand for, by their names, and binds the rule to one', async () => {
    await page.goto(`${server.url}/field-rule/create?lang=es`, { waitUntil: 'networkidle' });
    const form = page.locator('#root_IdDato');
    await form.click();
    const options = page.getByRole('option');
    await expect.poll(() => options.count()).toBeGreaterThan(3);
    const names = await options.allTextContents();
    expect(names).toContain('PERSONAS (FRM_PERSONA)');
    expect(names).toContain('MIS DATOS (FRM_MIS_DATOS)');
    // A screen no form object stands for is not offered (holidays).
    expect(names.some((n) => /FERIADO|holiday/i.test(n))).toBe(false);
    await page.getByRole('option', { name: 'VEHÍCULOS (FRM_VEHICULO)' }).click();
    await page.locator('#root_Campo').click();
    await page
      .getByRole('option', { name: /\(Color\)|\(IdColor\)/ })
      .first()
      .click();
    await page.getByRole('button', { name: 'Guardar' }).click();
    await page.waitForURL(/\/field-rule$/);
    await rows().first().waitFor();
    const saved = (await (await api('/api/rest/field-rule?range=%5B0%2C999%5D')).json()) as Array<{
      IdDato: string;
      IdObjeto: number;
      id: number;
    }>;
    const rule = saved.find((r) => r.IdDato === 'vehicle' && r.IdObjeto);
    expect(rule).toBeDefined();
    await page.screenshot({ path: 'test-results/field-rule-form-objects.png' });
    await api(`/api/rest/field-rule/${rule?.id}`, { method: 'DELETE' });
  });

  it('asks for a secret twice, never shows the stored one, and keeps it when left empty', async () => {
    await page.goto(`${server.url}/repository-path?lang=es`, { waitUntil: 'networkidle' });
    await rows().first().click();
    await page.waitForURL(/\/repository-path\/\d+$/);
    const id = page.url().split('/').pop();
    const secret = page.locator('#root_Clave');
    const confirmation = page.locator('#root_Clave__confirmation');
    expect(await secret.inputValue()).toBe('');
    await secret.fill('Nueva#Clave1');
    await confirmation.fill('Otra#Clave1');
    await page.getByRole('button', { name: 'Guardar' }).click();
    await expect.poll(() => page.locator('#root_Clave__error').textContent()).toContain('no coinciden');
    await confirmation.fill('Nueva#Clave1');
    await page.getByRole('button', { name: 'Guardar' }).click();
    await page.waitForURL(/\/repository-path$/);
    const changes = async () =>
      (
        (await (await api(`/api/rest/repository-path/${id}/history`)).json()) as Array<{ Campos: string }>
      ).map((h) => h.Campos);
    expect((await changes())[0]).toBe('Clave');
    // Saved again with the boxes left empty: the stored secret stays.
    await page.goto(`${server.url}/repository-path/${id}`, { waitUntil: 'networkidle' });
    await page.locator('#root_Ruta').fill('/srv/acreditacion/otra');
    await page.getByRole('button', { name: 'Guardar' }).click();
    await page.waitForURL(/\/repository-path$/);
    expect((await changes())[0]).toBe('Ruta');
  });

  it('asks for a restriction’s hours only when it is not for the full day', async () => {
    await page.goto(`${server.url}/restriction/create?lang=es`, { waitUntil: 'networkidle' });
    const label = page.locator('label[for="root_HoraInicio"]');
    expect(await label.textContent()).not.toMatch(/\*/);
    await page.locator('#root_DiaCompleto').click();
    await page.getByRole('option', { name: 'No', exact: true }).click();
    await expect.poll(() => label.textContent()).toMatch(/\*/);
    await page.getByRole('button', { name: 'Guardar' }).click();
    await expect.poll(() => page.locator('#root_HoraFin__error').textContent()).toContain('Obligatorio');
    expect(await page.locator('.schema-form').textContent()).not.toContain('must match');
  });

  it('exports the list it shows to Excel, with headers in the user’s language', async () => {
    await page.goto(`${server.url}/country?lang=en`, { waitUntil: 'networkidle' });
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.locator('.export-button').click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^Countries \d{8}\.xlsx$/);
    const book = new ExcelJS.Workbook();
    await book.xlsx.readFile((await download.path()) as string);
    const sheet = book.getWorksheet('data') as ExcelJS.Worksheet;
    expect((sheet.getRow(1).values as unknown[]).slice(1, 3)).toEqual(['Code', 'Country']);
    expect(sheet.rowCount - 1).toBe(await rows().count());
    await expect.poll(() => page.getByText('File downloaded').count()).toBe(1);
  });

  it('copies a schedule’s Monday to other days, asking before it replaces intervals', async () => {
    await page.goto(`${server.url}/schedule?lang=es`, { waitUntil: 'networkidle' });
    await rows().first().click();
    await page.waitForURL(/\/schedule\/\d+$/);
    await page.locator('.copy-day').click();
    await page.getByRole('button', { name: 'Copiar', exact: true }).click();
    // The demo schedules have their week filled: the copy asks before replacing.
    const confirm = page.getByRole('dialog').filter({ hasText: '¿desea eliminarlos?' });
    await confirm.waitFor();
    await confirm.getByRole('button', { name: 'Confirmar' }).click();
    await expect.poll(() => page.getByText(/Se copiaron \d+ intervalos/).count()).toBe(1);
  });

  it('keeps a saved filter on the server: the same user finds it in another browser', async () => {
    await page.goto(`${server.url}/person?lang=es`, { waitUntil: 'networkidle' });
    await page.getByRole('button', { name: 'Agregar filtro' }).click();
    await page.getByRole('menuitemcheckbox', { name: 'Condición' }).click();
    await page.keyboard.press('Escape');
    await page.getByRole('combobox', { name: 'Condición' }).click();
    await page.getByRole('option', { name: 'Trabajador' }).click();
    await page.waitForURL(/Condicion/);
    await page.getByRole('button', { name: 'Agregar filtro' }).click();
    await page.getByRole('menuitem', { name: 'Guardar consulta actual...' }).click();
    await page.getByRole('dialog').locator('input').fill('Solo trabajadores');
    await page.getByRole('dialog').getByRole('button', { name: 'Guardar' }).click();
    await expect
      .poll(async () =>
        ((await (await api('/api/rest/saved-filter')).json()) as Array<{ Nombre: string }>).map(
          (f) => f.Nombre,
        ),
      )
      .toEqual(['Solo trabajadores']);

    const elsewhere = await (await browser.newContext({ viewport: { width: 1400, height: 900 } })).newPage();
    watch(elsewhere);
    await signInBySession(elsewhere, server.url, 'ADMIN', { at: null });
    await elsewhere.goto(`${server.url}/person`, { waitUntil: 'networkidle' });
    await elsewhere.getByRole('button', { name: 'Agregar filtro' }).click();
    await elsewhere.getByRole('menuitem', { name: 'Solo trabajadores' }).click();
    await elsewhere.waitForURL(/Condicion/);
    await elsewhere.close();
  });

  it('shows a record’s history after a change, read-only', async () => {
    await page.goto(`${server.url}/cost-centre?lang=es`, { waitUntil: 'networkidle' });
    await rows().first().click();
    await page.waitForURL(/\/cost-centre\/\d+$/);
    const description = page.locator('#root_Descripcion');
    await description.fill('CENTRO DE COSTO RENOMBRADO');
    await page.getByRole('button', { name: 'Guardar' }).click();
    await page.waitForURL(/\/cost-centre$/);
    await rows().filter({ hasText: 'CENTRO DE COSTO RENOMBRADO' }).first().click();
    await page.getByRole('link', { name: 'Mostrar' }).click();
    const history = page.locator('.record-history');
    await expect.poll(() => history.textContent()).toContain('CENTRO DE COSTO RENOMBRADO');
    expect(await history.textContent()).toContain('Modificación');
    expect(await history.textContent()).toContain('ADMIN');

    // The administrator's audit list names the screen in words, and filters by it.
    await page.goto(`${server.url}/audit?lang=es`, { waitUntil: 'networkidle' });
    await expect.poll(() => rows().first().textContent()).toContain('Centro de costo');
    expect(await rows().first().textContent()).not.toContain('cost-centre');
    expect(problems).toEqual([]);
  });
});
