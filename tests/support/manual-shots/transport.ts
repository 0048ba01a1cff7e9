import type { Page } from 'playwright-core';
import type { Shot } from './shot.js';

/** How long a screen may take to draw on a busy machine (its lazy code and its data). */

/** Waits until the screen shows `selector`. */
const drawn = (page: Page, selector: string) => page.locator(selector).first().waitFor();

/** A shot of a screen as it opens: its `ready` waited for as long as a busy machine needs. */
const opened = (shot: Omit<Shot, 'act'>): Shot => ({ ...shot, act: (page) => drawn(page, shot.ready) });

const TRIPS = '/transporte/viajes';

/**
 * The transport guide's screenshots (docs/manuals/transport.*.md), as the coordinator TRANSPORTE
 * sees them in UNIDAD MINERA SAN GABRIEL (today's trip up from Arequipa on the road, the afternoon's
 * trip down with two booked: trip 2), and the requester's bus seats as SOLICITANTE sees them.
 */
export const SHOTS: Shot[] = [
  opened({
    name: 'transport-trips',
    user: 'TRANSPORTE',
    path: TRIPS,
    ready: '[data-testid="transport-trips"] [data-trip]',
  }),
  opened({
    name: 'transport-trip',
    user: 'TRANSPORTE',
    path: `${TRIPS}?viaje=2`,
    ready: '[data-testid="transport-trip"] [data-seat]',
  }),
  {
    name: 'transport-timetable',
    user: 'TRANSPORTE',
    path: TRIPS,
    act: async (page) => {
      await page.locator('[data-testid="trips-timetable"]').click();
    },
    ready: '[data-testid="timetable"]',
  },
  opened({
    name: 'transport-board',
    user: 'TRANSPORTE',
    path: '/transporte/tablero',
    ready: '[data-testid="on-the-road"] [data-rider]',
  }),
  opened({
    name: 'transport-seats',
    user: 'SOLICITANTE',
    path: '/transporte/asientos',
    ready: '[data-testid="transport-seats"] [data-testid^="choose-trip-"]',
  }),
  opened({
    name: 'transport-report',
    user: 'TRANSPORTE',
    path: '/transporte/reporte',
    ready: '[data-testid="transport-report-totals"]',
  }),
];
