import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import Sqlite from 'better-sqlite3';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import en from '../../locales/en.json';
import es from '../../locales/es.json';
import { addDays, siteDate } from '../../src/shared/dates.js';
import { seriousAxeFindings } from '../support/axe.js';
import { launchBrowser } from '../support/browser.js';
import { signInBySession } from '../support/console.js';
import { asUser, type Lang, typeDate } from '../support/request-screens.js';
import { type RunningServer, startRealServer } from '../support/server.js';
import { drawingProblems, screenshot } from '../support/shots.js';

// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON
type Json = any;
const SOUTH = 'UNIDAD MINERA SAN GABRIEL';
const CAMP = 'CAMPAMENTO SAN GABRIEL';
const SHOTS = '/tmp/hotel-shots';
const DESKTOP: BrowserContextOptions = { viewport: { width: 1400, height: 900 } };
const TABLET: BrowserContextOptions = { viewport: { width: 1024, height: 768 }, hasTouch: true };
const CREW = 20;
/** Text that shows a translation key instead of its text. */
const RAW_KEY = /\b(?:hotel|resources|enums|app|ra)\.[a-zA-Z-]+\.[a-zA-Z]/;
const today = siteDate('PE');
/** A date as the screens write it. */
const dmy = (iso: string) => iso.split('-').reverse().join('/');

/**
 * Camp lodging through its screens. The hotel administrator (Spanish, desktop) books a crew of
 * twenty from their contract, checks three of them in from the reservations list, and sees the
 * grid and the dashboard follow; a contractor's requester (English) reserves for one of its
 * workers; a demobilisation checks a crew member out and frees the bed; an authoriser is not let
 * in; the grid and the dashboard on a desktop and a tablet in both languages.
 */
describe('camp lodging in a real browser', () => {
  let server: RunningServer;
  let browser: Browser;
  let hotelero: Page;
  let campId: number;
  const crew: Array<{ IdPersona: number; IdAcreditacion: number; Documento: string; Persona: string }> = [];
  const problems: string[] = [];
  const { api, go } = asUser(() => server.url);

  const open = async (user: string, options: BrowserContextOptions) => {
    const context = await browser.newContext(options);
    const page = await context.newPage();
    page.setDefaultTimeout(20_000);
    page.on('pageerror', (error) => problems.push(`${user} pageerror: ${error.message}`));
    page.on('console', (message) => {
      if (message.type() === 'error' || message.type() === 'warning')
        problems.push(`${user} console ${message.type()}: ${message.text()}`);
    });
    await signInBySession(page, server.url, user, { division: SOUTH, at: null });
    return page;
  };

  /**
   * Twenty more workers of SERMIPAC on its contract in the division, accredited from a month ago
   * for two hundred days: rows copied from a demo worker's, with documents and names of their own.
   */
  const hireCrew = () => {
    const db = new Sqlite(join(server.dataDir, 'acreditacion.db'));
    try {
      db.pragma('busy_timeout = 5000');
      const model = db
        .prepare(
          `select a.* from accreditation_accreditation a
           join administration_company c on c.IdCompania = a.IdCompania
           join administration_person p on p.IdPersona = a.IdPersona
           where c.Alias = 'SERMIPAC' and a.IdDivision = 1 and a.IdEntidad = 'T' and a.Estado = 'A' and p.Sexo = 'M'
           order by a.IdAcreditacion limit 1`,
        )
        .get() as Json;
      const person = db
        .prepare('select * from administration_person where IdPersona = ?')
        .get(model.IdPersona) as Json;
      const insert = (table: string, row: Json) => {
        const columns = Object.keys(row);
        return Number(
          db
            .prepare(
              `insert into ${table} (${columns.join(', ')}) values (${columns.map((c) => `@${c}`).join(', ')})`,
            )
            .run(row).lastInsertRowid,
        );
      };
      const at = new Date().toISOString();
      for (let i = 1; i <= CREW; i++) {
        const { IdPersona: _p, ...copy } = person;
        const n = String(i).padStart(2, '0');
        const row = {
          ...copy,
          Documento: `771700${n}`,
          Apellido: 'QUISPE CUADRILLA',
          Nombre: `OBRERO ${n}`,
          Sexo: 'M',
          Email: null,
          TelefonoMovil: null,
          CodigoPlanilla: null,
          FechaCreacion: at,
        };
        const IdPersona = insert('administration_person', row);
        const { IdAcreditacion: _a, ...accreditation } = model;
        const IdAcreditacion = insert('accreditation_accreditation', {
          ...accreditation,
          IdPersona,
          FechaInicio: addDays(today, -30),
          FechaFin: addDays(today, 200),
          Estado: 'A',
          FechaAprobacion: at,
          FechaCreacion: at,
        });
        crew.push({
          IdPersona,
          IdAcreditacion,
          Documento: row.Documento,
          Persona: `${row.Apellido} ${row.Nombre}`,
        });
      }
      return Number(model.IdContrato);
    } finally {
      db.close();
    }
  };

  let contractId: number;
  beforeAll(async () => {
    server = await startRealServer();
    browser = await launchBrowser();
    mkdirSync(SHOTS, { recursive: true });
    contractId = hireCrew();
    hotelero = await open('HOTELERO', DESKTOP);
    const choices = await api(hotelero, 'GET', '/api/hotel/campamentos');
    campId = choices.campamentos.find((c: Json) => c.Descripcion === CAMP).IdCampamento;
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const choose = async (page: Page, id: string, option: RegExp) => {
    await page.locator(`#${id}`).click();
    await page.getByRole('option', { name: option }).click();
    await page.locator('[role="listbox"]').waitFor({ state: 'detached' });
  };
  const figure = (page: Page, name: string) =>
    page.locator(`[data-testid="dashboard-camp-${campId}"] [data-figure="${name}"]`);
  const figures = async (page: Page) => ({
    ocupadas: Number(await figure(page, 'ocupadas').innerText()),
    reservadas: Number(await figure(page, 'reservadas').innerText()),
  });
  const reservationRow = (page: Page, text: string) =>
    page.locator('[data-testid="reservations-grid"] tbody tr').filter({ hasText: text });
  /** The grid's cells of tonight, by state, among the beds the find box leaves. */
  const tonight = (page: Page, state: string) =>
    page.locator(`[data-testid="availability-grid"] button[data-night="${today}"][data-state="${state}"]`);
  const shoot = (page: Page, name: string) => screenshot(page, `${SHOTS}/${name}.png`);
  /** Nothing wider than the screen, and no translation key instead of a text. */
  const fits = async (page: Page, where: string) => {
    problems.push(...(await drawingProblems(page, where, RAW_KEY)));
  };

  it('books a crew from its contract, checks three in, and the grid and the dashboard follow (Spanish, desktop)', async () => {
    await go(hotelero, '/hotel/tablero', 'es');
    const before = await figures(hotelero);

    // The crew's contract, today to a week from today: twenty placed, the contract's others not.
    await go(hotelero, '/hotel/reserva-masiva', 'es');
    await expect.poll(() => hotelero.title()).toContain(es.app.menu.items.massReservation);
    const contract = (await api(hotelero, 'GET', `/api/rest/contract/${contractId}`)) as Json;
    await choose(hotelero, 'mass-contract', new RegExp(contract.NumeroContrato));
    await typeDate(hotelero, 'mass-to-label', addDays(today, 7));
    await hotelero.getByTestId('mass-propose').click();
    const placed = hotelero.getByTestId('mass-placed');
    await expect.poll(() => placed.getAttribute('data-count')).toBe(String(CREW));
    expect(await placed.innerText()).toBe(`${CREW} ubicados`);
    const proposal = hotelero.getByTestId('mass-proposal');
    for (const worker of crew)
      expect(
        await proposal.locator(`tr[data-document="${worker.Documento}"]`).getAttribute('data-placed'),
      ).toBe('true');
    // Whoever could not be placed says why.
    for (const line of await proposal.locator('tr[data-placed="false"]').all())
      expect((await line.locator('td').nth(3).innerText()).trim()).not.toBe('');
    for (const finding of await seriousAxeFindings(hotelero)) problems.push(`mass reservation: ${finding}`);
    await hotelero.getByTestId('mass-book').click();
    await expect
      .poll(() => hotelero.getByTestId('mass-booked').innerText())
      .toMatch(new RegExp(`^Se reservaron ${CREW} camas \\(lote .+\\)\\.$`));

    // Three of them checked in from the reservations list.
    await go(hotelero, '/hotel/reservas', 'es');
    for (const worker of crew.slice(0, 3)) {
      await hotelero.locator('#reservations-search').fill(worker.Documento);
      await expect.poll(() => reservationRow(hotelero, worker.Documento).count()).toBe(1);
      await reservationRow(hotelero, worker.Documento).locator('[data-action="checkIn"]').click();
      await hotelero.getByTestId('stay-dialog').waitFor();
      await hotelero.getByTestId('stay-confirm').click();
      await expect
        .poll(() => hotelero.getByTestId('reservations-notice').innerText())
        .toBe(`Ingreso de ${worker.Persona} registrado.`);
      await expect
        .poll(() => reservationRow(hotelero, worker.Documento).innerText())
        .toContain(es.enums.reservationState.I);
    }
    for (const finding of await seriousAxeFindings(hotelero)) problems.push(`reservations: ${finding}`);

    // One of them has had an accreditation suspended meanwhile (a mandatory requirement expired).
    const suspended = crew[9];
    const db = new Sqlite(join(server.dataDir, 'acreditacion.db'));
    db.pragma('busy_timeout = 5000');
    db.prepare(`update accreditation_accreditation set Estado = 'S' where IdAcreditacion = ?`).run(
      suspended.IdAcreditacion,
    );
    db.close();

    // The grid: the crew's beds tonight, three occupied and seventeen reserved, each named.
    await go(hotelero, '/hotel/disponibilidad', 'es');
    await expect.poll(() => hotelero.title()).toContain(es.app.menu.items.bedAvailability);
    await hotelero.locator('#availability-find').fill('CUADRILLA');
    await expect.poll(() => tonight(hotelero, 'occupied').count()).toBe(3);
    await expect.poll(() => tonight(hotelero, 'reserved').count()).toBe(CREW - 3);
    const occupied = await tonight(hotelero, 'occupied').first().getAttribute('aria-label');
    expect(occupied).toMatch(
      new RegExp(`^[A-Z]-\\d+-[A-D], ${dmy(today)}: Ocupada — QUISPE CUADRILLA OBRERO 0[1-3] \\(77170`),
    );
    // The suspended one's nights are flagged, and say why.
    const flagged = hotelero.locator(
      `[data-testid="availability-grid"] button[data-night="${today}"][data-suspended="true"]`,
    );
    await expect.poll(() => flagged.count()).toBe(1);
    expect(await flagged.getAttribute('aria-label')).toMatch(
      new RegExp(
        `: Reservada — ${suspended.Persona} \\(${suspended.Documento}\\) — Acreditación suspendida$`,
      ),
    );
    // A reserved night opens its stay, which can be checked in; a free night reserves its bed.
    await tonight(hotelero, 'reserved').first().click();
    const stay = hotelero.getByRole('dialog');
    await expect.poll(() => stay.locator('[data-action="checkIn"]').count()).toBe(1);
    await stay.getByRole('button', { name: 'Cerrar', exact: true }).click();
    await stay.waitFor({ state: 'detached' });
    const free = hotelero
      .locator(
        `[data-testid="availability-grid"] button[data-night="${addDays(today, 7)}"][data-state="free"]`,
      )
      .first();
    const bed = (await free.getAttribute('data-bed')) as string;
    await free.click();
    await expect.poll(() => hotelero.locator('#reservation-bed').inputValue()).toContain(bed);
    await hotelero.getByRole('dialog').getByRole('button', { name: 'Cancelar', exact: true }).click();
    await hotelero.getByRole('dialog').waitFor({ state: 'detached' });
    await hotelero.locator('#availability-find').fill('');
    await expect
      .poll(() => hotelero.locator('[data-testid="availability-grid"] tbody tr').count())
      .toBeGreaterThan(60);
    for (const finding of await seriousAxeFindings(hotelero)) problems.push(`grid: ${finding}`);
    await fits(hotelero, 'grid desktop es');
    await shoot(hotelero, 'grid-desktop-es');

    // The dashboard moved: three more beds occupied, seventeen more reserved, the arrivals listed.
    await go(hotelero, '/hotel/tablero', 'es');
    await expect
      .poll(() => figures(hotelero))
      .toEqual({
        ocupadas: before.ocupadas + 3,
        reservadas: before.reservadas + CREW - 3,
      });
    const arrivals = hotelero.getByTestId('dashboard-arrivals-today');
    await expect.poll(() => arrivals.locator('tr[data-document^="771700"]').count()).toBe(CREW - 3);
    for (const finding of await seriousAxeFindings(hotelero)) problems.push(`dashboard: ${finding}`);
    await fits(hotelero, 'dashboard desktop es');
    await shoot(hotelero, 'dashboard-desktop-es');
  }, 240_000);

  it('lets a requester reserve for one of its workers and see it listed, nothing more (English)', async () => {
    const requester = await open('SOLICITANTE', DESKTOP);
    const worker = crew[CREW - 1];
    const [from, to] = [addDays(today, 8), addDays(today, 12)];
    await go(requester, '/hotel/reservas', 'en');
    await expect.poll(() => requester.title()).toContain(en.app.menu.items.reservations);
    await requester.getByTestId('reservation-new').click();
    const dialog = requester.getByTestId('reservation-dialog');
    await requester.locator('#reservation-person').fill(worker.Documento);
    await requester.locator(`[data-person="${worker.Documento}"]`).click();
    await typeDate(requester, 'reservation-from-label', from);
    await typeDate(requester, 'reservation-to-label', to);
    // A requester does not choose the bed: one of the room type is assigned.
    expect(await dialog.locator('#reservation-bed').count()).toBe(0);
    expect(await dialog.locator('#reservation-room-type').innerText()).toContain(
      en.hotel.screens.reservation.profileType,
    );
    await requester.getByTestId('reservation-save').click();
    await expect
      .poll(() => requester.getByTestId('reservations-notice').innerText())
      .toBe(`${worker.Persona}'s reservation made.`);
    await requester.locator('#reservations-search').fill(worker.Documento);
    await expect.poll(() => reservationRow(requester, worker.Documento).count()).toBe(2);
    const mine = reservationRow(requester, dmy(from));
    expect(await mine.innerText()).toContain(en.enums.reservationState.R);
    expect(await mine.innerText()).toContain(dmy(to));
    // Its rows offer the cancellation only; the others' companies are not listed.
    expect(await requester.locator('[data-testid="reservations-grid"] [data-action="checkIn"]').count()).toBe(
      0,
    );
    expect(await mine.locator('[data-action="cancel"]').count()).toBe(1);
    const all = await api(requester, 'GET', '/api/hotel/reservas?take=100');
    expect(new Set(all.data.map((r: Json) => r.Compania))).toEqual(new Set(['SERMIPAC']));
    await fits(requester, 'reservations requester en');
    await requester.context().close();
  }, 180_000);

  it('frees the bed of a crew member whose demobilisation is approved: checked out', async () => {
    const worker = crew[0];
    const stays = await api(hotelero, 'GET', `/api/hotel/reservas?buscar=${worker.Documento}`);
    const bed = stays.data[0].Cama as string;
    expect(stays.data[0].Estado).toBe('I');
    const requester = await open('SOLICITANTE', DESKTOP);
    const authoriser = await open('AUTORIZADOR', DESKTOP);
    const made = await api(requester, 'POST', '/api/acreditaciondesmovilizacion/crear', {
      IdEntidad: 'T',
      IdAcreditacion: worker.IdAcreditacion,
      Observacion: 'Fin de la parada de planta',
    });
    const approved = await api(authoriser, 'POST', '/api/acreditaciondesmovilizacion/actualizarautorizador', {
      IdSolicitud: made.Solicitudes[0].IdSolicitud,
      Accion: 'APROBAR',
    });
    expect(approved.EstadoAprobacion).toBe('A');
    // The reservations list says so, and the grid shows the bed free tonight.
    await go(hotelero, '/hotel/reservas', 'es');
    await hotelero.locator('#reservations-search').fill(worker.Documento);
    await expect
      .poll(() => reservationRow(hotelero, worker.Documento).innerText())
      .toContain(es.enums.reservationState.S);
    expect(await reservationRow(hotelero, worker.Documento).locator('[data-action]').count()).toBe(0);
    await go(hotelero, '/hotel/disponibilidad', 'es');
    await hotelero.locator('#availability-find').fill(bed);
    const cell = hotelero.locator(
      `[data-testid="availability-grid"] button[data-bed="${bed}"][data-night="${today}"]`,
    );
    await expect.poll(() => cell.getAttribute('data-state')).toBe('free');
    await requester.context().close();

    // The authoriser has no lodging screen: the address leads to the no-permission page.
    const refused: string[] = [];
    authoriser.on('response', (r) => {
      if (r.url().includes('/api/hotel/')) refused.push(`${r.status()} ${r.url()}`);
    });
    await go(authoriser, '/hotel/disponibilidad', 'es');
    await authoriser.waitForURL(/\/sinpermiso$/);
    await expect
      .poll(() => authoriser.getByRole('heading', { level: 1 }).innerText())
      .toBe(es.errors.noPermission.title);
    expect(refused).toEqual([]);
    await authoriser.context().close();
  }, 180_000);

  it('draws the grid and the dashboard whole on a desktop and a tablet, in both languages', async () => {
    for (const [device, options] of [
      ['desktop', DESKTOP],
      ['tablet', TABLET],
    ] as const)
      for (const lang of ['es', 'en'] as Lang[]) {
        if (device === 'desktop' && lang === 'es') continue; // the first test's
        const page = await open('HOTELERO', options);
        const where = `${device} ${lang}`;
        await go(page, '/hotel/disponibilidad', lang);
        await choose(page, 'availability-days', lang === 'es' ? /^31 noches$/ : /^31 nights$/);
        await expect.poll(() => page.locator('[data-testid="availability-grid"] thead th').count()).toBe(32);
        // The grid scrolls inside its box, not the page: its last night is reached by scrolling it.
        const grid = page.getByTestId('availability-grid');
        const box = await grid.evaluate((e) => ({ scroll: e.scrollWidth, client: e.clientWidth }));
        if (device === 'tablet') expect(box.scroll).toBeGreaterThan(box.client);
        await fits(page, `grid ${where}`);
        await shoot(page, `grid-${device}-${lang}`);
        await go(page, '/hotel/tablero', lang);
        await figure(page, 'ocupadas').waitFor();
        await fits(page, `dashboard ${where}`);
        await shoot(page, `dashboard-${device}-${lang}`);
        await page.context().close();
      }
  }, 240_000);

  it('logged no errors or warnings in the browser console and found no serious accessibility problem', () => {
    expect(problems).toEqual([]);
  });
});
