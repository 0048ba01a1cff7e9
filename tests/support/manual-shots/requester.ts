import type { Shot } from './shot.js';

const WORKERS = '/movilizacion/solicitante/persona';

/** The requester's guide (docs/manuals/requester.*.md), as SOLICITANTE of SERMIPAC sees it. */
export const SHOTS: Shot[] = [
  {
    name: 'requester-dashboard',
    user: 'SOLICITANTE',
    path: '/dashboard',
    ready: '[data-testid="requester-dashboard"] [data-count]',
  },
  {
    name: 'requester-workers',
    user: 'SOLICITANTE',
    path: WORKERS,
    ready: '[data-testid="request-grid"] [data-open-request]',
  },
  {
    name: 'requester-new-worker',
    user: 'SOLICITANTE',
    path: WORKERS,
    act: async (page) => {
      await page.locator('[data-testid="new-request"]').click();
    },
    ready: '#general_IdContrato',
  },
  {
    name: 'requester-requirements',
    user: 'SOLICITANTE',
    path: WORKERS,
    act: async (page) => {
      await page.locator('[data-testid="request-grid"] [data-open-request]').first().click();
      await page.locator('[data-step="requirements"]').click();
    },
    ready: '[data-testid="requirements"] .requirement-item',
  },
  {
    name: 'requester-bulk',
    user: 'SOLICITANTE',
    path: '/movilizacion/solicitante/masiva',
    ready: '#main-content [role="tab"]',
  },
  {
    name: 'requester-demobilisation',
    user: 'SOLICITANTE',
    path: '/desmovilizacion/solicitante/persona',
    ready: '[data-testid="demobilisation-solicitante"] [data-testid^="candidate-"]',
  },
  {
    name: 'requester-renewal',
    user: 'SOLICITANTE',
    path: '/requisito/solicitante/persona',
    ready: '[data-testid="expiring-counts"]',
  },
  {
    name: 'requester-status',
    user: 'SOLICITANTE',
    path: '/consultas/estado',
    ready: '#main-content table tbody tr, [data-testid="query-empty"]',
  },
];
