import type { Page } from 'playwright-core';
import type { Shot } from './shot.js';

const WORKERS = '/movilizacion/autorizador/persona';

/** The requests' card, below the contractor companies' summary, brought to the top of the screen. */
async function showRequests(page: Page): Promise<void> {
  // The menu folded to its icons, so the grid's columns fit (the screens after keep it folded).
  const fold = page.getByRole('button', { name: /^(Cerrar menú|Close menu)$/ });
  if (await fold.count()) await fold.first().click();
  const grid = page.locator('[data-testid="request-grid"]');
  await grid.locator('[data-open-request]').first().waitFor();
  await grid.evaluate((e) => (e.closest('.MuiCard-root') ?? e).scrollIntoView({ block: 'start' }));
}

/** The authoriser's guide (docs/manuals/authoriser.*.md), as AUTORIZADOR sees it in the south division. */
export const SHOTS: Shot[] = [
  {
    name: 'authoriser-dashboard',
    user: 'AUTORIZADOR',
    path: '/dashboard',
    act: async (page) => {
      // The first screen of the session: the console loads, then the counts (slow on a busy machine).
      await page.locator('[data-testid="authoriser-dashboard"] [data-count]').first().waitFor();
    },
    ready: '[data-testid="authoriser-dashboard"] [data-count]',
  },
  {
    name: 'authoriser-requests',
    user: 'AUTORIZADOR',
    path: WORKERS,
    act: showRequests,
    ready: '[data-testid="request-grid"] [data-open-request]',
  },
  {
    name: 'authoriser-evaluation',
    user: 'AUTORIZADOR',
    path: WORKERS,
    act: async (page) => {
      // The pending ones, and the first of them opened to be evaluated.
      await page.locator('[data-status-filter="P"]').click();
      await page
        .locator('[data-testid="request-grid"] tr:has([data-status="P"]) [data-open-request]')
        .first()
        .click();
      // A requirement with its value and file, and the status the authoriser gives it.
      const line = page.locator('[data-testid="evaluation"] [data-evaluate]').first();
      await line.waitFor();
      await line.evaluate((e) => e.scrollIntoView({ block: 'center' }));
    },
    ready: '[data-testid="evaluation"] [data-action="APROBAR"]',
  },
  {
    name: 'authoriser-companies',
    user: 'AUTORIZADOR',
    path: '/movilizacion/autorizador/empresa',
    act: showRequests,
    ready: '[data-testid="request-grid"] [data-open-request]',
  },
  {
    name: 'authoriser-status',
    user: 'AUTORIZADOR',
    path: '/consultas/estado',
    ready: '[data-testid="query-grid"] tbody tr',
  },
  {
    name: 'authoriser-efficiency',
    user: 'AUTORIZADOR',
    path: '/reporte/eficiencia',
    ready: '[data-testid="efficiency-months"] tbody tr',
  },
];
