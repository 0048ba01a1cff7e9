import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import en from '../../locales/en.json';
import { siteDate } from '../../src/shared/dates.js';
import { seriousAxeFindings } from '../support/axe.js';
import { launchBrowser, PHONE } from '../support/browser.js';
import { signInBySession } from '../support/console.js';
import { api as call, sessionOf } from '../support/processes.js';
import { asUser } from '../support/request-screens.js';
import { type RunningServer, startRealServer } from '../support/server.js';
import { drawingProblems } from '../support/shots.js';

// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON
type Json = any;
const SOUTH = 'UNIDAD MINERA SAN GABRIEL';
/** Text that shows a translation key instead of its text. */
const RAW_KEY = /\b(?:induction|resources|enums|app|ra)\.[a-zA-Z-]+\.[a-zA-Z]/;
const today = siteDate('PE');
const screens = en.induction.screens;

/**
 * The Inductions module as a contractor's requester uses it (SOLICITANTE, English, a phone): it
 * books a contract's crew on a general induction of today, sees them booked, and once the trainer
 * has taken attendance, scored and closed the session (through the API, as INDUCCION), sees who
 * passed and who failed; then a worker opens the online test's link of a booking, without signing
 * in, answers, and sees the result.
 */
describe('inductions as a requester in a real browser (English, phone)', () => {
  let server: RunningServer;
  let browser: Browser;
  let page: Page;
  let trainerToken: string;
  let sessionId: number;
  let online: { IdInscripcion: number; Persona: string; IdCurso: number };
  const problems: string[] = [];
  const { api } = asUser(() => server.url);

  /** A call as the trainer; the answer's `result`. */
  const asTrainer = (method: string, path: string, body?: object): Promise<Json> =>
    call(server.url, method, path, trainerToken, body);
  const watch = (where: Page, who: string) =>
    where.on('pageerror', (error) => problems.push(`${who} pageerror: ${error.message}`));
  const check = async (where: Page, name: string) => {
    problems.push(...(await drawingProblems(where, name, RAW_KEY)));
    for (const finding of await seriousAxeFindings(where)) problems.push(`${name}: ${finding}`);
  };
  /** A worker's card in a list of the "my workers' inductions" view (a phone shows cards). */
  const card = (list: string, text: string) =>
    page.locator(`[data-testid="${list}"] li`).filter({ hasText: text });

  beforeAll(async () => {
    server = await startRealServer();
    browser = await launchBrowser();
    trainerToken = await sessionOf(server.url, 'INDUCCION', SOUTH);
    const courses = (await asTrainer('GET', '/api/rest/course?range=[0,99]')) as Json[];
    const course = (code: string) => courses.find((c) => c.Codigo === code).IdCurso as number;
    // A general induction today, for the crew the requester books.
    sessionId = (
      await asTrainer('POST', '/api/rest/training-session', {
        IdCurso: course('IND-GEN'),
        Fecha: today,
        HoraInicio: '08:00',
        HoraFin: '17:00',
        Sala: 'SALA E2E',
        Capacidad: 12,
        IdInstructor: 'INDUCCION',
        Idioma: 'ES',
      })
    ).IdSesion;

    const context = await browser.newContext({ ...PHONE, locale: 'en-GB' });
    page = await context.newPage();
    page.setDefaultTimeout(20_000);
    watch(page, 'SOLICITANTE');
    await signInBySession(page, server.url, 'SOLICITANTE', { division: SOUTH, at: null });
    // One of its workers booked on the demo's online visitor induction of today.
    const visitor = course('IND-VIS');
    const filter = encodeURIComponent(JSON.stringify({ IdCurso: visitor, Fecha: today }));
    const [visitorsToday] = (await api(page, 'GET', `/api/rest/training-session?filter=${filter}`)) as Json[];
    const [worker] = (await api(page, 'GET', '/api/induccion/candidatos?buscar=TORRES')) as Json[];
    const booked = await api(page, 'POST', `/api/induccion/sesiones/${visitorsToday.IdSesion}/reservas`, {
      IdPersonas: [worker.IdPersona],
    });
    online = { IdInscripcion: booked.reservados[0].IdInscripcion, Persona: worker.Persona, IdCurso: visitor };
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('books a contract’s crew, sees them booked, then who passed once the session is closed', async () => {
    await page.goto(`${server.url}/induccion/reservas?lang=en`);
    await page.getByTestId(`book-session-${sessionId}`).click();
    const dialog = page.getByRole('dialog');
    await dialog.locator('[data-source="contract"]').click();
    await page.locator('#crew-contract').click();
    await page.getByRole('option', { name: /CT-2026-001/ }).click();
    // The contract's workers booked on the course already or holding it say so and stay unticked.
    await dialog.getByTestId('tick-all').locator('input').check();
    const chips = dialog.locator('[data-testid="chosen"] .MuiChip-label');
    await expect.poll(() => chips.count()).toBeGreaterThanOrEqual(2);
    const crew = await chips.allInnerTexts();
    await expect
      .poll(() => dialog.locator('li[data-person] [data-detail]').allInnerTexts())
      .toContainEqual(expect.stringMatching(/holds it until|already booked/));
    await check(page, 'booking dialog');
    await dialog.getByTestId('book-chosen').click();
    await expect
      .poll(() => page.getByTestId('booking-notice').innerText())
      .toMatch(new RegExp(`^${crew.length} workers booked on GENERAL SAFETY`));

    await page
      .getByTestId('booking-notice')
      .getByRole('button', { name: screens.bookings.seeWorkers })
      .click();
    for (const name of crew)
      await expect.poll(() => card('worker-bookings', name).innerText()).toContain(en.enums.bookingState.R);
    await check(page, 'workers’ inductions');

    // The trainer: attendance by each one's document, the first passes and the others fail, closed.
    const detail = await asTrainer('GET', `/api/induccion/sesiones/${sessionId}`);
    for (const booking of detail.reservas)
      await asTrainer('POST', `/api/induccion/sesiones/${sessionId}/asistencia`, {
        codigo: booking.Documento,
      });
    const [passer, ...failers] = detail.reservas as Json[];
    await asTrainer('PUT', `/api/induccion/sesiones/${sessionId}/resultados`, {
      resultados: detail.reservas.map((b: Json) => ({
        IdInscripcion: b.IdInscripcion,
        Asistio: 'S',
        Nota: b === passer ? 92 : 40,
      })),
    });
    expect(await asTrainer('POST', `/api/induccion/sesiones/${sessionId}/cerrar`)).toMatchObject({
      aprobados: 1,
      desaprobados: failers.length,
    });

    await page.reload();
    await page.getByRole('tab', { name: screens.bookings.workers }).click();
    const passed = card('passed-inductions', passer.Persona).filter({ hasText: 'GENERAL SAFETY' });
    await expect.poll(() => passed.innerText()).toContain(screens.workers.standing.valid);
    expect(await passed.innerText()).toContain('92');
    for (const failer of failers)
      await expect
        .poll(() => card('worker-bookings', failer.Persona).innerText())
        .toContain(en.enums.bookingState.D);
    expect(problems).toEqual([]);
  }, 120_000);

  it('gives a worker the online test’s link, which it takes without signing in', async () => {
    await page.getByTestId(`test-link-${online.IdInscripcion}`).click();
    const link = page.getByTestId('test-link');
    await expect.poll(() => link.inputValue()).toContain('/prueba-induccion/');
    const address = await link.inputValue();
    await page.getByRole('dialog').getByRole('button', { name: 'Close' }).click();

    // The worker's phone, in English: the page follows the browser's language.
    const worker = await (await browser.newContext({ ...PHONE, locale: 'en-US' })).newPage();
    worker.setDefaultTimeout(20_000);
    watch(worker, 'worker');
    await worker.goto(address);
    await expect.poll(() => worker.getByTestId('test-course').innerText()).toBe('VISITOR INDUCTION');
    const questions = (await asTrainer(
      'GET',
      `/api/rest/course-question?filter=${encodeURIComponent(JSON.stringify({ IdCurso: online.IdCurso }))}`,
    )) as Json[];
    const shown = worker.locator('[data-question]');
    await expect.poll(() => shown.count()).toBe(5);
    for (let i = 0; i < 5; i++) {
      const text = await shown.nth(i).locator('[id^="question-"]').innerText();
      const asked = questions.find((q) => text.includes(q.Pregunta));
      await shown.nth(i).locator(`[data-option="${asked.Correcta}"]`).click();
    }
    await check(worker, 'online test');
    await worker.getByTestId('submit-test').click();
    const outcome = worker.getByTestId('test-outcome');
    await expect.poll(() => outcome.getAttribute('data-passed')).toBe('true');
    expect(await outcome.innerText()).toContain('Passed with 100.');
    expect(problems).toEqual([]);
  }, 60_000);
});
