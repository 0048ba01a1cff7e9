import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, PHONE } from '../support/browser.js';
import { signedInPage } from '../support/console.js';
import { png } from '../support/png.js';
import { asUser } from '../support/request-screens.js';
import { type RunningServer, startRealServer } from '../support/server.js';

// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON
type Json = any;
const SOUTH = 'UNIDAD MINERA SAN GABRIEL';

/**
 * A person's and a vehicle's photos in a real browser: the administrator (Spanish, desktop) adds a
 * person's mobile photo and an extra one on the person's screen, is refused an image of the wrong
 * dimensions with the three-second message saying why (nothing is added), and removes a photo
 * after confirming; the contractor's requester (English, phone) adds a photo to its own company's
 * vehicle, sees it, and removes it.
 */
describe('photos of people and vehicles in a real browser', () => {
  let server: RunningServer;
  let browser: Browser;
  let admin: Page;
  let requester: Page;
  const problems: string[] = [];
  const { api, go } = asUser(() => server.url);
  const folder = mkdtempSync(join(tmpdir(), 'acr-photos-'));
  const file = (name: string, bytes: Buffer) => {
    const path = join(folder, name);
    writeFileSync(path, bytes);
    return path;
  };

  beforeAll(async () => {
    server = await startRealServer();
    browser = await launchBrowser();
    admin = await signedInPage(browser, server.url, 'ADMIN', problems, {
      division: SOUTH,
      context: { viewport: { width: 1400, height: 900 } },
    });
    requester = await signedInPage(browser, server.url, 'SOLICITANTE', problems, {
      context: PHONE,
      division: SOUTH,
    });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  /** The photo tiles of a group, by their images' names, once their images have loaded. */
  const tiles = (page: Page) => page.getByTestId('photo-tile');

  it('the administrator adds, is refused and removes a person’s photos', async () => {
    const people = (await api(admin, 'GET', '/api/rest/person?range=[0,99]')) as Json[];
    const person = people.find((p) => p.Condicion !== 'C');
    await go(admin, `/person/${person.id}`, 'es');
    const photos = admin.getByTestId('photos');
    await photos.getByRole('heading', { name: 'Fotos', exact: true }).waitFor();
    await expect.poll(() => photos.textContent()).toContain('Sin fotos.');

    await admin.getByTestId('photo-file-mobile').setInputFiles(file('movil.png', png(150, 160)));
    await admin.getByText('Foto movil.png agregada.').waitFor();
    await admin.getByRole('img', { name: 'movil.png' }).waitFor();
    // The image shows as it was sent.
    expect(
      await admin.getByRole('img', { name: 'movil.png' }).evaluate((i: HTMLImageElement) => i.naturalWidth),
    ).toBe(150);

    await admin.getByTestId('photo-file-extra').setInputFiles(file('ancha.png', png(400, 160, [200, 0, 0])));
    await admin
      .getByText(
        'La imagen mide 400 × 160 px; debe medir de 113 a 187 px de ancho y de 120 a 200 px de alto.',
      )
      .waitFor();
    await admin.getByTestId('photo-file-extra').setInputFiles(file('extra.png', png(140, 150, [0, 120, 0])));
    await admin.getByRole('img', { name: 'extra.png' }).waitFor();
    await expect.poll(() => tiles(admin).count()).toBe(2);
    await admin.screenshot({ path: 'test-results/photos-person-es.png', fullPage: true });

    await admin.getByRole('button', { name: 'Quitar la foto extra.png' }).click();
    await admin.getByRole('dialog').getByText('¿Quitar la foto extra.png? No se puede deshacer.').waitFor();
    await admin.getByRole('dialog').getByRole('button', { name: 'Confirmar' }).click();
    await admin.getByText('Foto extra.png quitada.').waitFor();
    await expect.poll(() => tiles(admin).count()).toBe(1);
    // What the screen shows is what is kept.
    const kept = (await api(
      admin,
      'GET',
      `/api/AdministracionPersona/fotos?IdPersona=${person.id}`,
    )) as Json[];
    expect(kept.map((p) => [p.Tipo, p.NombreArchivo])).toEqual([['M', 'movil.png']]);
    expect(problems).toEqual([]);
  }, 240_000);

  it('the requester adds and removes a photo of its own company’s vehicle on a phone', async () => {
    const vehicles = (await api(requester, 'GET', '/api/rest/vehicle?range=[0,9]')) as Json[];
    const vehicle = vehicles[0];
    await go(requester, `/vehicle/${vehicle.id}/show`, 'en');
    const photos = requester.getByTestId('photos');
    await photos.getByRole('heading', { name: 'Vehicle photos' }).waitFor();
    await requester
      .getByTestId('photo-file-vehicle')
      .setInputFiles(file('front.jpg', png(150, 160, [30, 30, 30])));
    await requester.getByText('Photo front.jpg added.').waitFor();
    await requester.getByRole('img', { name: 'front.jpg' }).waitFor();
    await requester.screenshot({ path: 'test-results/photos-vehicle-en-phone.png', fullPage: true });

    await requester
      .getByTestId('photo-file-vehicle')
      .setInputFiles(file('notes.txt', Buffer.from('not an image')));
    await requester.getByText('The file notes.txt is not a .png, .jpg or .jpeg image.').waitFor();

    await requester.getByRole('button', { name: 'Remove the photo front.jpg' }).click();
    await requester.getByRole('dialog').getByRole('button', { name: 'Confirm' }).click();
    await requester.getByText('Photo front.jpg removed.').waitFor();
    await expect.poll(() => tiles(requester).count()).toBe(0);
    expect(await api(requester, 'GET', `/api/AdministracionVehiculo/fotos?IdVehiculo=${vehicle.id}`)).toEqual(
      [],
    );
    expect(problems).toEqual([]);
  }, 240_000);
});
