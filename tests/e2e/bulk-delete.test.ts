import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestNumber } from '../../src/shared/accreditation.js';
import { addDays, siteDate } from '../../src/shared/dates.js';
import { launchBrowser, PHONE } from '../support/browser.js';
import { signedInPage } from '../support/console.js';
import { asUser, type Lang } from '../support/request-screens.js';
import { type RunningServer, startRealServer } from '../support/server.js';

// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON
type Json = any;
const today = siteDate('PE');

/**
 * Bulk delete on the requests screen (spec section 4): the requester ticks its incomplete
 * requests, confirms, and they are gone; a sent one offers no tick. On a desktop in Spanish and
 * on a phone in English.
 */
describe('bulk delete of requests in a real browser', () => {
  let server: RunningServer;
  let browser: Browser;
  const problems: string[] = [];
  const calls = asUser(() => server.url);

  /** Incomplete worker requests of the requester (one per document), made through the API as the wizard's first step makes them. */
  const makeTwo = async (page: Page, documents: string[]) => {
    const list = async (resource: string) =>
      (await calls.api(
        page,
        'GET',
        `/api/rest/${resource}?range=${encodeURIComponent('[0,999]')}`,
      )) as Json[];
    const contract = (await list('contract')).find((c) => c.NumeroContrato === 'CT-2026-001').IdContrato;
    const profile = (await list('accreditation-profile')).find(
      (p) => p.Descripcion === 'TRABAJADOR CONTRATISTA',
    ).IdPerfilAcreditacion;
    const dni = (await list('document-type')).find(
      (d) => d.Alias === 'DNI' && d.IdPais === 'PE',
    ).IdTipoDocumento;
    const ids: number[] = [];
    for (const document of documents) {
      const made = await calls.api(page, 'POST', '/api/acreditacionsolicitud/crearsolicitante', {
        IdEntidad: 'T',
        IdContrato: contract,
        IdPerfilAcreditacion: profile,
        FechaInicio: today,
        FechaFin: addDays(today, 30),
        IdTipoDocumento: dni,
        Documento: document,
        Apellido: 'Condori Vargas',
        Nombre: 'Elena',
        Sexo: 'F',
        FechaNacimiento: '1991-07-21',
        IdPaisNacimiento: 'PE',
        IdPaisResidencia: 'PE',
        TelefonoMovil: '987222333',
      });
      expect(made.IdSolicitud, JSON.stringify(made)).toBeGreaterThan(0);
      ids.push(made.IdSolicitud);
    }
    return ids;
  };

  beforeAll(async () => {
    server = await startRealServer();
    browser = await launchBrowser();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  for (const [lang, viewport, documents] of [
    ['es', { viewport: { width: 1400, height: 900 } }, ['72000001', '72000002']],
    ['en', PHONE, ['72000003', '72000004']],
  ] as const) {
    it(`deletes the ticked incomplete requests (${lang}, ${'isMobile' in viewport ? 'phone' : 'desktop'})`, async () => {
      const page = await signedInPage(browser, server.url, 'SOLICITANTE', problems, { context: viewport });
      const ids = await makeTwo(page, [...documents]);
      const t = (es: string, en: string) => (lang === 'es' ? es : en);
      await calls.go(page, '/movilizacion/solicitante/persona?estado=I', lang as Lang);
      const grid = page.getByTestId('request-grid');
      for (const id of ids)
        await grid
          .getByRole('checkbox', {
            name: t(`Seleccionar la solicitud ${requestNumber(id)}`, `Select request ${requestNumber(id)}`),
          })
          .check();
      const remove = page.getByTestId('delete-selected');
      await expect.poll(() => remove.textContent()).toContain('(2)');
      await remove.click();
      await page
        .getByRole('dialog')
        .getByRole('button', { name: t('Eliminar', 'Delete') })
        .click();
      await page.getByText(t('Solicitudes eliminadas: 2', 'Requests deleted: 2')).waitFor();
      for (const id of ids) await expect.poll(() => grid.getByText(requestNumber(id)).count()).toBe(0);
      const left = (
        await calls.api(page, 'GET', '/api/acreditacionsolicitud/filtrar?take=1000&EstadoAprobacion=I')
      ).data as Json[];
      expect(left.map((r) => r.IdSolicitud)).not.toContain(ids[0]);
      // A sent request offers no tick: the pending list has no checkbox.
      await calls.go(page, '/movilizacion/solicitante/persona?estado=P', lang as Lang);
      await grid.locator('.request-number').first().waitFor();
      expect(await grid.getByRole('checkbox').count()).toBe(0);
      await page.context().close();
    }, 90_000);
  }

  it('deletes one incomplete request from its own page, after asking (es, desktop)', async () => {
    const page = await signedInPage(browser, server.url, 'SOLICITANTE', problems, {
      context: { viewport: { width: 1400, height: 900 } },
    });
    const [id] = await makeTwo(page, ['72000005']);
    await calls.go(page, `/movilizacion/solicitante/persona/${id}`, 'es');
    await page.getByTestId('request-form').waitFor();
    await page.getByRole('button', { name: 'Eliminar', exact: true }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText(`¿Eliminar la solicitud ${requestNumber(id)}?`, { exact: false }).waitFor();
    // Cancelled, nothing goes; confirmed, the request is gone and the list shows.
    await dialog.getByRole('button', { name: 'Cancelar' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Eliminar', exact: true }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Eliminar' }).click();
    await page.getByText('Solicitud eliminada').waitFor();
    await page.getByTestId('requests-screen').waitFor();
    const left = (
      await calls.api(page, 'GET', '/api/acreditacionsolicitud/filtrar?take=1000&EstadoAprobacion=I')
    ).data as Json[];
    expect(left.map((r) => r.IdSolicitud)).not.toContain(id);
    await page.context().close();
  }, 90_000);

  it('said nothing wrong in the console', () => {
    expect(problems).toEqual([]);
  });
});
