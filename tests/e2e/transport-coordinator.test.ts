import { mkdirSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import es from '../../locales/es.json';
import { type Database, openDatabase } from '../../src/server/db/connection.js';
import { addDays, siteDate } from '../../src/shared/dates.js';
import { seriousAxeFindings } from '../support/axe.js';
import { launchBrowser } from '../support/browser.js';
import { signedInPage } from '../support/console.js';
import { accreditCrew } from '../support/lodging.js';
import { api, sessionOf } from '../support/processes.js';
import { asUser } from '../support/request-screens.js';
import { type RunningServer, startRealServer } from '../support/server.js';
import { drawingProblems, screenshot } from '../support/shots.js';
import { divisionNamed, driverAndBus, giveBadges, namesOf, putOnRoster } from '../support/transport.js';

const SOUTH = 'UNIDAD MINERA SAN GABRIEL';
const SHOTS = '/tmp/transport-shots';
const PLATE = 'E2E-701';
const ROSTER = 'GUARDIA DÍA 14X7';
const RAW_KEY = /\b(?:transport|resources|enums|app|ra)\.[a-zA-Z-]+\.[a-zA-Z]/;
const text = es.transport.screens;
/** A polyglot text with its placeholders filled, in the form for `count` (Spanish: one, or more). */
const say = (template: string, values: Record<string, string | number>, count?: number) => {
  const forms = template.split(' |||| ');
  const chosen = count === undefined ? template : (forms[count === 1 ? 0 : 1] ?? forms[0]);
  return Object.entries(values).reduce((s, [k, v]) => s.replaceAll(`%{${k}}`, String(v)), chosen);
};

/**
 * The transport coordinator's screens in a real browser, as TRANSPORTE in Spanish on a desktop: a
 * roster's timetable made through its dialog puts a trip on today, the day's change of shift (three
 * workers on a 14×7 roster whose first day of work is today, living in Arequipa) is proposed on it
 * and confirmed; on the trip's page one badge typed by hand boards its holder, a fourth worker not
 * booked boards as an exception with a reason, the trip departs and lists its two no-shows; the
 * live board shows the trip on the road with the boarded on its bus.
 */
describe('the coordinator schedules, proposes, boards and sees the trip on the road', () => {
  let server: RunningServer;
  let database: Database;
  let browser: Browser;
  let page: Page;
  let crew: number[];
  let badges: Map<number, string>;
  const people = new Map<number, { Documento: string; Persona: string }>();
  const problems: string[] = [];
  const today = siteDate('PE');
  const { go } = asUser(() => server.url);

  beforeAll(async () => {
    server = await startRealServer();
    mkdirSync(SHOTS, { recursive: true });
    database = openDatabase({ dataDir: server.dataDir });
    const db = database.db;
    const south = await divisionNamed(db, SOUTH);
    // Four workers of SERMIPAC living in Arequipa, each with a badge: three go up today by their roster.
    crew = (await accreditCrew(db, { company: 'SERMIPAC', division: south, count: 4, prefix: 'EV', today }))
      .people;
    await db
      .updateTable('administration_person')
      .set({ IdUbigeoResidencia: 'PE040101' })
      .where('IdPersona', 'in', crew)
      .execute();
    await putOnRoster(db, crew.slice(0, 3), ROSTER, today);
    badges = await giveBadges(db, crew, 'EVB');
    for (const [id, named] of await namesOf(db, crew)) people.set(id, named);
    // A driver of the transport contractor with the licence a bus needs, and a bus of its own.
    const coordinator = await sessionOf(server.url, 'TRANSPORTE', SOUTH);
    await driverAndBus(db, { division: south, plate: PLATE, seats: 20, today, prefix: 'EC' }, (body) =>
      api(server.url, 'POST', '/api/rest/transport-bus', coordinator, body),
    );
    browser = await launchBrowser();
    page = await signedInPage(browser, server.url, 'TRANSPORTE', problems, {
      context: { viewport: { width: 1366, height: 768 }, locale: 'es-PE' },
      division: SOUTH,
    });
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await database?.close();
    await server?.stop();
  });

  const look = async (where: string) => {
    problems.push(...(await drawingProblems(page, where, RAW_KEY)));
    for (const finding of await seriousAxeFindings(page)) problems.push(`${where}: ${finding}`);
    await screenshot(page, `${SHOTS}/${where.replaceAll(' ', '-')}.png`, true);
  };
  const choose = async (id: string, option: RegExp) => {
    await page.locator(`#${id}`).click();
    await page.getByRole('option', { name: option }).click();
    await expect.poll(() => page.getByRole('listbox').count()).toBe(0);
  };
  const who = (i: number) => people.get(crew[i]) as { Documento: string; Persona: string };
  const notice = () => page.getByTestId('trips-notice').innerText();

  it('makes a timetable, proposes and confirms the manifest, boards, departs and sees it on the board', async () => {
    await go(page, '/transporte/viajes', 'es');
    await page.getByTestId('trips-timetable').click();
    await choose('timetable-roster', new RegExp(`^${ROSTER}$`));
    await choose('timetable-route', /^AQP-UM · /);
    await page.locator('#timetable-hour').fill('20:30');
    await choose('timetable-bus', new RegExp(`^${PLATE} · `));
    await page.locator('#timetable-driver').fill('CUADRILLA EC');
    await page.getByRole('option', { name: /^CUADRILLA EC TRABAJADOR 01 · / }).click();
    await page.getByTestId('timetable-save').click();
    // From today for four weeks: today and three weeks later are the roster's days up.
    const done = say(
      text.timetable.done,
      { smart_count: 2, first: fmt(today), last: fmt(addDays(today, 21)) },
      2,
    );
    await expect.poll(notice).toBe(done);
    const row = page.getByTestId('transport-trips').locator('tr').filter({ hasText: PLATE });
    await expect.poll(() => row.count()).toBe(1);
    const tripId = Number(await row.locator('[data-trip]').getAttribute('data-trip'));
    await look('trips es');

    // The day's change of shift: the three on the roster proposed on the trip, and confirmed.
    await page.getByTestId('trips-proposal').click();
    const proposed = page.locator(`[data-proposed-trip="${tripId}"] li[data-person]`);
    await expect.poll(() => proposed.count()).toBeGreaterThanOrEqual(3);
    for (const i of [0, 1, 2])
      expect(
        await proposed
          .filter({ hasText: who(i).Documento })
          .locator('input')
          .isChecked(),
      ).toBe(true);
    expect(await page.locator(`li[data-person="${who(3).Documento}"]`).count()).toBe(0);
    const count = await page.locator('[data-testid="proposal"] li[data-person] input:checked').count();
    await look('proposal es');
    await page.getByTestId('proposal-confirm').click();
    await expect.poll(notice).toMatch(new RegExp(`^${count} reservas? confirmadas? en `));

    // The trip's page: the first worker's badge boards them on their seat.
    await row.click();
    const seats = page.getByTestId('trip-seats');
    for (const i of [0, 1, 2]) await expect.poll(() => seats.innerText()).toContain(who(i).Persona);
    await page.locator('#boarding-badge').fill(badges.get(crew[0]) as string);
    await page.getByTestId('boarding-send').click();
    const answer = page.getByTestId('boarding-answer');
    await expect.poll(() => answer.getAttribute('data-reason')).toBe('BOARD');
    expect(await answer.innerText()).toContain(`${es.transport.boarding.BOARD} — ${who(0).Persona}`);
    await expect
      .poll(() =>
        seats
          .locator('tr')
          .filter({ hasText: who(0).Documento })
          .innerText(),
      )
      .toContain(es.enums.seatState.A);

    // The fourth worker is accredited but not booked: boarded as an exception, with the reason.
    await page.locator('#boarding-badge').fill(badges.get(crew[3]) as string);
    await page.getByTestId('boarding-send').click();
    await expect.poll(() => answer.getAttribute('data-reason')).toBe('NOT_BOOKED');
    await page.getByTestId('boarding-exception').click();
    await page.locator('#boarding-exception').fill('Reemplazo de guardia');
    await page.getByTestId('boarding-exception-send').click();
    await expect.poll(() => answer.getAttribute('data-reason')).toBe('EXCEPTION');
    await expect
      .poll(() =>
        seats
          .locator('tr')
          .filter({ hasText: who(3).Documento })
          .innerText(),
      )
      .toContain('Reemplazo de guardia');
    await look('trip boarding es');

    // Departure: the two who did not board are listed as no-shows.
    await page.getByTestId('trip-depart').click();
    await page.getByRole('dialog').getByRole('button', { name: text.trip.depart }).click();
    const noShows = page.getByTestId('no-shows');
    await expect.poll(() => noShows.locator('[data-no-show]').count()).toBeGreaterThanOrEqual(2);
    for (const i of [1, 2]) expect(await noShows.innerText()).toContain(who(i).Persona);
    expect(await noShows.innerText()).not.toContain(who(0).Persona);
    await expect.poll(() => page.getByTestId('transport-trip').getAttribute('data-state')).toBe('S');
    await look('trip departed es');

    // The live board: the trip on the road, its boarded on its bus.
    await go(page, '/transporte/tablero', 'es');
    const trip = page.locator(`[data-board-trip="${tripId}"]`);
    await expect.poll(() => trip.getAttribute('data-state')).toBe('S');
    expect(await trip.innerText()).toContain(es.enums.tripState.S);
    const bus = page.locator(`[data-bus="${PLATE}"]`);
    await expect.poll(() => bus.locator('[data-rider]').count()).toBe(2);
    for (const i of [0, 3]) expect(await bus.innerText()).toContain(who(i).Persona);
    await look('board es');
    expect(problems).toEqual([]);
  }, 180_000);
});

/** A date as the console shows it: dd/MM/yyyy. */
function fmt(date: string) {
  const [y, m, d] = date.split('-');
  return `${d}/${m}/${y}`;
}
