import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import { addDays } from '../../src/shared/dates.js';
import { pdf } from './accreditation.js';

export type Lang = 'es' | 'en';
// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON
type Json = any;

/**
 * What the request screens' browser tests share: calls and navigation as the signed-in page's
 * user (against the server `baseUrl` names once it runs), and the steps a requester and an authoriser take on the request and evaluation pages.
 */
export function asUser(baseUrl: () => string) {
  return {
    /** A call with the page's session token; the answer's `result` (or the whole body without one). */
    async api(page: Page, method: string, path: string, body?: object): Promise<Json> {
      const token = await page.evaluate(
        () => JSON.parse(localStorage.getItem('acreditacion.auth') ?? '{}').accessToken,
      );
      const res = await fetch(`${baseUrl()}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          ...(body ? { 'content-type': 'application/json' } : {}),
        },
        body: body ? JSON.stringify(body) : undefined,
      });
      const json = (await res.json()) as Json;
      return json && typeof json === 'object' && 'result' in json ? json.result : json;
    },
    go: (page: Page, path: string, lang: Lang = 'es') =>
      page.goto(`${baseUrl()}${path}${path.includes('?') ? '&' : '?'}lang=${lang}`, {
        waitUntil: 'networkidle',
      }),
  };
}

/** A date typed as people write it: day, month, year. */
export async function typeDate(page: Page, labelledBy: string, date: string) {
  const [y, m, d] = date.split('-');
  await page.locator(`[role="group"][aria-labelledby="${labelledBy}"] [role="spinbutton"]`).first().click();
  await page.keyboard.type(`${d}${m}${y}`);
}

export const button = (page: Page, name: RegExp) => page.getByRole('button', { name });

/** A searchable select: typed, then its option chosen. */
export async function choose(page: Page, id: string, text: string | RegExp) {
  await page.locator(`#${id}`).click();
  if (typeof text === 'string') await page.locator(`#${id}`).fill(text);
  await page.getByRole('option', { name: text }).first().click();
}

/** An rjsf enum select (MUI select): opened, its option chosen. */
export async function select(page: Page, id: string, text: string | RegExp) {
  await page.locator(`#${id}`).click();
  await page.getByRole('option', { name: text }).first().click();
}

/** A worker's personal step as the requester fills it: a photo (seen), then who the worker is. */
export async function fillPersonal(
  page: Page,
  person: {
    photo: Buffer;
    document: string;
    surname: string;
    name: string;
    sex: RegExp;
    birth: string;
    phone: string;
  },
) {
  await page.locator('[data-testid="photo-file"]').setInputFiles({
    name: 'foto.png',
    mimeType: 'image/png',
    buffer: person.photo,
  });
  await expect
    .poll(() => page.locator('[data-testid="photo-preview"] img').count(), { timeout: 15_000 })
    .toBe(1);
  await choose(page, 'personal_IdTipoDocumento', 'DNI');
  await page.locator('#personal_Documento').fill(person.document);
  await page.locator('#personal_Apellido').fill(person.surname);
  await page.locator('#personal_Nombre').fill(person.name);
  await select(page, 'personal_Sexo', person.sex);
  await typeDate(page, 'personal_FechaNacimiento-label', person.birth);
  await choose(page, 'personal_IdPaisNacimiento', 'PER');
  await choose(page, 'personal_IdPaisResidencia', 'PER');
  await page.locator('#personal_TelefonoMovil').fill(person.phone);
}

/** Every requirement the requester fills: a value by type, a PDF where one is asked. */
export async function fillRequirements(page: Page, today: string) {
  const items = page.locator('.requirement-item[data-kind="S"]');
  await items.first().waitFor();
  const total = await items.count();
  for (let i = 0; i < total; i++) {
    const item = items.nth(i);
    const id = await item.getAttribute('data-item');
    const type = await item.getAttribute('data-type');
    if (type === 'file') {
      await item.locator(`input[data-attach="${id}"]`).setInputFiles({
        name: `constancia-${id}.pdf`,
        mimeType: 'application/pdf',
        buffer: pdf(`Constancia ${id}`),
      });
      await expect.poll(() => item.locator(`[data-preview="${id}"]`).count(), { timeout: 15_000 }).toBe(1);
    } else if (type === 'F') {
      await typeDate(page, `item-${id}-label`, addDays(today, 300));
    } else if (type === 'L' || type === 'B') {
      await pickFromMenu(page, page.locator(`#item-${id}`), (menu) => menu.getByRole('option').nth(1));
    } else {
      await page.locator(`#item-${id}`).fill(type === 'N' ? '12' : `VALOR ${id}`);
    }
  }
}

/**
 * A select's menu as a person uses it: opened by `opener`, the option `option` picks within the
 * menu now open, then closed. The next step waits until the menu is gone, as a person waits to
 * see it close: an option of a menu still closing is never taken for one of the next.
 */
export async function pickFromMenu(
  page: Page,
  opener: Locator,
  option: (menu: Locator) => Locator,
): Promise<void> {
  await opener.click();
  const menu = page.getByRole('listbox');
  await option(menu).click();
  await expect.poll(() => menu.count()).toBe(0);
}

/** The authoriser sets a line's state (and observation) in the evaluation screen. */
export async function setLine(page: Page, line: string, state: string, observation?: string) {
  await pickFromMenu(page, page.locator(`[data-state-select="${line}"]`).locator('..'), (menu) =>
    menu.locator(`[data-option="${state}"]`),
  );
  if (observation) await page.locator(`[data-observation="${line}"]`).fill(observation);
}

/** Approves what the requester entered, then what the authoriser records, then the request. */
export async function approveAll(page: Page, lang: Lang, today: string) {
  const save = lang === 'es' ? /Guardar evaluación/ : /Save evaluation/;
  for (const kind of ['S', 'A']) {
    const lines = page.locator(`.requirement-item[data-kind="${kind}"] .evaluation`);
    const total = await lines.count();
    for (let i = 0; i < total; i++) {
      const line = lines.nth(i);
      const id = (await line.getAttribute('data-evaluate')) as string;
      if (kind === 'A') {
        const input = page.locator(`#item-${id}`);
        const type = await page.locator(`.requirement-item[data-item="${id}"]`).getAttribute('data-type');
        if (type === 'F') await typeDate(page, `item-${id}-label`, today);
        else if (type === 'L' || type === 'B')
          await pickFromMenu(page, input, (menu) => menu.getByRole('option').nth(1));
        else if (type !== 'file') await input.fill(type === 'N' ? '1' : 'CONFORME');
      }
      if (
        (await page.locator(`.requirement-item[data-item="${id}"]`).getAttribute('data-line-status')) !== 'A'
      )
        await setLine(page, id, 'A');
    }
    if (total) {
      await button(page, save).click();
      await page.locator('[data-testid="evaluation"]').waitFor();
      await page.waitForLoadState('networkidle');
    }
  }
  await page.locator('[data-action="APROBAR"]').click();
  await page.waitForURL(/\/(movilizacion|requisito)\/autorizador\/(persona|vehiculo|visita|empresa)\?/);
}

/**
 * Saves the request from its form, which then goes back to the requests list it was opened from
 * (spec section 4); the list opens it again.
 */
export async function saveAndReopen(page: Page, id: number, saved: string) {
  await page.locator('[data-testid="save-request"]').click();
  await page.getByText(saved, { exact: true }).first().waitFor();
  await page.waitForURL(/\/movilizacion\/solicitante\/(persona|vehiculo|visita|empresa)(\?.*)?$/);
  await page.locator(`[data-open-request="${id}"]`).click();
  await page.locator('[data-testid="request-form"]').waitFor();
}

/** Sends the request from the wizard's last step. */
export async function sendRequest(page: Page) {
  await page.locator('[data-step="finalise"]').click();
  await page.locator('[data-testid="send-request"]').click();
  await page.waitForURL(/\/(movilizacion|requisito)\/solicitante\/(persona|vehiculo|visita|empresa)$/);
}
