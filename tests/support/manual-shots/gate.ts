import type { Page } from 'playwright-core';
import type { Shot } from './shot.js';

/** An accredited worker of the division whom the demo marks at the main gate. */
const WORKER_DOCUMENT = '40063352';

/** The language the shot is taken in: its browser's (es-PE or en-GB). */
const languageOf = (page: Page) => page.evaluate(() => (navigator.language.startsWith('en') ? 'en' : 'es'));

/**
 * The main gate's turnstiles (UNIDAD MINERA SAN GABRIEL, control point GARITA PRINCIPAL - PEATONAL):
 * one a language, as each phone has its own equipment (enrolling one phone stops the key of another
 * enrolled with the same equipment).
 */
const equipmentOf = (lang: string) => (lang === 'en' ? 2 : 1);

/** The equipment's screen: Device key, then Show enrolment code (the dialog shows the QR). */
async function showEnrolmentCode(page: Page): Promise<string> {
  const lang = await languageOf(page);
  await page.goto(new URL(`/equipment/${equipmentOf(lang)}/show?lang=${lang}`, page.url()).href, {
    waitUntil: 'networkidle',
  });
  await page.locator('.device-key').click();
  await page.locator('[data-testid="enrolment"] button').click();
  const qr = page.locator('[data-enrolment-code]');
  await qr.waitFor();
  return String(await qr.getAttribute('data-enrolment-code'));
}

/** The guard's entry direction (an exit turnstile's device starts on exits). */
async function chooseEntry(page: Page): Promise<void> {
  const lang = await languageOf(page);
  await page.getByRole('button', { name: lang === 'en' ? 'Entry' : 'Entrada', exact: true }).click();
}

/** Enrols this browser's gate app with the equipment, as the guard does by opening the QR's address. */
async function enrol(page: Page): Promise<void> {
  const lang = await languageOf(page);
  const code = await showEnrolmentCode(page);
  await page.goto(new URL(`/garita/?enrolar=${code}&lang=${lang}`, page.url()).href);
  await page.locator('[data-testid="list-age"]').waitFor();
  await chooseEntry(page);
}

/** The gate app's guide (docs/manuals/gate.*.md): the console's equipment screen as ADMIN, the app on a phone. */
export const SHOTS: Shot[] = [
  {
    name: 'gate-enrolment',
    user: 'ADMIN',
    path: '/equipment',
    act: async (page) => {
      await showEnrolmentCode(page);
    },
    ready: '[data-testid="enrolment"] [data-enrolment-code]',
  },
  {
    name: 'gate-app',
    user: 'ADMIN',
    phone: true,
    path: '/equipment',
    act: enrol,
    ready: '[data-testid="network"]',
  },
  {
    // The app enrolled afresh (the shot before may have been taken in the other language).
    name: 'gate-offline-verdict',
    user: 'ADMIN',
    phone: true,
    path: '/equipment',
    act: async (page) => {
      await enrol(page);
      // The link to the server drops: the app goes on deciding from its signed list.
      await page.context().setOffline(true);
      await page.locator('[data-testid="network"].off').waitFor();
      await page.locator('#document').fill(WORKER_DOCUMENT);
      await page.locator('button[type="submit"]').click();
      await page.locator('[data-testid="verdict"]').waitFor();
      await page.locator('[data-testid="pending"][data-count="1"]').waitFor();
    },
    ready: '[data-testid="verdict"]',
  },
  {
    name: 'gate-roll-call',
    user: 'ADMIN',
    path: '/acceso/evacuacion',
    act: async (page) => {
      // Opened afresh: the shot before leaves the equipment's key dialog open over the console.
      const lang = await languageOf(page);
      await page.goto(new URL(`/acceso/evacuacion?lang=${lang}`, page.url()).href, {
        waitUntil: 'networkidle',
      });
      await page.locator('[data-testid="roll-call"] table tbody tr').first().waitFor();
    },
    ready: '#main-content table tbody tr',
  },
];
