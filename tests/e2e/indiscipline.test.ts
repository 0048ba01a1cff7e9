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
 * A rejection for indiscipline in a real browser: the authoriser (Spanish, desktop) rejects a
 * pending worker's mobilisation, ticks indiscipline and chooses the kind from the client's
 * catalogue (its name becomes the reason); the administrator (English, phone) finds it recorded
 * against the worker on the Indiscipline of people screen, with the kind's severity and the day
 * its sanction ends.
 */
describe('indiscipline in a real browser', () => {
  let server: RunningServer;
  let browser: Browser;
  let authoriser: Page;
  let admin: Page;
  const problems: string[] = [];
  const { api, go } = asUser(() => server.url);

  beforeAll(async () => {
    server = await startRealServer();
    browser = await launchBrowser();
    authoriser = await signedInPage(browser, server.url, 'AUTORIZADOR', problems, {
      division: SOUTH,
      context: { viewport: { width: 1400, height: 900 } },
    });
    admin = await signedInPage(browser, server.url, 'ADMIN', problems, { context: PHONE, division: SOUTH });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('rejects choosing the kind; the administrator sees it recorded against the worker', async () => {
    const listed = (await api(authoriser, 'GET', '/api/acreditacionsolicitud/filtrar?take=200')) as Json;
    const pending = (listed.data as Json[]).find((r) => r.EstadoAprobacion === 'P' && r.IdEntidad === 'T');
    expect(pending).toBeDefined();
    await go(authoriser, `/movilizacion/autorizador/persona/${pending.IdSolicitud}`, 'es');
    const reject = authoriser.locator('[data-action="RECHAZAR"]');
    await reject.waitFor();
    await reject.click();
    await authoriser.getByLabel('Rechazo por indisciplina').check();
    await authoriser.getByLabel('Tipo de indisciplina').click();
    await authoriser.getByRole('option', { name: 'USO DEL CELULAR MIENTRAS CONDUCE' }).click();
    await expect
      .poll(() => authoriser.getByTestId('action-reason').inputValue())
      .toBe('USO DEL CELULAR MIENTRAS CONDUCE');
    await authoriser.screenshot({ path: 'test-results/indiscipline-reject-es.png' });
    await authoriser.getByTestId('confirm-action').click();
    await expect
      .poll(async () => (await api(authoriser, 'GET', `/api/acreditacionsolicitud/filtrar?take=200`)) as Json)
      .toSatisfy((l: Json) =>
        (l.data as Json[]).some((r) => r.IdSolicitud === pending.IdSolicitud && r.EstadoAprobacion === 'R'),
      );

    await go(admin, '/person-indiscipline', 'en');
    // Its sanction ends 30 days on (the kind's days), shown as the site's dates are.
    const until = addDays(siteDate('PE'), 30).split('-').reverse().join('/');
    await expect
      .poll(() => admin.locator('main').textContent())
      .toContain('USO DEL CELULAR MIENTRAS CONDUCE');
    await admin.screenshot({ path: 'test-results/indiscipline-admin-en-phone.png' });
    expect(await admin.locator('main').textContent()).toContain(until);
    expect(problems).toEqual([]);
  }, 120_000);
});
