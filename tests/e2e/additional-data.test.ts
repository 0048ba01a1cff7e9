import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, siteDate } from '../../src/shared/dates.js';
import { launchBrowser, PHONE } from '../support/browser.js';
import { signedInPage } from '../support/console.js';
import { asUser } from '../support/request-screens.js';
import { type RunningServer, startRealServer } from '../support/server.js';

// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON
type Json = any;
const SOUTH = 'UNIDAD MINERA SAN GABRIEL';

/**
 * A request's additional data in a real browser: the requester (Spanish, desktop) fills the
 * client's additional data of a worker on the wizard's additional step, is told at once of a size
 * that is no number, saves, and finds the values again; in English on a phone the same step shows
 * them one under the other.
 */
describe('additional data of a request in a real browser', () => {
  let server: RunningServer;
  let browser: Browser;
  let requester: Page;
  let phone: Page;
  const problems: string[] = [];
  const { api, go } = asUser(() => server.url);

  beforeAll(async () => {
    server = await startRealServer();
    browser = await launchBrowser();
    requester = await signedInPage(browser, server.url, 'SOLICITANTE', problems, {
      division: SOUTH,
      context: { viewport: { width: 1400, height: 900 } },
    });
    phone = await signedInPage(browser, server.url, 'SOLICITANTE', problems, {
      division: SOUTH,
      context: PHONE,
    });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('fills, checks and saves the client’s additional data of a worker', async () => {
    // A worker's request of the requester's, as the wizard's first steps file it.
    const list = async (resource: string) =>
      (await api(requester, 'GET', `/api/rest/${resource}?range=${encodeURIComponent('[0,999]')}`)) as Json[];
    const contract = (await list('contract')).find((c) => c.NumeroContrato === 'CT-2026-001');
    const profile = (await list('accreditation-profile')).find(
      (p) => p.Descripcion === 'TRABAJADOR CONTRATISTA',
    );
    const dni = (await list('document-type')).find((d) => d.Alias === 'DNI' && d.IdPais === 'PE');
    const draft = (await api(requester, 'POST', '/api/acreditacionsolicitud/crearsolicitante', {
      IdEntidad: 'T',
      IdContrato: contract.IdContrato,
      IdPerfilAcreditacion: profile.IdPerfilAcreditacion,
      FechaInicio: siteDate('PE'),
      FechaFin: addDays(siteDate('PE'), 60),
      IdTipoDocumento: dni.IdTipoDocumento,
      Documento: '72600222',
      Apellido: 'Mamani Flores',
      Nombre: 'Rocío',
      Sexo: 'F',
      FechaNacimiento: '1994-04-21',
      IdPaisNacimiento: 'PE',
      IdPaisResidencia: 'PE',
      TelefonoMovil: '987222333',
    })) as Json;
    expect(draft.IdSolicitud, JSON.stringify(draft)).toBeGreaterThan(0);
    const open = async (page: Page, lang: 'es' | 'en') => {
      await go(page, `/movilizacion/solicitante/persona/${draft.IdSolicitud}`, lang);
      await page.locator('[data-step="additional"]').click();
      await page.getByTestId('additional-data').waitFor();
    };
    await open(requester, 'es');
    const shirt = requester.getByLabel('TALLA DE CAMISA');
    const shoe = requester.getByLabel('TALLA DE CALZADO');
    await shirt.fill('XL');
    await shoe.fill('cuarenta');
    await expect.poll(() => requester.getByText('TALLA DE CALZADO: debe ser un número.').count()).toBe(1);
    await shoe.fill('42');
    expect(await requester.getByText('TALLA DE CALZADO: debe ser un número.').count()).toBe(0);
    await requester.screenshot({ path: 'test-results/additional-data-es.png' });
    await requester.getByTestId('save-request').click();
    await expect
      .poll(async () => {
        const record = (await api(
          requester,
          'GET',
          `/api/acreditacionsolicitud/obtenersolicitud?IdSolicitud=${draft.IdSolicitud}`,
        )) as Json;
        return (record.DatosAdicionales as Json[]).map((d) => d.Valor).filter(Boolean);
      })
      .toEqual(['XL', '42']);

    await open(phone, 'en');
    await expect.poll(() => phone.getByLabel('TALLA DE CAMISA').inputValue()).toBe('XL');
    expect(await phone.getByLabel('TALLA DE CALZADO').inputValue()).toBe('42');
    expect(await phone.getByText('Additional data').count()).toBeGreaterThan(0);
    await phone.getByTestId('additional-data').scrollIntoViewIfNeeded();
    await phone.screenshot({ path: 'test-results/additional-data-en-phone.png' });
    expect(problems).toEqual([]);
  }, 120_000);
});
