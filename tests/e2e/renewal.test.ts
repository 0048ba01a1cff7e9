import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, siteDate } from '../../src/shared/dates.js';
import { pdf } from '../support/accreditation.js';
import { launchBrowser } from '../support/browser.js';
import { signInThroughConsole } from '../support/console.js';
import { type RunningServer, startRealServer } from '../support/server.js';

// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON
type Json = any;
type Lang = 'es' | 'en';
const SOUTH = 'UNIDAD MINERA SAN GABRIEL';
const today = siteDate('PE');
const iso = (date: string) => {
  const [y, m, d] = date.split('-');
  return `${d}${m}${y}`;
};

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
    await signInThroughConsole(page, server.url, user, { division: SOUTH });
    return page;
  };
  const api = async (page: Page, method: string, path: string, body?: object): Promise<Json> => {
    const token = await page.evaluate(
      () => JSON.parse(localStorage.getItem('acreditacion.auth') ?? '{}').accessToken,
    );
    const res = await fetch(`${server.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    return ((await res.json()) as { result: Json }).result;
  };
  const go = (page: Page, path: string, lang: Lang = 'es') =>
    page.goto(`${server.url}${path}${path.includes('?') ? '&' : '?'}lang=${lang}`, {
      waitUntil: 'networkidle',
    });
  const typeDate = async (page: Page, labelledBy: string, date: string) => {
    await page.locator(`[role="group"][aria-labelledby="${labelledBy}"] [role="spinbutton"]`).first().click();
    await page.keyboard.type(iso(date));
  };
  const button = (page: Page, name: RegExp) => page.getByRole('button', { name });

  /** Every requirement the requester fills: a value by type, a PDF where one is asked. */
  const fillRequirements = async (page: Page) => {
    const items = page.locator('.requirement-item[data-kind="S"]');
    await items.first().waitFor();
    const total = await items.count();
    for (let i = 0; i < total; i++) {
      const item = items.nth(i);
      const id = await item.getAttribute('data-item');
      const type = await item.getAttribute('data-type');
      if (type === 'file') {
        await item.locator(`input[data-attach="${id}"]`).setInputFiles({
          name: `constancia-${id}.pdf`,
          mimeType: 'application/pdf',
          buffer: pdf(`Constancia ${id}`),
        });
        await expect.poll(() => item.locator(`[data-preview="${id}"]`).count(), { timeout: 15_000 }).toBe(1);
      } else if (type === 'F') {
        await typeDate(page, `item-${id}-label`, addDays(today, 300));
      } else if (type === 'L' || type === 'B') {
        await page.locator(`#item-${id}`).click();
        await page.getByRole('option').nth(1).click();
      } else {
        await page.locator(`#item-${id}`).fill(type === 'N' ? '12' : `VALOR ${id}`);
      }
    }
  };

  /** The authoriser sets a line's state (and observation) in the evaluation screen. */
  const setLine = async (page: Page, line: string, state: string, observation?: string) => {
    await page.locator(`[data-state-select="${line}"]`).locator('..').click();
    await page.locator(`[data-option="${state}"]`).click();
    if (observation) await page.locator(`[data-observation="${line}"]`).fill(observation);
  };

  /** Approves what the requester entered, then what the authoriser records, then the request. */
  const approveAll = async (page: Page, lang: Lang) => {
    const save = lang === 'es' ? /Guardar evaluación/ : /Save evaluation/;
    for (const kind of ['S', 'A']) {
      const lines = page.locator(`.requirement-item[data-kind="${kind}"] .evaluation`);
      const total = await lines.count();
      for (let i = 0; i < total; i++) {
        const line = lines.nth(i);
        const id = (await line.getAttribute('data-evaluate')) as string;
        if (kind === 'A') {
          const input = page.locator(`#item-${id}`);
          const type = await page.locator(`.requirement-item[data-item="${id}"]`).getAttribute('data-type');
          if (type === 'F') await typeDate(page, `item-${id}-label`, today);
          else if (type === 'L' || type === 'B') {
            await input.click();
            await page.getByRole('option').nth(1).click();
          } else if (type !== 'file') await input.fill(type === 'N' ? '1' : 'CONFORME');
        }
        if (
          (await page.locator(`.requirement-item[data-item="${id}"]`).getAttribute('data-line-status')) !==
          'A'
        )
          await setLine(page, id, 'A');
      }
      if (total) {
        await button(page, save).click();
        await page.locator('[data-testid="evaluation"]').waitFor();
        await page.waitForLoadState('networkidle');
      }
    }
    await page.locator('[data-action="APROBAR"]').click();
    await page.waitForURL(/\/movilizacion\/autorizador\/(persona|vehiculo|visita)\?/);
  };

  const sendRequest = async (page: Page) => {
    await page.locator('[data-step="finalise"]').click();
    await page.locator('[data-testid="send-request"]').click();
    await page.waitForURL(/\/movilizacion\/solicitante\/(persona|vehiculo|visita)$/);
  };

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
    await requester.waitForURL(/\/movilizacion\/solicitante\/persona\/\d+$/);
    const id = Number(requester.url().split('/').pop());
    await requester.locator('[data-testid="request-form"][data-status="I"]').waitFor();
    await requester.locator('[data-step="requirements"]').click();
    await fillRequirements(requester);
    await requester.locator('[data-testid="save-request"]').click();
    await requester.getByText('Solicitud guardada.', { exact: true }).first().waitFor();
    await sendRequest(requester);
    const after = await dashboard(requester, '/api/acreditacionrequisitosolicitud/dashboard?CantMeses=1');
    expect(after.find((r) => r.ESTADO === 'P').TOTAL).toBe(pendingBefore + 1);

    // The authoriser sees it on its requirement update screen and evaluates it.
    await go(authoriser, '/requisito/autorizador/persona');
    await authoriser.getByRole('link', { name: String(id).padStart(8, '0') }).click();
    await authoriser.locator('[data-testid="evaluation"][data-status="P"]').waitFor();
    await approveAll(authoriser, 'es');
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
