import type { Page } from 'playwright-core';
import type { Shot } from './shot.js';

const PEOPLE = '/asistencia/personas';
/** How long a screen may take to draw on a busy machine (its lazy code and its data). */

/** Waits until the screen shows `selector`. */
const drawn = (page: Page, selector: string) => page.locator(selector).first().waitFor();

/**
 * A demo worker's month on the people management screen (a roster marked at the gate), and the
 * days of its justifications, as the screen read them.
 */
async function openMonth(page: Page, document: string): Promise<string[]> {
  await drawn(page, '#attendance-person');
  await page.locator('#attendance-person').fill(document);
  const read = page.waitForResponse((r) => /\/api\/asistencia\/personas\/\d+\/dias/.test(r.url()));
  await page.locator(`li[data-person="${document}"]`).click();
  const { result } = (await (await read).json()) as { result: { justificaciones: { Fecha: string }[] } };
  await drawn(page, '[data-testid="attendance-calendar"] [data-status]');
  return result.justificaciones.map((j) => j.Fecha.slice(0, 10));
}

/** The attendance guide's screenshots (docs/manuals/attendance.*.md), as ASISTENCIA sees them. */
export const SHOTS: Shot[] = [
  {
    name: 'attendance-month',
    user: 'ASISTENCIA',
    path: PEOPLE,
    act: async (page) => {
      await openMonth(page, '40031676');
    },
    ready: '[data-testid="attendance-totals"]',
  },
  {
    name: 'attendance-day',
    user: 'ASISTENCIA',
    path: PEOPLE,
    act: async (page) => {
      // The demo's first late entry, justified by a medical appointment (CME).
      const [justified] = await openMonth(page, '40000000');
      await page.locator(`[data-testid="attendance-calendar"] [data-day="${justified}"]`).click();
      await page.locator('[data-testid="attendance-day"]').scrollIntoViewIfNeeded();
    },
    ready: '[data-testid="attendance-justifications"] tbody tr',
  },
  {
    name: 'attendance-justify',
    user: 'ASISTENCIA',
    path: PEOPLE,
    act: async (page) => {
      await openMonth(page, '40031676');
      await page.locator('[data-testid="attendance-calendar"] [data-status="ABSENT"]').first().click();
      await page.locator('[data-testid="attendance-justify"]').click();
    },
    ready: '[data-testid="justify-dialog"]',
  },
  {
    name: 'attendance-period',
    user: 'ASISTENCIA',
    path: '/asistencia/periodo',
    act: (page) => drawn(page, '[data-testid="attendance-period-grid"] tbody tr'),
    ready: '[data-testid="attendance-period-grid"] tbody tr',
  },
  {
    name: 'attendance-closing',
    user: 'ASISTENCIA',
    path: '/asistencia/cierres',
    act: (page) => drawn(page, '[data-testid="attendance-closing"] [data-payroll]'),
    ready: '[data-testid="attendance-closing"] [data-payroll]',
  },
];
