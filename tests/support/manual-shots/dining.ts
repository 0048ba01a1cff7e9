import type { Page } from 'playwright-core';
import type { Shot } from './shot.js';

const MANAGEMENT = '/comedor/gestion';
/** The screen drawn with its data, however long a busy machine takes to load it. */
const drawn = (page: Page, selector: string) => page.locator(selector).first().waitFor();
/** A worker of the central dining room's groups, accredited in the first division. */
const WORKER = '40023757';

/** The meal-by-hand dialog filled in (breakfast, the worker's document, why). */
async function fillManualMeal(page: Page) {
  await page.locator('[data-testid="manual-open"]').click();
  await page.locator('#manual-service').click();
  await page.getByRole('option').first().click();
  await page.locator('[role="listbox"]').waitFor({ state: 'detached' });
  await page.locator('#manual-document').fill(WORKER);
  await page.locator('#manual-observation').fill('Lector fuera de servicio');
}

/**
 * Today has a meal to show (at night, before breakfast, the readers have served none yet): one
 * registered by hand as the guide tells, once.
 */
async function aMealToday(page: Page) {
  await drawn(page, '[data-testid="dining-last-meals"]');
  await drawn(page, '[data-testid="dining-sittings"] [data-figure]');
  if (await page.locator('[data-testid="dining-last-meals"] [data-void]').count()) return;
  await fillManualMeal(page);
  await page.locator('[data-testid="manual-save"]').click();
  await page.locator('[data-testid="manual-dialog"]').waitFor({ state: 'detached' });
  await page.locator('[data-testid="dining-last-meals"] [data-void]').first().waitFor();
}

/** The dining guide's screenshots (docs/manuals/dining.*.md), as COMEDOR sees them. */
export const SHOTS: Shot[] = [
  {
    name: 'dining-management',
    user: 'COMEDOR',
    path: MANAGEMENT,
    act: async (page) => {
      await aMealToday(page);
      // The sittings' figures and, below them, the last meals in the picture.
      await page
        .locator('[data-testid="dining-last-meals"]')
        .evaluate((e) => e.scrollIntoView({ block: 'end' }));
    },
    ready: '[data-testid="dining-last-meals"] [data-void]',
  },
  {
    name: 'dining-manual',
    user: 'COMEDOR',
    path: MANAGEMENT,
    act: async (page) => {
      await drawn(page, '[data-testid="dining-sittings"] [data-figure]');
      await fillManualMeal(page);
    },
    ready: '[data-testid="manual-dialog"] #manual-observation',
  },
  {
    name: 'dining-void',
    user: 'COMEDOR',
    path: MANAGEMENT,
    act: async (page) => {
      await aMealToday(page);
      await page.locator('[data-testid="dining-last-meals"] [data-void]').first().click();
      await page.locator('#void-reason').fill('Registrado por error');
    },
    ready: '[data-testid="void-dialog"]',
  },
  {
    name: 'dining-report',
    user: 'COMEDOR',
    path: '/comedor/consumos',
    act: (page) => drawn(page, '[data-testid="dining-report-rows"] [data-meal]'),
    ready: '[data-testid="dining-report-totals"] >> text=/\\d/',
  },
  {
    name: 'dining-setup',
    user: 'COMEDOR',
    path: '/dining-service',
    act: (page) => drawn(page, '#main-content .RaList-main table tbody tr'),
    ready: '#main-content .RaList-main table tbody tr',
  },
];
