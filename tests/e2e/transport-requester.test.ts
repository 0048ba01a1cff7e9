import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import en from '../../locales/en.json';
import { type Database, openDatabase } from '../../src/server/db/connection.js';
import { siteDate } from '../../src/shared/dates.js';
import { seriousAxeFindings } from '../support/axe.js';
import { launchBrowser, PHONE } from '../support/browser.js';
import { signedInPage } from '../support/console.js';
import { accreditCrew } from '../support/lodging.js';
import { api, sessionOf } from '../support/processes.js';
import { asUser } from '../support/request-screens.js';
import { type RunningServer, startRealServer } from '../support/server.js';
import { drawingProblems } from '../support/shots.js';
import { divisionNamed, driverAndBus, namesOf } from '../support/transport.js';

// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON
type Json = any;
const SOUTH = 'UNIDAD MINERA SAN GABRIEL';
const PLATE = 'E2E-702';
const RAW_KEY = /\b(?:transport|resources|enums|app|ra)\.[a-zA-Z-]+\.[a-zA-Z]/;

/**
 * A contractor's requester's bus seats in a real browser (SOLICITANTE, English, a phone): on a trip
 * the coordinator scheduled for tonight (made through the API as TRANSPORTE, on a bus and with a
 * driver of the test's own), it finds two of its new workers, books them, and sees them listed
 * with their seats among its own bookings on the trip.
 */
describe('bus seats as a requester in a real browser (English, phone)', () => {
  let server: RunningServer;
  let database: Database;
  let browser: Browser;
  let page: Page;
  let tripId: number;
  let workers: Array<{ Documento: string; Persona: string }>;
  const problems: string[] = [];
  const today = siteDate('PE');
  const { go } = asUser(() => server.url);

  beforeAll(async () => {
    server = await startRealServer();
    database = openDatabase({ dataDir: server.dataDir });
    const db = database.db;
    const south = await divisionNamed(db, SOUTH);
    // Two new workers of the requester's company, a driver of the transport contractor and a bus.
    const crew = (
      await accreditCrew(db, { company: 'SERMIPAC', division: south, count: 2, prefix: 'ES', today })
    ).people;
    workers = [...(await namesOf(db, crew)).values()];
    const coordinator = await sessionOf(server.url, 'TRANSPORTE', SOUTH);
    const { driver, bus } = await driverAndBus(
      db,
      { division: south, plate: PLATE, seats: 12, today, prefix: 'ED' },
      (body) => api(server.url, 'POST', '/api/rest/transport-bus', coordinator, body),
    );
    const routes = (await api(
      server.url,
      'GET',
      '/api/rest/transport-route?range=[0,99]',
      coordinator,
    )) as Json[];
    const trip = await api(server.url, 'POST', '/api/rest/trip', coordinator, {
      IdRuta: routes.find((r) => r.Codigo === 'AQP-UM').IdRuta,
      Fecha: today,
      Hora: '21:00',
      Sentido: 'B',
      IdBus: bus,
      IdConductor: driver,
    });
    tripId = Number(trip.IdViaje);
    browser = await launchBrowser();
    page = await signedInPage(browser, server.url, 'SOLICITANTE', problems, {
      context: { ...PHONE, locale: 'en-GB' },
      division: SOUTH,
    });
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await database?.close();
    await server?.stop();
  });

  const check = async (where: string) => {
    problems.push(...(await drawingProblems(page, where, RAW_KEY)));
    for (const finding of await seriousAxeFindings(page)) problems.push(`${where}: ${finding}`);
  };

  it('books two of its workers on a trip and sees them with their seats', async () => {
    await go(page, '/transporte/asientos', 'en');
    const choose = page.getByTestId(`choose-trip-${tripId}`);
    await choose.waitFor();
    expect(await page.locator(`[data-seats="${tripId}"]`).innerText()).toContain('12 seats free');
    await check('seats trips en');
    await choose.click();

    await page.locator('#transport-people-search').fill('CUADRILLA ES');
    for (const w of workers) await page.locator(`li[data-person="${w.Documento}"] input`).check();
    const book = page.getByTestId('seats-book');
    await expect.poll(() => book.textContent()).toBe('Book 2 people');
    await book.click();
    await expect.poll(() => page.getByTestId('seats-notice').innerText()).toBe('2 workers booked.');

    // Its own bookings on the trip, each with its seat (the phone shows them as cards).
    const mine = page.getByTestId('trip-seats');
    const seats: string[] = [];
    for (const w of workers) {
      const card = mine.locator('li').filter({ hasText: w.Documento });
      await expect.poll(() => card.innerText()).toContain(w.Persona);
      expect(await card.innerText()).toContain(en.enums.seatState.R);
      seats.push(await card.locator(`[data-seat="${w.Documento}"]`).innerText());
    }
    expect(seats.sort()).toEqual(['1', '2']);
    // Booked already: they cannot be ticked again.
    await expect
      .poll(() => page.locator(`li[data-person="${workers[0].Documento}"] input`).isDisabled())
      .toBe(true);
    await check('seats trip en');
    expect(problems).toEqual([]);
  }, 120_000);
});
