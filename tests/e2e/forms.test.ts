import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations } from '../support/axe.js';
import { launchBrowser } from '../support/browser.js';
import { signInBySession } from '../support/console.js';
import { png } from '../support/png.js';
import { type RunningServer, startRealServer } from '../support/server.js';

type Data = Record<string, unknown>;

/**
 * The forms and lists as people fill them in: a Chilean RUT as it is written, the server's
 * refusal brought to the field, unchanged records, dates as the spec writes them, the person's
 * sections and photo, and the smaller things of the side menu and the lists.
 */
describe('forms and lists in a real browser', () => {
  let server: RunningServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const problems: string[] = [];

  beforeAll(async () => {
    server = await startRealServer();
    browser = await launchBrowser();
    // An English-speaking browser: the console's dates must not follow its mm/dd/yyyy.
    context = await browser.newContext({ viewport: { width: 1400, height: 900 }, locale: 'en-US' });
    page = await context.newPage();
    page.setDefaultTimeout(15_000);
    page.on('console', (message) => {
      // The refusals the tests provoke on purpose show up as failed requests.
      if (/Failed to load resource: the server responded with a status of (400|409)/.test(message.text()))
        return;
      if (message.type() === 'error' || message.type() === 'warning')
        problems.push(`${message.type()}: ${message.text()}`);
    });
    page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
    await signInBySession(page, server.url, 'ADMIN', { at: null });
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const api = async (path: string): Promise<Data & Data[]> => {
    const token = await page.evaluate(
      () => JSON.parse(localStorage.getItem('acreditacion.auth') ?? '{}').accessToken,
    );
    const res = await fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${token}` } });
    return (await res.json()) as Data & Data[];
  };
  const field = (name: string) => page.locator(`#root_${name}`);
  const save = () => page.getByRole('button', { name: 'Guardar', exact: true }).click();
  const people = async () =>
    (await api(`/api/rest/person?filter=${encodeURIComponent('{"Condicion":"T"}')}&range=[0,9]`)) as Data[];

  it('takes a Chilean RUT as its hint writes it, checks its digit as it is typed, and keeps it bare', async () => {
    const [person] = await people();
    await page.goto(`${server.url}/person/${person.id}?lang=es`, { waitUntil: 'networkidle' });
    await field('IdTipoDocumento').click();
    await field('IdTipoDocumento').fill('RUT');
    await page.getByRole('option', { name: 'CH RUT', exact: true }).click();
    const hint = page.locator('#root_Documento-helper-text');
    // The person's DNI is no RUT: its check digit is wrong for the new type.
    await expect.poll(() => hint.textContent()).toBe('El dígito verificador no es correcto');
    await field('Documento').fill('12.345.678-4');
    await expect.poll(() => hint.textContent()).toBe('El dígito verificador no es correcto');
    await field('Documento').fill('12.345.678-5');
    expect(await field('Documento').inputValue()).toBe('12.345.678-5');
    await expect.poll(() => hint.textContent()).toContain('##.###.###-X');
    // Typed bare, it reads formatted once the user moves on.
    await field('Documento').fill('123456785');
    await field('Apellido').focus();
    expect(await field('Documento').inputValue()).toBe('12.345.678-5');
    await save();
    await page.waitForURL((url) => url.pathname === '/person');
    expect((await api(`/api/rest/person/${person.id}`)).Documento).toBe('123456785');
    await page.goto(`${server.url}/person/${person.id}`, { waitUntil: 'networkidle' });
    await expect.poll(() => field('Documento').inputValue()).toBe('12.345.678-5');
  });

  it('brings the server’s refusal at the bottom of a long form to its field, in view and focused', async () => {
    const [first, second] = await people();
    await page.goto(`${server.url}/person/${second.id}`, { waitUntil: 'networkidle' });
    await field('Documento').waitFor();
    // The first person's document type and number: the server refuses a duplicate.
    const type = (await api(`/api/rest/document-type/${first.IdTipoDocumento}`)) as Data;
    await field('IdTipoDocumento').click();
    await field('IdTipoDocumento').fill(String(type.Alias));
    await page.getByRole('option', { name: `${type.IdPais} ${type.Alias}`, exact: true }).click();
    // The number is typed once its field has taken the new type, which bounds how long a number it
    // takes: typed sooner (a busy machine), the form was still settling the type's change and the
    // number met the old type's bound, or was undone by the form catching up.
    const longest = Math.max(Number(type.Longitud ?? 20), String(type.Mascara ?? '').length);
    await expect.poll(() => field('Documento').getAttribute('maxlength')).toBe(String(longest));
    await field('Documento').fill(String(first.Documento));
    // The form has taken the new type and number (its hint no longer finds the old one's digit wrong)
    // before it is sent: the refusal to wait for is the server's.
    await expect
      .poll(() => page.locator('#root_Documento-helper-text').textContent())
      .not.toBe('El dígito verificador no es correcto');
    const button = page.getByRole('button', { name: 'Guardar', exact: true });
    await button.scrollIntoViewIfNeeded();
    expect(await field('IdTipoDocumento').evaluate((el) => el.getBoundingClientRect().bottom < 0)).toBe(true);
    await button.click();
    await expect.poll(() => page.locator('#root_Documento__error').textContent()).toContain('Ya existe');
    // The refusal's warning and the error under the field are readable (contrast, WCAG AA).
    await page.locator('.MuiSnackbarContent-root').first().waitFor();
    const contrast = await axeViolations(page, ['color-contrast']);
    expect(contrast.flatMap((v) => v.nodes.map((n) => n.target.join(' ')))).toEqual([]);
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('root_IdTipoDocumento');
    const box = await field('IdTipoDocumento').evaluate((el) => {
      const r = el.getBoundingClientRect();
      return { top: r.top, bottom: r.bottom };
    });
    expect(box.top).toBeGreaterThan(0);
    expect(box.bottom).toBeLessThan(900);
  });

  it('says “No existen cambios” when a record is saved unchanged, and writes nothing', async () => {
    const writes: string[] = [];
    const listen = (request: { method: () => string; url: () => string }) => {
      if (request.method() === 'PUT') writes.push(request.url());
    };
    page.on('request', listen);
    await page.goto(`${server.url}/country/PE`, { waitUntil: 'networkidle' });
    await field('Pais').waitFor();
    await save();
    await expect.poll(() => page.getByText('No existen cambios').count()).toBe(1);
    expect(page.url()).toMatch(/\/country\/PE$/);
    expect(await page.getByText('Elemento actualizado').count()).toBe(0);
    page.off('request', listen);
    expect(writes).toEqual([]);
  });

  it('writes and picks dates as dd/MM/yyyy in either language, whatever the browser’s own locale', async () => {
    const person = (await people()).find((p) => typeof p.FechaNacimiento === 'string') as Data;
    const [year, month, day] = String(person.FechaNacimiento).split('-');
    await page.goto(`${server.url}/person/${person.id}?lang=en`, { waitUntil: 'networkidle' });
    await expect.poll(() => field('FechaNacimiento').inputValue()).toBe(`${day}/${month}/${year}`);
    await page
      .getByRole('button', { name: /Choose date/ })
      .first()
      .click();
    const calendar = page.getByRole('dialog');
    const monthName = new Date(Number(year), Number(month) - 1, 1).toLocaleString('en-GB', { month: 'long' });
    await expect.poll(() => calendar.textContent()).toContain(`${monthName} ${year}`);
    // Once it has finished opening (a click while it grows lands nowhere).
    await calendar.evaluate((el) =>
      Promise.all(el.getAnimations({ subtree: true }).map((animation) => animation.finished)),
    );
    await calendar.getByRole('gridcell', { name: '15', exact: true }).click();
    await expect.poll(() => field('FechaNacimiento').inputValue()).toBe(`15/${month}/${year}`);
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/person');
    expect((await api(`/api/rest/person/${person.id}`)).FechaNacimiento).toBe(`${year}-${month}-15`);

    await page.goto(`${server.url}/person/${person.id}?lang=es`, { waitUntil: 'networkidle' });
    await expect.poll(() => field('FechaNacimiento').inputValue()).toBe(`15/${month}/${year}`);
    // Typed as people write it in Spanish: day, month, year.
    await page
      .locator('[role="group"][aria-labelledby="root_FechaNacimiento-label"] [role="spinbutton"]')
      .first()
      .click();
    await page.keyboard.type(`0302${year}`);
    await expect.poll(() => field('FechaNacimiento').inputValue()).toBe(`03/02/${year}`);
    await page
      .getByRole('button', { name: /^Elige fecha/ })
      .first()
      .click();
    await expect.poll(() => page.getByRole('dialog').textContent()).toContain(`febrero ${year}`);
    await page.keyboard.press('Escape');
  });

  it('shows a person in the spec’s sections, and takes a photo within the suggested size only', async () => {
    const [, , person] = await people();
    await page.goto(`${server.url}/person/${person.id}?lang=es`, { waitUntil: 'networkidle' });
    await field('Documento').waitFor();
    const titles = await page.locator('.schema-form section h2').allTextContents();
    expect(titles).toEqual([
      'Datos generales',
      'Datos adicionales',
      'Contacto de emergencia',
      'Licencia de conducir',
      'Datos laborales',
    ]);
    expect(await page.locator('.form-section-emergency').locator('#root_EmergenciaTelefono').count()).toBe(1);
    const file = page.getByTestId('photo-file');
    const preview = page.getByTestId('photo-preview').locator('img');
    // Too large for the suggested 150 × 160 px, give or take a quarter: refused, said why, cleared.
    await file.setInputFiles({ name: 'grande.png', mimeType: 'image/png', buffer: png(3000, 4000) });
    await expect
      .poll(() =>
        page.getByText(/La imagen mide 3000 × 4000 px; debe medir de 113 a 187 px de ancho/).count(),
      )
      .toBe(1);
    expect(await preview.count()).toBe(0);
    await file.setInputFiles({ name: 'foto.gif', mimeType: 'image/gif', buffer: Buffer.from('GIF89a') });
    await expect
      // The second message follows the first (one at a time, three seconds each).
      .poll(() => page.getByText('El archivo foto.gif no es una imagen .png, .jpg o .jpeg.').count(), {
        timeout: 10_000,
      })
      .toBeGreaterThan(0);
    await file.setInputFiles({ name: 'foto.png', mimeType: 'image/png', buffer: png(150, 160) });
    await expect.poll(() => preview.getAttribute('src')).toMatch(/^data:image\/png;base64,/);
    await save();
    await page.waitForURL((url) => url.pathname === '/person');
    expect(String((await api(`/api/rest/person/${person.id}`)).Foto)).toMatch(/^data:image\/png;base64,/);
    // Lists carry no pictures.
    const list = (await api(`/api/rest/person?range=[0,49]`)) as Data[];
    expect(list.some((row) => 'Foto' in row)).toBe(false);
    // The record's page shows the photo, and its sections.
    await page.goto(`${server.url}/person/${person.id}/show`, { waitUntil: 'networkidle' });
    await expect.poll(() => page.locator('.ra-field-Foto img').count()).toBe(1);
    expect(await page.getByRole('heading', { name: 'Contacto de emergencia' }).count()).toBe(1);
  });

  it('shows a whole side-menu label in a tooltip when it does not fit', async () => {
    await page.goto(`${server.url}/dashboard?lang=es`, { waitUntil: 'networkidle' });
    await page.getByRole('button', { name: 'Administración', exact: true }).click();
    const item = page.getByRole('button', { name: 'Contratistas y personal' });
    const label = item.locator('p, span').filter({ hasText: 'Contratistas y personal' }).first();
    expect(await label.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);
    await item.hover();
    await expect.poll(() => page.getByRole('tooltip').textContent()).toBe('Contratistas y personal');
    // From the keyboard too: focused, the whole label shows.
    await page.mouse.move(700, 500);
    await page.getByRole('tooltip').waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Administración', exact: true }).focus();
    await page.keyboard.press('Tab');
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.textContent))
      .toBe('Contratistas y personal');
    await expect.poll(() => page.getByRole('tooltip').textContent()).toBe('Contratistas y personal');
    await page.keyboard.press('Escape');
    // A label that fits has none.
    await page.mouse.move(700, 500);
    await page.locator('.side-menu').getByRole('link', { name: 'Inicio' }).hover();
    await page.waitForTimeout(800);
    expect(await page.getByRole('tooltip').count()).toBe(0);
  });

  it('shows a chosen list filter whole', async () => {
    await page.goto(`${server.url}/person?lang=es`, { waitUntil: 'networkidle' });
    await page.getByRole('button', { name: 'Agregar filtro' }).click();
    await page.getByRole('menuitemcheckbox', { name: 'Compañía' }).click();
    await page.keyboard.press('Escape');
    const filter = page.getByRole('combobox', { name: 'Compañía' });
    await filter.click();
    await page.getByRole('option', { name: 'EQUIPOS Y REPUESTOS MINEROS S.A.' }).click();
    await page.waitForURL(/IdCompania/);
    expect(await filter.inputValue()).toBe('EQUIPOS Y REPUESTOS MINEROS S.A.');
    expect(await filter.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
  });

  it('says an empty list is empty in words that suit its name', async () => {
    await page.goto(`${server.url}/outbox?lang=es`, { waitUntil: 'networkidle' });
    await expect
      .poll(() => page.locator('.list-empty').textContent())
      .toContain('No hay registros en Bandeja de salida.');
    expect(await page.getByText(/Aún no hay/).count()).toBe(0);
  });

  it('helps with a field in the user’s language, never in the schema’s own notes', async () => {
    for (const [lang, help] of [
      ['es', 'La hora que marcaba el reloj del equipo'],
      ['en', 'The time the device’s clock showed'],
    ]) {
      await page.goto(`${server.url}/marking/1?lang=${lang}`, { waitUntil: 'networkidle' });
      await expect.poll(() => page.locator('#root_FechaHoraDispositivo__help').textContent()).toContain(help);
      expect(await page.getByText(/before correction by the equipment/).count()).toBe(0);
    }
    // Every list of choices names its buttons in the user's language too (a place's, a person's).
    const [person] = await people();
    await page.goto(`${server.url}/person/${person.IdPersona}?lang=es`, { waitUntil: 'networkidle' });
    await field('IdUbigeoResidencia').waitFor();
    const named = (name: string) => page.locator(`[aria-label="${name}"], [title="${name}"]`).count();
    expect(await named('Abrir')).toBeGreaterThan(0);
    expect({ Open: await named('Open'), Clear: await named('Clear'), Close: await named('Close') }).toEqual({
      Open: 0,
      Clear: 0,
      Close: 0,
    });
  });

  it('logged no errors or warnings in the browser console', () => {
    expect(problems).toEqual([]);
  });
});
