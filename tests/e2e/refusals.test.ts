/**
 * Every refusal says why, where the user looks: a greyed decision names its reason on hover and
 * on keyboard focus (SUPERVISOR, whose decision it is not; AUTORIZADOR, while lines are open), an
 * authoriser's own line says which lines it waits for, and a mass decision refused names the
 * request and its rule in words.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import en from '../../locales/en.json' with { type: 'json' };
import es from '../../locales/es.json' with { type: 'json' };
import { launchBrowser, PHONE } from '../support/browser.js';
import { signInBySession } from '../support/console.js';
import { mailText, startMailServer } from '../support/mail.js';
import { asUser, setLine } from '../support/request-screens.js';
import { type RunningServer, startRealServer } from '../support/server.js';

// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON
type Json = any;
const SOUTH = 'UNIDAD MINERA SAN GABRIEL';
const ACTIONS = ['DEVOLVER', 'RECHAZAR', 'OBSERVAR', 'APROBAR'] as const;

describe('refusals in a real browser', () => {
  let server: RunningServer;
  let browser: Browser;
  let smtp: Awaited<ReturnType<typeof startMailServer>>;
  const problems: string[] = [];
  const { api, go } = asUser(() => server.url);

  const open = async (user: string, device: 'desktop' | 'phone') => {
    const context = await browser.newContext(
      device === 'phone' ? PHONE : { viewport: { width: 1400, height: 900 } },
    );
    const page = await context.newPage();
    page.setDefaultTimeout(20_000);
    page.on('pageerror', (error) => problems.push(`${user} pageerror: ${error.message}`));
    const before = smtp.mails.length;
    await signInBySession(page, server.url, user, {
      at: null,
      division: SOUTH,
      code: async () => {
        await expect.poll(() => smtp.mails.length, { timeout: 20_000 }).toBeGreaterThan(before);
        return /(\d{4})/.exec(mailText(smtp.mails[smtp.mails.length - 1].raw))?.[1] ?? '';
      },
    });
    return page;
  };
  /** A worker's mobilisation the demo left pending, as the authoriser lists them. */
  const pendingMobilisation = async (page: Page) => {
    const listed = (await api(page, 'GET', '/api/acreditacionsolicitud/filtrar?take=200')) as Json;
    const found = (listed.data as Json[]).find((r) => r.EstadoAprobacion === 'P' && r.IdEntidad === 'T');
    expect(found).toBeDefined();
    return found.IdSolicitud as number;
  };

  beforeAll(async () => {
    smtp = await startMailServer();
    server = await startRealServer({ SMTP_URL: `smtp://127.0.0.1:${smtp.port}` });
    browser = await launchBrowser();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await smtp?.close();
  });

  it('SUPERVISOR, in Spanish: no decision on a worker’s request is theirs, and each greyed button says so on hover and focus', async () => {
    const page = await open('SUPERVISOR', 'desktop');
    const id = await pendingMobilisation(page);
    await go(page, `/movilizacion/autorizador/persona/${id}`, 'es');
    const reason = es.accreditation.refusals.notYourDecision;
    for (const action of ACTIONS) {
      const button = page.locator(`[data-action="${action}"]`);
      expect(await button.getAttribute('aria-disabled')).toBe('true');
      await button.hover();
      await expect.poll(() => page.getByRole('tooltip').textContent()).toBe(reason);
      // Pressed anyway, nothing happens.
      await button.click({ force: true });
      expect(await page.getByRole('dialog').count()).toBe(0);
      await page.mouse.move(0, 0);
      await page.getByRole('tooltip').waitFor({ state: 'detached' });
    }
    // From the keyboard: the reason is read on focus too.
    await page.locator('[data-action="DEVOLVER"]').focus();
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Tab');
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-action')))
      .toBe('DEVOLVER');
    await expect.poll(() => page.getByRole('tooltip').textContent()).toBe(reason);
    const described = await page.evaluate(() => {
      const id = document.activeElement?.getAttribute('aria-describedby') ?? '';
      return document.getElementById(id)?.textContent;
    });
    expect(described).toBe(reason);
    const record = (await api(
      page,
      'GET',
      `/api/acreditacionsolicitud/obtenersolicitudbyautorizador?IdSolicitud=${id}`,
    )) as Json;
    expect(record.EstadoAprobacion).toBe('P');
    expect(problems).toEqual([]);
  }, 120_000);

  it('AUTORIZADOR, in English on a phone: approving says what it waits for, and their own line which lines', async () => {
    const page = await open('AUTORIZADOR', 'phone');
    const id = await pendingMobilisation(page);
    await go(page, `/movilizacion/autorizador/persona/${id}`, 'en');
    const approve = page.locator('[data-action="APROBAR"]');
    await approve.waitFor();
    expect(await approve.getAttribute('aria-disabled')).toBe('true');
    const reason = await approve.getAttribute('data-reason');
    expect(reason).toMatch(
      /^To approve, every requirement must be approved: \d+ still pending, \d+ observed and \d+ rejected\.$/,
    );
    await approve.focus();
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Tab');
    await expect.poll(() => page.getByRole('tooltip').textContent()).toBe(reason);
    // An authoriser-type line waits for the requester's lines, named.
    const waits = page.locator('[data-waits]').first();
    await waits.waitFor();
    const text = await waits.textContent();
    expect(text).toMatch(/^It can be approved once these are approved: .+ · .+\.$/);
    expect(text).not.toMatch(/\b\d{3,}\b/);
    await waits.scrollIntoViewIfNeeded();
    await page.screenshot({ path: 'test-results/refusals-phone-waits.png' });
    // A line observed without its observation: saving marks the observation and takes the user there.
    const line = (await page
      .locator('.requirement-item[data-kind="S"] .evaluation')
      .first()
      .getAttribute('data-evaluate')) as string;
    await setLine(page, line, 'O');
    await page.getByTestId('save-evaluation').click();
    const observation = page.locator(`[data-observation="${line}"]`);
    await expect.poll(() => observation.getAttribute('aria-invalid')).toBe('true');
    expect(await observation.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(
      await observation.evaluate((el) => {
        const box = el.getBoundingClientRect();
        return box.top >= 0 && box.bottom <= window.innerHeight;
      }),
    ).toBe(true);
    await approve.scrollIntoViewIfNeeded();
    await page.screenshot({ path: 'test-results/refusals-phone-approve.png' });
    expect(problems).toEqual([]);
  }, 120_000);

  it('a mass decision refused names each request and its rule in words', async () => {
    const requester = await open('SOLICITANTE', 'desktop');
    const authoriser = await open('AUTORIZADOR', 'desktop');
    const [worker] = (
      (await api(requester, 'POST', '/api/acreditaciondesmovilizacion/filtrarNuevoSolicitante', {
        IdEntidad: 'T',
      })) as Json[]
    ).filter((c) => c.Estado === 'A');
    const made = (await api(requester, 'POST', '/api/acreditaciondesmovilizacion/crear', {
      IdEntidad: 'T',
      Acreditaciones: [worker.IdAcreditacion],
      Observacion: 'Fin del contrato',
    })) as Json;
    const id = made.Solicitudes[0].IdSolicitud as number;
    await go(authoriser, '/desmovilizacion/autorizador/persona', 'es');
    // Pressed before anything is picked, it says to select a row (spec section 8) and decides nothing.
    await authoriser.getByRole('button', { name: /^Aprobar 0$/ }).click();
    await authoriser.getByText(es.app.selectRow).waitFor();
    expect(await authoriser.getByRole('dialog').count()).toBe(0);
    await authoriser.locator(`[data-testid="demobilisation-${id}"] input[type="checkbox"]`).check();
    // Observing without a reason marks the reason's field and takes the user to it.
    await authoriser.getByRole('button', { name: 'Observar' }).click();
    const reasonField = authoriser.getByLabel('Observación o motivo');
    await expect.poll(() => reasonField.getAttribute('aria-invalid')).toBe('true');
    expect(await reasonField.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await authoriser.getByText(es.demobilisation.reasonFirst).count()).toBe(1);
    // Meanwhile someone else rejects it.
    await api(authoriser, 'POST', '/api/acreditaciondesmovilizacion/actualizarautorizador', {
      IdSolicitud: id,
      Accion: 'RECHAZAR',
      MotivoRechazo: 'Documento equivocado',
    });
    await authoriser.getByRole('button', { name: 'Aprobar 1' }).click();
    await authoriser.getByRole('button', { name: 'Aprobar y desmovilizar 1' }).click();
    const refusal = authoriser.getByTestId('refusal');
    await refusal.waitFor();
    const number = String(id).padStart(8, '0');
    const item = await refusal.locator('li').first().textContent();
    expect(item).toBe(
      `${number} · ${worker.Apellido} ${worker.Nombre} (${worker.Documento}): ${es.accreditation.refusals.notPending}`,
    );
    expect(await refusal.textContent()).not.toContain('Solicitudes.');
    expect(en.accreditation.refusals.notPending).toBeTruthy();
    expect(problems).toEqual([]);
  }, 120_000);
});
