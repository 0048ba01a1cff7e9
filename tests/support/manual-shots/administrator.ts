import type { Page } from 'playwright-core';
import type { Shot } from './shot.js';

const ROWS = '#main-content table tbody tr';

/**
 * The list opened afresh at its own address (a list reached from another list may still show the
 * other's rows for a moment), then its rows and the names they refer to (zones, users…) drawn:
 * the header's loading spinner ends. Patient: the machine taking the pictures is busy.
 */
const listOf =
  (path: string) =>
  async (page: Page): Promise<void> => {
    const lang = await page.evaluate(() => (navigator.language.startsWith('en') ? 'en' : 'es'));
    await page.goto(new URL(`${path}?lang=${lang}`, page.url()).href, { waitUntil: 'networkidle' });
    await page.locator(ROWS).first().waitFor();
    await page.waitForFunction(() => !document.querySelector('header .MuiCircularProgress-root'));
  };

const shot = (name: string, path: string): Shot => ({
  name: `administrator-${name}`,
  user: 'ADMIN',
  path,
  act: listOf(path),
  ready: ROWS,
});

/** The administrator's guide (docs/manuals/administrator.*.md), as ADMIN sees it in the south division. */
export const SHOTS: Shot[] = [
  shot('users', '/user'),
  shot('accreditation-profiles', '/accreditation-profile'),
  shot('approvers', '/approver'),
  shot('doors', '/door'),
  shot('audit', '/audit'),
];
