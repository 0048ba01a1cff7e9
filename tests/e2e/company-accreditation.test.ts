import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, siteDate } from '../../src/shared/dates.js';
import { launchBrowser, PHONE } from '../support/browser.js';
import { signedInPage } from '../support/console.js';
import { png } from '../support/png.js';
import {
  approveAll,
  asUser,
  button,
  choose,
  fillPersonal,
  fillRequirements,
  type Lang,
  saveAndReopen,
  sendRequest,
  typeDate,
} from '../support/request-screens.js';
import { type RunningServer, startRealServer } from '../support/server.js';

// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON
type Json = any;
const SHOTS = process.env.E2E_SHOTS;
const NORTH = 'PROYECTO CORDILLERA NORTE';
const today = siteDate('PE');
/** Refusals the test asks for show in the console as failed loads. */
const EXPECTED = /Failed to load resource: the server responded with a status of (400|404|409)/;

/**
 * A contractor company accredited end to end in a real browser (spec section 2): with the client's
 * setting on, SERMIPAC's requester in the north cannot file a worker until its company is
 * accredited there; it files the company's own request (its data shown, its requirements filled),
 * the authoriser approves it requirement by requirement, the company card on both dashboards
 * counts it, and then the worker is filed. The requester on a desktop in Spanish, the authoriser
 * on a phone in English.
 */
describe('company accreditation in a real browser', () => {
  let server: RunningServer;
  let browser: Browser;
  let requester: Page;
  let authoriser: Page;
  let admin: Page;
  const problems: string[] = [];
  const calls = asUser(() => server.url);
  const go = (page: Page, path: string, lang: Lang) => calls.go(page, path, lang);
  const shot = async (page: Page, name: string) => {
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
  };
  const list = async (page: Page, resource: string, filter: object = {}) =>
    (await calls.api(
      page,
      'GET',
      `/api/rest/${resource}?range=${encodeURIComponent('[0,999]')}&filter=${encodeURIComponent(JSON.stringify(filter))}`,
    )) as Json[];
  /** A worker of the north contract, as the wizard's first step files it. */
  const fileWorker = async (document: string) => {
    const contract = (await list(requester, 'contract')).find((c) => c.NumeroContrato === 'CT-2026-006');
    const profile = (await list(requester, 'accreditation-profile')).find(
      (p) => p.Descripcion === 'TRABAJADOR CONTRATISTA',
    );
    const dni = (await list(requester, 'document-type')).find((d) => d.Alias === 'DNI' && d.IdPais === 'PE');
    return calls.api(requester, 'POST', '/api/acreditacionsolicitud/crearsolicitante', {
      IdEntidad: 'T',
      IdContrato: contract.IdContrato,
      IdPerfilAcreditacion: profile.IdPerfilAcreditacion,
      FechaInicio: today,
      FechaFin: addDays(today, 30),
      IdTipoDocumento: dni.IdTipoDocumento,
      Documento: document,
      Apellido: 'Ticona Apaza',
      Nombre: 'Raúl',
      Sexo: 'M',
      FechaNacimiento: '1989-11-02',
      IdPaisNacimiento: 'PE',
      IdPaisResidencia: 'PE',
      TelefonoMovil: '987444555',
    });
  };
  const companyCount = async (page: Page, status: string, lang: Lang) => {
    await go(page, '/dashboard', lang);
    const cell = page.locator(`[data-entity="E"] [data-count="${status}"]`);
    await cell.waitFor();
    return Number(await cell.textContent());
  };

  beforeAll(async () => {
    server = await startRealServer();
    browser = await launchBrowser();
    const options = { division: NORTH, ignore: EXPECTED };
    requester = await signedInPage(browser, server.url, 'SOLICITANTE', problems, {
      ...options,
      context: { viewport: { width: 1400, height: 900 } },
    });
    authoriser = await signedInPage(browser, server.url, 'AUTORIZADOR', problems, {
      ...options,
      context: PHONE,
    });
    admin = await signedInPage(browser, server.url, 'ADMIN', problems, { ignore: EXPECTED });
    // The client's setting: a worker's or vehicle's request waits for its company's accreditation.
    const parameters = await list(admin, 'parameter');
    const setting = parameters.find?.((p) => p.IdConfiguracion === 'EMPRESAACREDITADA');
    expect(setting, JSON.stringify(parameters).slice(0, 300)).toBeDefined();
    const saved = await calls.api(admin, 'PUT', `/api/rest/parameter/${setting.IdParametro}`, {
      ...setting,
      Valor1: 'S',
    });
    expect(saved.Valor1, JSON.stringify(saved)).toBe('S');
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('refuses the worker first, accredits the company through both screens, then files the worker', async () => {
    const refused = await fileWorker('70112233');
    expect(refused.message).toMatch(/SERVICIOS MINEROS DEL PACÍFICO S\.A\.C\..*acredit/);

    const approvedBefore = await companyCount(requester, 'A', 'es');
    await go(requester, '/movilizacion/solicitante/empresa/nueva', 'es');
    await requester.locator('#general_IdPerfilAcreditacion').waitFor();
    // A company's request names no contract.
    expect(await requester.locator('#general_IdContrato').count()).toBe(0);
    await choose(requester, 'general_IdPerfilAcreditacion', 'EMPRESA');
    await typeDate(requester, 'general_FechaInicio-label', today);
    await typeDate(requester, 'general_FechaFin-label', addDays(today, 365));
    expect(await requester.locator('[data-step="personal"]').textContent()).toBe('2. Datos de la empresa');
    await button(requester, /^Siguiente/).click();
    await expect
      .poll(() => requester.locator('[data-testid="company-data"]').textContent())
      .toContain('SERVICIOS MINEROS DEL PACÍFICO S.A.C.');
    await shot(requester, 'company-data-es');
    await button(requester, /Guardar y continuar/).click();
    await requester.waitForURL(/\/movilizacion\/solicitante\/empresa\/\d+$/);
    const id = Number(requester.url().split('/').pop());
    await fillRequirements(requester, today);
    await shot(requester, 'company-requirements-es');
    await saveAndReopen(requester, id, 'Solicitud guardada.');
    await sendRequest(requester);
    // The requester's list names the company.
    await requester.locator(`[data-open-request="${id}"]`).waitFor();
    expect(await requester.locator('main').textContent()).toContain('SERVICIOS MINEROS DEL PACÍFICO');

    const pendingBefore = await companyCount(authoriser, 'P', 'en');
    expect(pendingBefore).toBeGreaterThanOrEqual(1);
    await shot(authoriser, 'company-authoriser-dashboard-en');
    await go(authoriser, '/movilizacion/autorizador/empresa?estado=P', 'en');
    await authoriser.locator(`[data-open-request="${id}"]`).click();
    await authoriser.locator('[data-testid="evaluation"][data-status="P"]').waitFor();
    await shot(authoriser, 'company-evaluation-en');
    await approveAll(authoriser, 'en', today);
    expect(
      (await calls.api(requester, 'GET', `/api/acreditacionsolicitud/obtenersolicitud?IdSolicitud=${id}`))
        .EstadoAprobacion,
    ).toBe('A');
    expect(await companyCount(requester, 'A', 'es')).toBe(approvedBefore + 1);
    await shot(requester, 'company-requester-dashboard-es');

    // Accredited: its worker is filed now.
    const filed = await fileWorker('70112233');
    expect(filed.IdSolicitud, JSON.stringify(filed)).toBeGreaterThan(0);
    expect(problems).toEqual([]);
  }, 300_000);
  it('keeps a worker within the contract in the wizard: its units, then its endowment', async () => {
    // The north contract's administrator gives it an endowment of 0.
    const northAdmin = await signedInPage(browser, server.url, 'ADMIN', problems, {
      division: NORTH,
      ignore: EXPECTED,
    });
    const contract = (await list(northAdmin, 'contract')).find((c) => c.NumeroContrato === 'CT-2026-006');
    const saved = await calls.api(northAdmin, 'PUT', `/api/rest/contract/${contract.IdContrato}`, {
      ...contract,
      Dotacion: 0,
    });
    expect(saved.Dotacion, JSON.stringify(saved)).toBe(0);
    await go(requester, '/movilizacion/solicitante/persona', 'es');
    await requester.locator('[data-testid="new-request"]').click();
    await requester.locator('#general_IdContrato').waitFor();
    await choose(requester, 'general_IdContrato', 'CT-2026-006');
    await choose(requester, 'general_IdPerfilAcreditacion', 'TRABAJADOR');
    await typeDate(requester, 'general_FechaInicio-label', today);
    await typeDate(requester, 'general_FechaFin-label', addDays(today, 30));
    // A unit the contract does not list (it lists maintenance only).
    await choose(requester, 'general_IdUnidadOrganizativa', 'GERENCIA DE SEGURIDAD');
    await button(requester, /Siguiente/).click();
    await fillPersonal(requester, {
      photo: png(150, 160),
      document: '70119911',
      surname: 'Mamani Choque',
      name: 'Elvis',
      sex: /Masculino/,
      birth: '1990-05-05',
      phone: '987222333',
    });
    await button(requester, /Guardar y continuar/).click();
    // Back on the first step, under the unit's field, with the contract's units named.
    const unitError = requester.locator('#general_IdUnidadOrganizativa__error');
    await expect
      .poll(() => unitError.textContent())
      .toBe('La unidad organizativa no es una de las del contrato: SUPERINTENDENCIA DE MANTENIMIENTO.');
    expect(await requester.locator('[data-step="general"][aria-selected="true"]').count()).toBe(1);
    await shot(requester, 'worker-unit-refused-es');
    await choose(requester, 'general_IdUnidadOrganizativa', 'SUPERINTENDENCIA DE MANTENIMIENTO');
    await button(requester, /Siguiente/).click();
    await button(requester, /Guardar y continuar/).click();
    // Within its units, the worker does not fit the contract's endowment of 0: the spec's words.
    await requester
      .locator('.MuiSnackbarContent-root')
      .filter({ hasText: /^El contrato excede la dotación vigente: \d+ personas para una dotación de 0\.$/ })
      .waitFor();
    await shot(requester, 'worker-endowment-refused-es');
    // Nothing was made: a made request's page would have its number in the address.
    expect(requester.url()).not.toMatch(/\/persona\/\d+$/);
    expect(problems).toEqual([]);
  }, 180_000);
});
