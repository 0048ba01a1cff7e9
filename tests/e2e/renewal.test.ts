import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, siteDate } from '../../src/shared/dates.js';
import { launchBrowser } from '../support/browser.js';
import { signInBySession } from '../support/console.js';
import { approveAll, asUser, button, fillRequirements, sendRequest } from '../support/request-screens.js';
import { type RunningServer, startRealServer } from '../support/server.js';

// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON
type Json = any;
const SOUTH = 'UNIDAD MINERA SAN GABRIEL';
const today = siteDate('PE');

/**
 * A requirement update through the screens: the requester picks an accredited worker and its
 * SCTR SALUD on the requirement update screen, enters the new values and file on the request page
 * and sends; the authoriser approves the line and the request on the evaluation page; the kept
 * value now expires on the new date, and the requirement update dashboards moved.
 */
describe('requirement update in a real browser', () => {
  let server: RunningServer;
  let browser: Browser;
  let requester: Page;
  let authoriser: Page;
  const problems: string[] = [];

  const open = async (user: string) => {
    const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    const page = await context.newPage();
    page.setDefaultTimeout(20_000);
    page.on('pageerror', (error) => problems.push(`${user} pageerror: ${error.message}`));
    await signInBySession(page, server.url, user, { division: SOUTH, at: null });
    return page;
  };
  const { api, go } = asUser(() => server.url);

  beforeAll(async () => {
    server = await startRealServer();
    browser = await launchBrowser();
    requester = await open('SOLICITANTE');
    authoriser = await open('AUTORIZADOR');
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('renews an accredited worker’s SCTR SALUD end to end', async () => {
    const candidates = (
      (await api(requester, 'POST', '/api/acreditaciondesmovilizacion/filtrarNuevoSolicitante', {
        IdEntidad: 'T',
      })) as Json[]
    ).filter((c) => c.Estado === 'A');
    let worker: Json;
    let sctr: Json;
    for (const c of candidates) {
      const held = (await api(
        requester,
        'GET',
        `/api/acreditacionrequisitosolicitud/requisitosacreditados?IdEntidad=T&IdPersona=${c.IdPersona}`,
      )) as Json[];
      sctr = held.find((h) => h.Requisito === 'SCTR SALUD');
      if (sctr) {
        worker = c;
        break;
      }
    }
    expect(worker).toBeDefined();
    const dashboard = async (page: Page, path: string) =>
      ((await api(page, 'GET', path)) as Json)[1] as Json[];
    const pendingBefore = (
      await dashboard(requester, '/api/acreditacionrequisitosolicitud/dashboard?CantMeses=1')
    ).find((r) => r.ESTADO === 'P').TOTAL;

    await go(requester, '/requisito/solicitante/persona');
    await requester.getByTestId('expiring-counts').waitFor();
    await requester.locator('[role="combobox"][aria-labelledby="renewal-holder"]').click();
    await requester.getByRole('option', { name: new RegExp(`\\(${worker.Documento}\\)`) }).click();
    await requester.locator('[role="combobox"][aria-labelledby="renewal-requirement"]').click();
    await requester.getByRole('option', { name: /SCTR SALUD/ }).click();
    await button(requester, /^Renovar$/).click();
    // It opens as a renewal: under its own area, naming the requirement and the worker, on its data.
    await requester.waitForURL(/\/requisito\/solicitante\/persona\/\d+$/);
    const id = Number(requester.url().split('/').pop());
    await requester.locator('[data-testid="request-form"][data-status="I"]').waitFor();
    await requester.locator('[data-step="requirements"][aria-selected="true"]').waitFor();
    expect(await requester.getByTestId('request-title').textContent()).toBe(
      `Actualización de requisito N.º ${String(id).padStart(8, '0')}`,
    );
    const renews = await requester.getByTestId('renewal-of').textContent();
    expect(renews).toContain('«SCTR SALUD»');
    expect(renews).toContain(worker.Apellido);
    expect(await requester.getByTestId('breadcrumb').textContent()).toMatch(/Actualización de requisitos/);
    await requester.screenshot({ path: 'test-results/renewal-requester-es.png' });
    // The contract, profile and dates are shown, not edited.
    await requester.locator('[data-step="general"]').click();
    const dates = requester.locator('[data-testid="request-form"] input:visible');
    expect(await dates.count()).toBeGreaterThan(0);
    expect(
      await dates.evaluateAll((inputs) =>
        inputs.every((i) => (i as HTMLInputElement).disabled || (i as HTMLInputElement).readOnly),
      ),
    ).toBe(true);
    await requester.locator('[data-step="requirements"]').click();
    await fillRequirements(requester, today);
    await requester.locator('[data-testid="save-request"]').click();
    await requester.getByText('Solicitud guardada.', { exact: true }).first().waitFor();
    // The save goes back to the renewals' list, which opens it again.
    await requester.waitForURL(/\/requisito\/solicitante\/persona$/);
    await requester.getByRole('link', { name: String(id).padStart(8, '0') }).click();
    await requester.locator('[data-testid="request-form"]').waitFor();
    await sendRequest(requester);
    const after = await dashboard(requester, '/api/acreditacionrequisitosolicitud/dashboard?CantMeses=1');
    expect(after.find((r) => r.ESTADO === 'P').TOTAL).toBe(pendingBefore + 1);

    // The authoriser sees it on its requirement update screen and evaluates it.
    await go(authoriser, '/requisito/autorizador/persona');
    // Its row names the requirement it renews.
    const row = authoriser.getByTestId(`renewal-request-${id}`);
    await expect.poll(() => row.locator('[data-column="requirement"]').textContent()).toBe('SCTR SALUD');
    await authoriser.getByRole('link', { name: String(id).padStart(8, '0') }).click();
    await authoriser.locator('[data-testid="evaluation"][data-status="P"]').waitFor();
    await approveAll(authoriser, 'es', today);
    const record = await api(
      requester,
      'GET',
      `/api/acreditacionsolicitud/obtenersolicitud?IdSolicitud=${id}`,
    );
    expect(record.EstadoAprobacion).toBe('A');
    const kept = (await api(
      requester,
      'GET',
      `/api/acreditacionsolicituddetalle/listarbypersona?IdPersona=${worker.IdPersona}`,
    )) as Json[];
    const renewed = kept.filter((k) => k.Requisito === 'SCTR SALUD' && k.FechaVencimiento);
    expect(renewed.length).toBeGreaterThan(0);
    expect(renewed.every((k) => k.FechaVencimiento === addDays(today, 300))).toBe(true);
    expect(problems).toEqual([]);
  }, 180_000);
});
