import type { Page } from 'playwright-core';
import type { Shot } from './shot.js';

/** How long a screen may take to draw on a busy machine (its lazy code and its data). */

/** Waits until the screen shows `selector`. */
const drawn = (page: Page, selector: string) => page.locator(selector).first().waitFor();

/** A shot of a screen as it opens: its `ready` waited for as long as a busy machine needs. */
const opened = (shot: Omit<Shot, 'act'>): Shot => ({ ...shot, act: (page) => drawn(page, shot.ready) });

const SESSIONS = '/induccion/sesiones';

/**
 * The inductions guide's screenshots (docs/manuals/induction.*.md), as the trainer INDUCCION sees
 * them in UNIDAD MINERA SAN GABRIEL: the demo's general induction to come (session 3, four booked)
 * and the one held this month (session 1, closed with passes, a fail and an absence).
 */
export const SHOTS: Shot[] = [
  opened({
    name: 'induction-calendar',
    user: 'INDUCCION',
    path: SESSIONS,
    ready: '[data-testid="sessions-calendar"] [data-session]',
  }),
  {
    name: 'induction-new-session',
    user: 'INDUCCION',
    path: SESSIONS,
    act: async (page) => {
      await page.locator('[data-testid="session-new"]').click();
    },
    ready: '[data-testid="new-session"]',
  },
  opened({
    name: 'induction-session',
    user: 'INDUCCION',
    path: `${SESSIONS}?sesion=3`,
    ready: '[data-testid="induction-session"] [data-attended]',
  }),
  opened({
    name: 'induction-closed',
    user: 'INDUCCION',
    path: `${SESSIONS}?sesion=1`,
    ready: '[data-testid="induction-session"] [data-certificate]',
  }),
  opened({
    name: 'induction-report',
    user: 'INDUCCION',
    path: '/induccion/reporte',
    ready: '[data-testid="induction-report-totals"]',
  }),
];
