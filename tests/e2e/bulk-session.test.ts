/**
 * A long bulk job keeps the requester's screen open: while its progress shows a check or a
 * processing under way, the idle lock does not fall on the screen; once the job has ended, the
 * lock comes back after the setting's idle seconds. The job's progress is the server's answer,
 * held at "being checked" by the test, and the page's clock is the test's: minutes pass at once.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../support/browser.js';
import { signInBySession, watchedPage } from '../support/console.js';
import { adminCalls } from '../support/processes.js';
import { type RunningServer, startRealServer } from '../support/server.js';

const CODE = 'CM-20261130-KEEPALIV';

describe('a bulk job’s progress keeps the session open in a real browser', () => {
  let server: RunningServer;
  let browser: Browser;
  const problems: string[] = [];

  const adminApi = adminCalls(() => server.url);

  beforeAll(async () => {
    server = await startRealServer();
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  /** The upload's progress as the server answers it, the job still running or ended. */
  const progress = (running: boolean) => ({
    result: {
      CodigoCargaMasiva: CODE,
      IdEntidad: 'T',
      IdContrato: 1,
      IdPerfilAcreditacion: 1,
      IdRequisito: null,
      NombreArchivo: 'carga.xlsx',
      Estado: running ? 'C' : 'V',
      loaded: 10_000,
      toCheck: running ? 6_000 : 0,
      observed: 0,
      processed: 0,
      successful: 0,
      toProcess: running ? 0 : 10_000,
      running,
    },
  });

  /** `ms` of the page's time, in ten-second steps, each ended by a progress read answered. */
  async function pass(page: Page, ms: number) {
    for (let done = 0; done < ms; done += 10_000) {
      const read = page.waitForResponse((r) => r.url().includes('/progresomasivo'));
      await page.clock.runFor(10_000);
      await read;
    }
  }

  it('does not lock while the job runs, and locks after the idle seconds once it has ended', async () => {
    const setting = await adminApi('POST', '/api/rest/login-setting', {
      Descripcion: 'BLOQUEO DE UN MINUTO',
      SegundosInactividad: 60,
      CaducaClave: 'N',
    });
    const user = await adminApi('GET', '/api/rest/user/SOLICITANTE');
    await adminApi('PUT', '/api/rest/user/SOLICITANTE', { ...user, IdConfiguracionLogeo: setting.id });

    const page = await watchedPage(browser, problems, {
      context: { viewport: { width: 1280, height: 800 } },
    });
    let running = true;
    await page.route('**/api/acreditacionsolicitud/progresomasivo*', (route) =>
      route.fulfill({ json: progress(running) }),
    );
    await page.route('**/api/acreditacionsolicitud/filasmasivo*', (route) =>
      route.fulfill({ json: { result: { rows: [], total: 0 } } }),
    );
    await page.clock.install();
    await signInBySession(page, server.url, 'SOLICITANTE', { at: null });
    await page.goto(`${server.url}/movilizacion/solicitante/masiva?codigo=${CODE}`);
    await page.getByTestId('bulk-checking').waitFor();
    await page.getByTestId('splash').waitFor({ state: 'detached' });

    // Three minutes of a running job with nobody at the keyboard: the screen stays open.
    await pass(page, 180_000);
    expect(await page.getByTestId('lock-screen').count()).toBe(0);
    expect(await page.getByTestId('bulk-checking').count()).toBe(1);

    // The job ends: its last progress read, then a minute with nobody at the keyboard locks.
    running = false;
    await pass(page, 10_000);
    await page.getByTestId('bulk-checking').waitFor({ state: 'detached' });
    await page.clock.runFor(61_000);
    await page.getByTestId('lock-screen').waitFor();
    await page.context().close();
    await adminApi('PUT', '/api/rest/user/SOLICITANTE', { ...user });
    expect(problems).toEqual([]);
  });
});
