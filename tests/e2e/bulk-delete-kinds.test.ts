import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import en from '../../locales/en.json' with { type: 'json' };
import es from '../../locales/es.json' with { type: 'json' };
import { requestNumber } from '../../src/shared/accreditation.js';
import { launchBrowser, PHONE } from '../support/browser.js';
import { signedInPage } from '../support/console.js';
import { asUser, type Lang } from '../support/request-screens.js';
import { type RunningServer, startRealServer } from '../support/server.js';

// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON
type Json = any;
const SOUTH = 'UNIDAD MINERA SAN GABRIEL';
const RENEWAL = '/api/acreditacionrequisitosolicitud';
const DEMOBILISATION = '/api/acreditaciondesmovilizacion';

/**
 * Bulk delete on the requester's requirement update and demobilisation screens (spec section 4),
 * as on the mobilisation requests: pressed with nothing ticked it says "Select a row" (spec
 * section 8); the incomplete requests ticked are deleted after a confirmation, and one that could
 * not be is named with its reason ("Some records could not be deleted"). A sent request offers
 * no tick. On a desktop in Spanish and on a phone in English.
 */
describe('bulk delete of requirement updates and demobilisations in a real browser', () => {
  let server: RunningServer;
  let browser: Browser;
  const problems: string[] = [];
  const calls = asUser(() => server.url);
  /** The accredited workers' held requirements, one renewal each: taken three at a time. */
  const pairs: Array<{ person: number; requirement: number }> = [];

  beforeAll(async () => {
    server = await startRealServer();
    browser = await launchBrowser();
    const page = await signedInPage(browser, server.url, 'SOLICITANTE', problems, { division: SOUTH });
    const accredited = (
      (await calls.api(page, 'POST', `${DEMOBILISATION}/filtrarNuevoSolicitante`, {
        IdEntidad: 'T',
      })) as Json[]
    ).filter((c) => c.Estado === 'A');
    for (const row of accredited) {
      const held = (await calls.api(
        page,
        'GET',
        `${RENEWAL}/requisitosacreditados?IdEntidad=T&IdPersona=${row.IdPersona}`,
      )) as Json[];
      for (const r of held) pairs.push({ person: row.IdPersona, requirement: r.IdRequisito });
    }
    expect(pairs.length).toBeGreaterThanOrEqual(6);
    await page.context().close();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  for (const [lang, viewport] of [
    ['es', { viewport: { width: 1400, height: 900 } }],
    ['en', PHONE],
  ] as const) {
    const t = (es: string, en: string) => (lang === 'es' ? es : en);
    const words = lang === 'es' ? es : en;
    const open = () =>
      signedInPage(browser, server.url, 'SOLICITANTE', problems, { context: viewport, division: SOUTH });

    it(`deletes the ticked incomplete requirement updates and names the one it could not (${lang}, ${'isMobile' in viewport ? 'phone' : 'desktop'})`, async () => {
      const page = await open();
      const ids: number[] = [];
      for (const pair of pairs.splice(0, 3)) {
        const made = await calls.api(page, 'POST', `${RENEWAL}/crear`, {
          IdEntidad: 'T',
          IdPersona: pair.person,
          IdRequisito: pair.requirement,
        });
        expect(made.IdSolicitud, JSON.stringify(made)).toBeGreaterThan(0);
        ids.push(made.IdSolicitud);
      }
      await calls.go(page, '/requisito/solicitante/persona', lang as Lang);
      const table = page.getByTestId('renewal-solicitante');
      for (const id of ids) await table.getByTestId(`renewal-request-${id}`).waitFor();
      // Nothing ticked: pressing says to select a row, and asks nothing.
      const remove = page.getByTestId('delete-selected');
      await remove.click();
      await page.getByText(words.app.selectRow).waitFor();
      expect(await page.getByRole('dialog').count()).toBe(0);
      for (const id of ids)
        await table
          .getByRole('checkbox', {
            name: t(`Seleccionar la solicitud ${requestNumber(id)}`, `Select request ${requestNumber(id)}`),
          })
          .check();
      await expect.poll(() => remove.textContent()).toContain('(3)');
      // Meanwhile the third is deleted elsewhere: it is named with its reason, the others go.
      await calls.api(page, 'DELETE', `${RENEWAL}/eliminar?IdSolicitud=${ids[2]}`);
      await remove.click();
      await page
        .getByRole('dialog')
        .getByRole('button', { name: t('Eliminar', 'Delete') })
        .click();
      await page
        .getByText(
          `${t('Algunos registros no pudieron eliminarse', 'Some records could not be deleted')}: ${requestNumber(ids[2])} (${words.api.errors.NOT_FOUND})`,
        )
        .waitFor();
      for (const id of ids) await table.getByTestId(`renewal-request-${id}`).waitFor({ state: 'detached' });
      const left = (
        (await calls.api(page, 'GET', `${RENEWAL}/filtrar?take=1000&IdEntidad=T`)).data as Json[]
      ).map((r) => r.IdSolicitud);
      for (const id of ids) expect(left).not.toContain(id);
      // A sent or answered one offers no tick.
      const sent = (
        (await calls.api(page, 'GET', `${RENEWAL}/filtrar?take=1000&IdEntidad=T`)).data as Json[]
      ).find((r) => r.EstadoAprobacion !== 'I');
      if (sent)
        expect(
          await table.getByTestId(`renewal-request-${sent.IdSolicitud}`).getByRole('checkbox').isDisabled(),
        ).toBe(true);
      await page.screenshot({ path: `test-results/bulk-delete-renewal-${lang}.png`, fullPage: true });
      await page.context().close();
    }, 120_000);

    it(`offers the bulk delete on demobilisations, where a sent one offers no tick (${lang}, ${'isMobile' in viewport ? 'phone' : 'desktop'})`, async () => {
      const page = await open();
      const [worker] = (
        (await calls.api(page, 'POST', `${DEMOBILISATION}/filtrarNuevoSolicitante`, {
          IdEntidad: 'T',
        })) as Json[]
      ).filter((c) => c.Estado === 'A');
      const made = await calls.api(page, 'POST', `${DEMOBILISATION}/crear`, {
        IdEntidad: 'T',
        Acreditaciones: [worker.IdAcreditacion],
        Observacion: 'Fin de la obra civil',
      });
      const id = made.Solicitudes[0].IdSolicitud as number;
      await calls.go(page, '/desmovilizacion/solicitante/persona', lang as Lang);
      const row = page.getByTestId(`demobilisation-${id}`);
      await row.waitFor();
      // A demobilisation is sent when it is filed: its tick is greyed, and nothing ticked says so.
      expect(await row.getByRole('checkbox').isDisabled()).toBe(true);
      await page.getByTestId('delete-selected').click();
      await page.getByText(words.app.selectRow).waitFor();
      expect(await page.getByRole('dialog').count()).toBe(0);
      const kept = (await calls.api(page, 'POST', `${DEMOBILISATION}/FiltrarSolicitante`, { take: 200 }))
        .data as Json[];
      expect(kept.map((r) => r.IdSolicitud)).toContain(id);
      await page.screenshot({ path: `test-results/bulk-delete-demobilisation-${lang}.png`, fullPage: true });
      await page.context().close();
    }, 120_000);
  }

  it('said nothing wrong in the console', () => {
    expect(problems).toEqual([]);
  });
});
