import type { Page } from 'playwright-core';
import type { Shot } from './shot.js';

const MANAGEMENT = '/identificacion/gestion';
const HOLDERS = '[data-testid="identification-grid"] [data-holder] [data-action]';

/** The screen drawn with its data, however long a busy machine takes to load it. */
const drawn = (page: Page, selector: string) => page.locator(selector).first().waitFor();

/** The identification guide's screenshots (docs/manuals/identification.*.md), as IDENTIFICACION sees them. */
export const SHOTS: Shot[] = [
  {
    name: 'identification-people',
    user: 'IDENTIFICACION',
    path: MANAGEMENT,
    act: (page) => drawn(page, HOLDERS),
    ready: HOLDERS,
  },
  {
    name: 'identification-reissue',
    user: 'IDENTIFICACION',
    path: MANAGEMENT,
    act: async (page) => {
      await drawn(page, HOLDERS);
      // The people with a card: found by the card numbers' series.
      await page.locator('#identification-search').fill('FC-');
      // Only once the grid shows them (no one without a card is left): a click while the found rows
      // replace the first page's can land on a row that is moving.
      await page
        .locator('[data-testid="identification-grid"] [data-action="issue"]')
        .first()
        .waitFor({ state: 'detached' });
      await page.locator('[data-testid="identification-grid"] [data-action="reissue"]').first().click();
      await page.locator('#credential-issue-reason').waitFor();
    },
    ready: '[data-testid="credential-dialog"] .MuiAlert-root',
  },
  {
    name: 'identification-vehicles',
    user: 'IDENTIFICACION',
    path: MANAGEMENT,
    act: async (page) => {
      await drawn(page, HOLDERS);
      await page.locator('[data-testid="identification-kind"] button[value="V"]').click();
      await drawn(page, '[data-testid="identification-grid"] [data-holder^="V:"] [data-action]');
    },
    ready: '[data-testid="identification-grid"] [data-holder^="V:"] [data-action]',
  },
  {
    name: 'identification-setup',
    user: 'IDENTIFICACION',
    path: '/credential-type',
    act: (page) => drawn(page, '#main-content .RaList-main table tbody tr'),
    ready: '#main-content .RaList-main table tbody tr',
  },
];
