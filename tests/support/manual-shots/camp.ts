import type { Page } from 'playwright-core';
import type { Shot } from './shot.js';

/** The screen drawn with its data, however long a busy machine takes to load it. */
const drawn = (page: Page, selector: string) => page.locator(selector).first().waitFor();
const OCCUPIED = '[data-testid="availability-grid"] button[data-state="occupied"]';
const RESERVATIONS = '[data-testid="reservations-grid"] [data-reservation] [data-action]';

/** The camp guide's screenshots (docs/manuals/camp.*.md), as HOTELERO (San Gabriel's administrator) sees them. */
export const SHOTS: Shot[] = [
  {
    name: 'camp-dashboard',
    user: 'HOTELERO',
    path: '/hotel/tablero',
    act: (page) => drawn(page, '[data-testid^="dashboard-camp-"] [data-figure="ocupacion"]'),
    ready: '[data-testid^="dashboard-camp-"] [data-figure="ocupacion"]',
  },
  {
    name: 'camp-availability',
    user: 'HOTELERO',
    path: '/hotel/disponibilidad',
    act: (page) => drawn(page, OCCUPIED),
    ready: OCCUPIED,
  },
  {
    name: 'camp-stay',
    user: 'HOTELERO',
    path: '/hotel/disponibilidad',
    act: async (page) => {
      await drawn(page, OCCUPIED);
      await page.locator(OCCUPIED).first().click();
    },
    ready: '[data-testid="stay-dialog"]',
  },
  {
    name: 'camp-reservations',
    user: 'HOTELERO',
    path: '/hotel/reservas',
    act: (page) => drawn(page, RESERVATIONS),
    ready: RESERVATIONS,
  },
  {
    name: 'camp-new-reservation',
    user: 'HOTELERO',
    path: '/hotel/reservas',
    act: async (page) => {
      await drawn(page, RESERVATIONS);
      await page.locator('[data-testid="reservation-new"]').click();
    },
    ready: '[data-testid="reservation-dialog"] #reservation-person',
  },
  {
    name: 'camp-mass',
    user: 'HOTELERO',
    path: '/hotel/reserva-masiva',
    act: async (page) => {
      await drawn(page, '[data-testid="mass-source"]');
      await page.locator('[data-testid="mass-source"] [data-source="documents"]').click();
      await page.locator('#mass-documents').fill('40087109\n40150461\n40253408\n40000000\nDEMO0001');
      await page.locator('[data-testid="mass-propose"]').click();
      await drawn(page, '[data-testid="mass-proposal"] tr[data-document]');
      // The proposal, below the form, in the picture.
      await page.locator('[data-testid="mass-proposal"]').evaluate((e) => e.scrollIntoView({ block: 'end' }));
    },
    ready: '[data-testid="mass-proposal"] tr[data-document]',
  },
  {
    name: 'camp-reports',
    user: 'HOTELERO',
    path: '/hotel/reportes',
    act: (page) => drawn(page, '[data-testid="reports-companies"] tr[data-company]'),
    ready: '[data-testid="reports-companies"] tr[data-company]',
  },
  {
    name: 'camp-setup',
    user: 'HOTELERO',
    path: '/camp-profile',
    act: (page) => drawn(page, '#main-content .RaList-main table tbody tr'),
    ready: '#main-content .RaList-main table tbody tr',
  },
];
