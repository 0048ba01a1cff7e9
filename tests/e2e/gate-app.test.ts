import { createPrivateKey, sign } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Sqlite from 'better-sqlite3';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BadgeClaims, claimsBytes, tokenOf } from '../../src/shared/badge-token.js';
import { addDays, siteDate } from '../../src/shared/dates.js';
import { seriousAxeFindings } from '../support/axe.js';
import { PHONE } from '../support/browser.js';
import { launchWithCamera, videoOf } from '../support/camera.js';
import { signInBySession } from '../support/console.js';
import { type RunningServer, startRealServer } from '../support/server.js';

// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON
type Json = any;
const SOUTH = 'UNIDAD MINERA SAN GABRIEL';
const EQUIPMENT = 1; // the main gate's entry turnstile, at control point 1 (doors 1 in, 2 out)
const SHOTS = '/tmp/gate-shots';
describe('the gate app decides offline and sends its markings when back online', () => {
  let server: RunningServer;
  let browser: Browser;
  let db: Sqlite.Database;
  let folder: string;
  const problems: string[] = [];
  const today = siteDate('PE');
  const people: Array<{ id: number; card: string; credential: number; name: string }> = [];
  let tokens: string[] = [];
  /** The plate of the vehicle whose type needs its driver's internal licence. */
  let plate = '';

  beforeAll(async () => {
    server = await startRealServer();
    folder = mkdtempSync(join(tmpdir(), 'gate-app-'));
    mkdirSync(SHOTS, { recursive: true });
    // The server makes its signing key on first use.
    await fetch(`${server.url}/api/acceso/clave`);
    db = new Sqlite(join(server.dataDir, 'acreditacion.db'));
    db.pragma('busy_timeout = 5000');
    const workers = db
      .prepare(
        `select a.IdAcreditacion, a.IdPersona, p.Apellido, p.Nombre from accreditation_accreditation a
         join administration_person p on p.IdPersona = a.IdPersona
         where a.IdDivision = 1 and a.IdEntidad = 'T' and a.IdPersona is not null
         order by a.IdAcreditacion limit 2`,
      )
      .all() as Json[];
    const type = db
      .prepare('select IdTipoCredencial, IdMotivoEmision from identification_credential limit 1')
      .get() as Json;
    // A schedule open round the clock on the control point's doors, whatever the hour the test runs at.
    const schedule = db
      .prepare(
        `insert into access_schedule (IdCliente, Descripcion, Activo) values (1, 'GARITA 24 HORAS', 'S')`,
      )
      .run().lastInsertRowid;
    for (let day = 1; day <= 7; day++)
      db.prepare(
        `insert into access_schedule_interval (IdHorario, Dia, HoraInicio, HoraFin, Activo) values (?, ?, '00:00', '23:59', 'S')`,
      ).run(schedule, day);
    const group = db
      .prepare(
        `insert into access_access_group (IdCliente, IdDivision, Descripcion, IdHorario, Activo) values (1, 1, 'GARITA APP', ?, 'S')`,
      )
      .run(schedule).lastInsertRowid;
    for (const door of [1, 2])
      db.prepare('insert into access_access_group_puertas (IdGrupoAcceso, Valor) values (?, ?)').run(
        group,
        door,
      );
    const profile = db
      .prepare(
        `insert into access_access_profile (IdCliente, IdDivision, Descripcion, IdEntidad, ValidarRequisitos, Activo)
         values (1, 1, 'GARITA APP', 'T', 'N', 'S')`,
      )
      .run().lastInsertRowid;
    db.prepare('insert into access_access_profile_grupos (IdPerfilAcceso, Valor) values (?, ?)').run(
      profile,
      group,
    );
    for (const [i, worker] of workers.entries()) {
      const id = Number(worker.IdPersona);
      db.prepare(
        `update accreditation_accreditation set Estado = 'A', FechaInicio = ?, FechaFin = ? where IdPersona = ? and IdDivision = 1`,
      ).run(addDays(today, -10), addDays(today, 60), id);
      db.prepare(
        `update administration_person set Condicion = 'T', Inactivo = 'N', ValidarRequisitosAcceso = 'N' where IdPersona = ?`,
      ).run(id);
      db.prepare(`update access_restriction set Activo = 'N' where IdPersona = ?`).run(id);
      db.prepare(`update identification_credential set Activo = 'N' where IdPersona = ?`).run(id);
      db.prepare('delete from access_presence where Titular = ?').run(`P:${id}`);
      db.prepare('delete from access_marking where IdPersona = ?').run(id);
      db.prepare(
        `insert into access_person_access (IdCliente, IdDivision, IdPersona, IdPerfilAcceso, FechaInicio, FechaFin, Temporal, Activo)
         values (1, 1, ?, ?, ?, ?, 'N', 'S')`,
      ).run(id, profile, addDays(today, -10), addDays(today, 60));
      const card = `GARITA-000${i + 1}`;
      const credential = db
        .prepare(
          `insert into identification_credential (IdCliente, TipoTitular, IdPersona, IdTipoCredencial, Numero, FechaInicio, FechaFin, Impreso, IdMotivoEmision, Activo)
           values (1, 'P', ?, ?, ?, ?, ?, 'S', ?, 'S')`,
        )
        .run(
          id,
          type.IdTipoCredencial,
          card,
          addDays(today, -10),
          addDays(today, 60),
          type.IdMotivoEmision,
        ).lastInsertRowid;
      people.push({ id, card, credential: Number(credential), name: `${worker.Apellido}, ${worker.Nombre}` });
    }
    // A vehicle of the division let through the same doors, whose type needs its driver's internal
    // licence; the first worker holds one of its type.
    const car = db
      .prepare(
        `select v.IdVehiculo, v.Placa, v.IdTipoVehiculo from accreditation_accreditation a
         join administration_vehicle v on v.IdVehiculo = a.IdVehiculo
         where a.IdDivision = 1 and a.IdEntidad = 'V' order by a.IdAcreditacion limit 1`,
      )
      .get() as Json;
    db.prepare(
      `update accreditation_accreditation set Estado = 'A', FechaInicio = ?, FechaFin = ? where IdVehiculo = ? and IdDivision = 1`,
    ).run(addDays(today, -10), addDays(today, 60), car.IdVehiculo);
    db.prepare(`update administration_vehicle set Estado = 'A' where IdVehiculo = ?`).run(car.IdVehiculo);
    db.prepare(
      `update administration_vehicle_type set RequiereLicenciaInterna = 'S' where IdTipoVehiculo = ?`,
    ).run(car.IdTipoVehiculo);
    db.prepare(`delete from administration_vehicle_maintenance where IdVehiculo = ?`).run(car.IdVehiculo);
    const vehicles = db
      .prepare(
        `insert into access_access_profile (IdCliente, IdDivision, Descripcion, IdEntidad, ValidarRequisitos, Activo)
         values (1, 1, 'GARITA APP VEHÍCULOS', 'V', 'N', 'S')`,
      )
      .run().lastInsertRowid;
    db.prepare('insert into access_access_profile_grupos (IdPerfilAcceso, Valor) values (?, ?)').run(
      vehicles,
      group,
    );
    db.prepare(
      `insert into access_vehicle_access (IdCliente, IdDivision, IdVehiculo, IdPerfilAcceso, FechaInicio, FechaFin, Temporal, Activo)
       values (1, 1, ?, ?, ?, ?, 'N', 'S')`,
    ).run(car.IdVehiculo, vehicles, addDays(today, -10), addDays(today, 60));
    db.prepare(
      `insert into administration_internal_licence (IdCliente, IdPersona, NumeroLicencia, IdTipoVehiculo, FechaEmision, FechaVencimiento, Activo)
       values (1, ?, '2026880001', ?, ?, ?, 'S')`,
    ).run(people[0].id, car.IdTipoVehiculo, addDays(today, -30), addDays(today, 300));
    plate = String(car.Placa);

    // The second worker is demobilised: accreditation terminated, card inactivated (as the approval does).
    const [, gone] = people;
    db.prepare(
      `update accreditation_accreditation set Estado = 'T' where IdPersona = ? and IdDivision = 1`,
    ).run(gone.id);
    db.prepare(`update identification_credential set Activo = 'N' where IdPersona = ?`).run(gone.id);

    // Their badges' QR tokens, signed with the server's key, on the fake camera one after the other.
    const { Privada } = db.prepare('select Privada from access_signing_key where Id = 1').get() as Json;
    tokens = people.map((p) => {
      const claims: BadgeClaims = {
        IdCliente: 1,
        IdDivision: 1,
        IdCredencial: p.credential,
        Numero: p.card,
        Titular: `P:${p.id}`,
        Hasta: addDays(today, 60),
      };
      return tokenOf(claims, new Uint8Array(sign(null, claimsBytes(claims), createPrivateKey(Privada))));
    });
    const video = join(folder, 'badges.y4m');
    await videoOf(
      tokens.map((text) => ({ bcid: 'qrcode', text })),
      3,
      video,
    );
    browser = await launchWithCamera(video);
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    db?.close();
    await server?.stop();
    if (folder) rmSync(folder, { recursive: true, force: true });
  });

  const watch = (page: Page) => {
    page.setDefaultTimeout(20_000);
    page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
    page.on('console', (message) => {
      // A request the app made while offline fails by design; anything else is a problem.
      if (message.type() === 'error' && !/ERR_INTERNET_DISCONNECTED|Failed to fetch/.test(message.text()))
        problems.push(`${message.type()}: ${message.text()}`);
    });
  };

  /** Puts a record straight into one of the gate app's stores on the device (as it would have kept it). */
  const putInDevice = (page: Page, store: string, record: Json) =>
    page.evaluate(
      ([name, value]) =>
        new Promise<void>((resolve, reject) => {
          const open = indexedDB.open('garita');
          open.onsuccess = () => {
            const tx = open.result.transaction(name, 'readwrite');
            tx.objectStore(name).put(value);
            tx.oncomplete = () => {
              open.result.close();
              resolve();
            };
            tx.onerror = () => reject(tx.error);
          };
          open.onerror = () => reject(open.error);
        }),
      [store, record] as const,
    );

  async function enrolmentCode(equipment = EQUIPMENT): Promise<string> {
    const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    const page = await context.newPage();
    watch(page);
    await signInBySession(page, server.url, 'ADMIN', { division: SOUTH, at: null });
    await page.goto(`${server.url}/equipment/${equipment}/show`);
    await page.locator('.device-key').click();
    await page.getByRole('button', { name: 'Mostrar código de enrolamiento' }).click();
    const qr = page.getByRole('img', { name: 'Código QR de enrolamiento' });
    await qr.waitFor();
    const code = String(await qr.getAttribute('data-enrolment-code'));
    expect(await page.getByRole('dialog').textContent()).toContain(`Código: ${code}`);
    expect(await page.getByRole('dialog').textContent()).toMatch(
      /Válido hasta las \d{2}:\d{2}, una sola vez/,
    );
    if (equipment === EQUIPMENT)
      await page.getByRole('dialog').screenshot({ path: `${SHOTS}/enrolment-es.png` });
    await context.close();
    return code;
  }

  /**
   * The verdict on screen once `which` of it shows, read in one go: the camera's video loops through
   * the badges, so the verdict changes every few seconds and two reads could see two verdicts. A
   * verdict that never shows fails with what the screen showed instead.
   */
  async function verdictShown(page: Page, which: string): Promise<{ reason: string; text: string }> {
    const shown = page.getByTestId('verdict').and(page.locator(which));
    try {
      await shown.waitFor();
    } catch (error) {
      const screen = await page.locator('body').innerText();
      throw new Error(`no verdict ${which} came; the screen shows:\n${screen}`, { cause: error });
    }
    return shown.evaluate((el) => ({
      reason: el.getAttribute('data-reason') ?? '',
      text: el.textContent ?? '',
    }));
  }

  const documentOf = (id: number) =>
    (db.prepare('select Documento from administration_person where IdPersona = ?').get(id) as Json)
      .Documento as string;

  const markings = (id: number) =>
    db
      .prepare(
        'select Resultado, Funcion, IdEquipo, IdMarcaDispositivo from access_marking where IdPersona = ? order by IdMarcacion',
      )
      .all(id) as Json[];

  it('enrols, reads badges offline (allowed, demobilised denied), and sends each marking once', async () => {
    const [worker, gone] = people;
    const code = await enrolmentCode();
    const context: BrowserContext = await browser.newContext({ ...PHONE, locale: 'es-PE' });
    const page = await context.newPage();
    watch(page);
    // The enrolment QR opens the app with its code; the list comes at once.
    await page.goto(`${server.url}/garita/?enrolar=${code}`);
    await expect
      .poll(() => page.getByTestId('list-age').textContent())
      .toMatch(/^Lista v\d+ · hace \d+ min$/);
    expect(new URL(page.url()).search).toBe('');
    // Installable: its manifest names PNG icons of the two sizes installers take, and each is served.
    const manifest = (await (await fetch(`${server.url}/garita/manifest.webmanifest`)).json()) as {
      icons: Array<{ src: string; sizes: string; type: string }>;
    };
    const pngs = manifest.icons.filter((icon) => icon.type === 'image/png');
    expect(pngs.map((icon) => icon.sizes).sort()).toEqual(['192x192', '512x512']);
    for (const icon of pngs) {
      const served = await fetch(`${server.url}${icon.src}`);
      expect([served.status, served.headers.get('content-type')]).toEqual([200, 'image/png']);
    }
    // The shell is kept by the service worker, so the app comes back without a network too.
    await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));

    await context.setOffline(true);
    await page.reload();
    await page.getByTestId('network').filter({ hasText: 'Sin red' }).waitFor();
    await page.getByRole('button', { name: 'Encender cámara' }).click();

    const allowed = await verdictShown(page, '[data-allow="true"]');
    expect(allowed.text).toContain(worker.name);
    expect(allowed.text).toContain('PUEDE PASAR');
    expect(allowed.text).toContain('Acceso permitido');
    expect(allowed.text).toContain('Entrada');
    // Both verdicts read at WCAG AA contrast, whatever the light at a gate.
    expect(await seriousAxeFindings(page)).toEqual([]);
    await page.screenshot({ path: `${SHOTS}/allowed-es.png` });

    const denied = await verdictShown(page, '[data-allow="false"]');
    expect(denied.reason).toBe('CREDENTIAL_INACTIVE');
    expect(denied.text).toContain(gone.name);
    expect(denied.text).toContain(`La credencial ${gone.card} está inactiva`);
    expect(denied.text).toContain('NO PASA');
    expect(await seriousAxeFindings(page)).toEqual([]);
    await page.screenshot({ path: `${SHOTS}/denied-es.png` });
    await page.getByRole('button', { name: 'Detener cámara' }).click();

    await expect.poll(() => page.getByTestId('pending').getAttribute('data-count')).toBe('2');
    expect(markings(worker.id)).toEqual([]);

    // A marking the server can never take waits with them (a door of another division, as a device
    // moved between sites would hold): it must not hold the others back.
    await putInDevice(page, 'marks', {
      IdMarca: 'otra-division-1',
      IdPuerta: 6,
      Funcion: 'E',
      FechaHora: new Date().toISOString(),
      Resultado: 'P',
      Documento: '40000000',
    });

    // Back online: the markings are sent once, the worker is on site (the headcount's presence); the
    // one the server refuses is set aside with its count on screen, never lost.
    await context.setOffline(false);
    await expect
      .poll(() => page.getByTestId('pending').getAttribute('data-count'), { timeout: 30_000 })
      .toBe('0');
    expect(await page.getByTestId('refused').textContent()).toBe('Rechazadas por el servidor: 1');
    // That one refusal is the browser's only failed call (it logs it): nothing else went wrong.
    await expect.poll(() => problems.filter((p) => p.includes('status of 400')).length).toBe(1);
    problems.splice(
      problems.findIndex((p) => p.includes('status of 400')),
      1,
    );
    await page.getByTestId('network').filter({ hasText: 'En línea' }).waitFor();
    expect(markings(worker.id)).toMatchObject([{ Resultado: 'P', Funcion: 'E', IdEquipo: EQUIPMENT }]);
    expect(markings(gone.id)).toMatchObject([{ Resultado: 'D', Funcion: 'E', IdEquipo: EQUIPMENT }]);
    const presence = db
      .prepare('select Funcion from access_presence where Titular = ?')
      .get(`P:${worker.id}`) as Json;
    expect(presence.Funcion).toBe('E');
    expect(
      db.prepare('select count(*) as n from access_presence where Titular = ?').get(`P:${gone.id}`),
    ).toEqual({
      n: 0,
    });

    // In English, on the same device, with typed documents: the worker going out, the demobilised one.
    await page.getByRole('button', { name: 'English' }).click();
    await page.getByRole('button', { name: 'Exit' }).click();
    const field = page.getByLabel('Document or plate (when there is no badge)');
    // With the camera off, the verdict changes only on a typed reading.
    const verdict = page.getByTestId('verdict');
    await field.fill(documentOf(worker.id));
    await page.getByRole('button', { name: 'Check' }).click();
    await verdict.and(page.locator('[data-allow="true"]')).waitFor();
    expect(await verdict.textContent()).toContain(worker.name);
    expect(await verdict.textContent()).toContain('ALLOWED');
    expect(await verdict.textContent()).toContain('Access allowed');
    expect(await verdict.textContent()).toContain('Exit');
    await page.screenshot({ path: `${SHOTS}/allowed-en.png` });
    await page.getByRole('button', { name: 'Entry' }).click();
    await field.fill(documentOf(gone.id));
    await page.getByRole('button', { name: 'Check' }).click();
    await verdict.and(page.locator('[data-reason="ACCREDITATION_TERMINATED"]')).waitFor();
    expect(await verdict.textContent()).toContain('DENIED');
    expect(await verdict.textContent()).toContain('Accreditation terminated (demobilised)');
    expect(await verdict.textContent()).toContain(gone.name);
    await page.screenshot({ path: `${SHOTS}/denied-en.png` });
    await expect
      .poll(() => page.getByTestId('pending').getAttribute('data-count'), { timeout: 30_000 })
      .toBe('0');
    expect(markings(worker.id)).toMatchObject([{ Funcion: 'E' }, { Resultado: 'P', Funcion: 'S' }]);
    expect(markings(gone.id).length).toBe(2);

    // A vehicle whose type needs an internal licence: its plate asks for the driver; the worker's
    // document (holding one of its type) lets it in, and the marking names the driver.
    await field.fill(plate);
    await page.getByRole('button', { name: 'Check' }).click();
    const wanted = page.getByTestId('driver-wanted');
    await wanted.waitFor();
    expect(await wanted.textContent()).toContain('its type needs an internal licence');
    await page.screenshot({ path: `${SHOTS}/driver-wanted-en.png` });
    await field.fill(documentOf(worker.id));
    await page.getByRole('button', { name: 'Check' }).click();
    await verdict.and(page.locator('[data-allow="true"]')).waitFor();
    expect(await verdict.textContent()).toContain(plate);
    expect(await wanted.count()).toBe(0);
    await expect
      .poll(() => page.getByTestId('pending').getAttribute('data-count'), { timeout: 30_000 })
      .toBe('0');
    const driven = db
      .prepare(
        `select Resultado, Funcion, CodigoMotivo from access_marking where Placa = ? order by IdMarcacion`,
      )
      .all(plate) as Json[];
    expect(driven.at(-1)).toMatchObject({ Resultado: 'P', Funcion: 'E', CodigoMotivo: 'ALLOWED' });

    // An old list (its age set back in the device's store, offline so it is not renewed): past the
    // control point's first limit (24 h) a warning, past the second (72 h) every reading is denied.
    const ageList = (hours: number) =>
      page.evaluate(
        (h) =>
          new Promise<void>((done, fail) => {
            const opening = indexedDB.open('garita');
            opening.onerror = () => fail(opening.error);
            opening.onsuccess = () => {
              const tx = opening.result.transaction('settings', 'readwrite');
              const settings = tx.objectStore('settings');
              const held = settings.get('list');
              held.onsuccess = () =>
                settings.put(
                  { ...held.result, generado: new Date(Date.now() - h * 3_600_000).toISOString() },
                  'list',
                );
              tx.oncomplete = () => {
                opening.result.close();
                done();
              };
              tx.onerror = () => fail(tx.error);
            };
          }),
        hours,
      );
    await context.setOffline(true);
    await ageList(30);
    await page.reload();
    await page.getByRole('status').filter({ hasText: 'The list is more than 24 h old' }).waitFor();
    await ageList(80);
    await page.reload();
    await page.getByRole('alert').filter({ hasText: 'every access is denied until it is renewed' }).waitFor();
    await field.fill(documentOf(worker.id));
    await page.getByRole('button', { name: 'Check' }).click();
    await verdict.and(page.locator('[data-reason="LIST_TOO_OLD"]')).waitFor();
    expect(await verdict.textContent()).toContain('DENIED');
    expect(await verdict.textContent()).toContain('The allow-list is more than 72 h old');
    await page.screenshot({ path: `${SHOTS}/list-too-old-en.png` });
    // Online again: a fresh list, no warning; the refused marking is sent as a denial.
    await context.setOffline(false);
    await page
      .getByRole('alert')
      .filter({ hasText: 'every access is denied' })
      .waitFor({ state: 'detached' });
    await expect
      .poll(() => page.getByTestId('pending').getAttribute('data-count'), { timeout: 30_000 })
      .toBe('0');
    expect(markings(worker.id).at(-1)).toMatchObject({ Resultado: 'D' });
    expect(problems).toEqual([]);

    // The equipment's key revoked (as the console's Revocar does): at its next call the app says so
    // and offers to enrol again.
    db.prepare('update access_device_key set RevocadoEn = ? where IdEquipo = ? and RevocadoEn is null').run(
      Date.now(),
      EQUIPMENT,
    );
    await context.setOffline(true);
    await context.setOffline(false);
    await page.getByRole('alert').filter({ hasText: "The server refused this device's key" }).waitFor();
    await page.getByRole('button', { name: 'Enrol again' }).click();
    await page.getByRole('heading', { name: 'Enrol this device' }).waitFor();
    // The refused calls are the only errors the browser logged.
    expect(problems.every((p) => p.includes('status of 401'))).toBe(true);
    await context.close();
  }, 180_000);

  it('says it is offline when the link drops while a synchronisation is under way', async () => {
    const code = await enrolmentCode();
    const context: BrowserContext = await browser.newContext({ ...PHONE, locale: 'es-PE' });
    const page = await context.newPage();
    watch(page);
    await page.goto(`${server.url}/garita/?enrolar=${code}`);
    await page.getByTestId('network').filter({ hasText: 'En línea' }).waitFor();
    // The next list asked for is answered by the server but held on its way to the app.
    let asked!: () => void;
    const isAsked = new Promise<void>((done) => {
      asked = done;
    });
    let release!: () => void;
    const released = new Promise<void>((done) => {
      release = done;
    });
    await page.route(
      '**/api/acceso/listapermitidos**',
      async (route) => {
        const response = await route.fetch();
        asked();
        await released;
        await route.fulfill({ response });
      },
      { times: 1 },
    );
    // Back from a short drop: the app synchronises at once, and its list call is held.
    await context.setOffline(true);
    await page.getByTestId('network').filter({ hasText: 'Sin red' }).waitFor();
    await context.setOffline(false);
    await isAsked;
    // The link drops again while the call is under way; a marking set aside meanwhile is counted by
    // the same synchronisation, so its count on screen shows that the synchronisation has ended.
    await context.setOffline(true);
    await page.getByTestId('network').filter({ hasText: 'Sin red' }).waitFor();
    await putInDevice(page, 'refused', { IdMarca: 'apartada-1', IdPuerta: 1, Motivo: 'x' });
    release();
    await page.getByTestId('refused').and(page.locator('[data-count="1"]')).waitFor();
    // The call got through before the drop, but the app is offline and says so.
    expect(await page.getByTestId('network').textContent()).toBe('Sin red');
    await page.unrouteAll({ behavior: 'ignoreErrors' });
    await context.close();
  }, 120_000);

  it("reads a document's Code 128 barcode with the camera", async () => {
    const [, gone] = people;
    const video = join(folder, 'document.y4m');
    await videoOf([{ bcid: 'code128', text: documentOf(gone.id) }], 3, video);
    const other = await launchWithCamera(video);
    try {
      const code = await enrolmentCode();
      const context = await other.newContext({ ...PHONE, locale: 'es-PE' });
      const page = await context.newPage();
      page.setDefaultTimeout(20_000);
      await page.goto(`${server.url}/garita/?enrolar=${code}`);
      await page
        .getByTestId('list-age')
        .filter({ hasText: /^Lista v\d+/ })
        .waitFor();
      await page.getByRole('button', { name: 'Encender cámara' }).click();
      const denied = await verdictShown(page, '[data-reason="ACCREDITATION_TERMINATED"]');
      expect(denied.text).toContain(gone.name);
      expect(denied.text).toContain('Acreditación terminada (desmovilizado)');
      expect(denied.text).toContain('NO PASA');
    } finally {
      await other.close();
    }
  }, 120_000);

  it("serves meals at a dining room's reader: asked to the server online, judged from the badge offline, sent when back", async () => {
    const [worker, gone] = people;
    // The first test's refused calls (its revoked key) are its own.
    problems.length = 0;
    // The central dining room's reader (an equipment also at the room's entrance control point), a
    // service open all day so the test does not depend on its hour, and the worker's company in a
    // group of the room with that service every weekday.
    const room = db
      .prepare(
        `select IdComedor, Descripcion, IdEquipo from dining_dining_room where Descripcion = 'COMEDOR CENTRAL SAN GABRIEL'`,
      )
      .get() as Json;
    const service = db
      .prepare(
        `insert into dining_dining_service (IdCliente, IdDivision, IdComedor, Descripcion, Orden, Costo, NumeroConsumos, Exclusivo, Especial, HoraInicio, HoraFin, Activo)
         values (1, 1, ?, 'COMIDA DE GUARDIA', 0, 15.4, 1, 'N', 'N', '00:00', '23:59', 'S')`,
      )
      .run(room.IdComedor).lastInsertRowid;
    const group = db
      .prepare(
        `insert into dining_dining_group (IdCliente, IdDivision, Descripcion, IdComedor, Activo) values (1, 1, 'GARITA APP', ?, 'S')`,
      )
      .run(room.IdComedor).lastInsertRowid;
    for (const person of [worker, gone]) {
      const { IdCompania } = db
        .prepare('select IdCompania from accreditation_accreditation where IdPersona = ? and IdDivision = 1')
        .get(person.id) as Json;
      db.prepare(
        'insert or ignore into dining_dining_group_companias (IdGrupoComedor, Valor) values (?, ?)',
      ).run(group, IdCompania);
    }
    for (let day = 1; day <= 7; day++)
      db.prepare(
        `insert into dining_dining_group_schedule (IdCliente, IdDivision, IdGrupoComedor, Dia, IdServicio, HoraInicio, HoraFin, Activo)
         values (1, 1, ?, ?, ?, '00:00', '23:59', 'S')`,
      ).run(group, day, service);
    const meals = (id: number) =>
      db
        .prepare(
          `select Resultado, CodigoMotivo, EnLinea, TipoMarcacion, ImporteTotal from dining_consumption
           where IdPersona = ? and IdServicio = ? order by IdConsumo`,
        )
        .all(id, service) as Json[];

    const code = await enrolmentCode(Number(room.IdEquipo));
    const context = await browser.newContext({ ...PHONE, locale: 'es-PE' });
    const page = await context.newPage();
    watch(page);
    await page.goto(`${server.url}/garita/?enrolar=${code}`);
    // The equipment serves a control point and a room: the guard chooses the dining hall.
    await page.getByRole('button', { name: 'Comedor', exact: true }).click();
    await page.getByRole('heading', { name: room.Descripcion }).waitFor();
    expect(await page.getByTestId('reader-rooms').textContent()).toBe('Lector de comedor');

    // A badge read as a keyboard scanner types it: online, the server decides and records the meal.
    const field = page.locator('#document');
    expect(await page.locator('label[for=document]').textContent()).toBe('Documento (si no hay credencial)');
    const verdict = page.getByTestId('verdict');
    const present = async (text: string) => {
      const before = (await verdict.count()) ? await verdict.getAttribute('data-at') : null;
      await field.fill(text);
      await page.getByRole('button', { name: /^(Verificar|Check)$/ }).click();
      await expect.poll(() => verdict.getAttribute('data-at')).not.toBe(before);
    };
    await present(tokens[0]);
    expect(await verdict.getAttribute('data-allow')).toBe('true');
    expect(await verdict.getAttribute('data-offline')).toBe('false');
    expect(await verdict.textContent()).toContain('PUEDE COMER');
    expect(await verdict.textContent()).toContain('Buen provecho');
    expect(await verdict.textContent()).toContain('Consumo 1 de 1');
    expect(await verdict.textContent()).toContain('COMIDA DE GUARDIA');
    await page.screenshot({ path: `${SHOTS}/dining-served-es.png` });
    expect(meals(worker.id)).toEqual([
      { Resultado: 'P', CodigoMotivo: 'ALLOWED', EnLinea: 'S', TipoMarcacion: 'C', ImporteTotal: 1540 },
    ]);
    // A second meal in the same service: refused by the server, and stored as a refusal.
    await present(tokens[0]);
    expect(await verdict.getAttribute('data-reason')).toBe('ALREADY_SERVED');
    expect(await verdict.textContent()).toContain('NO SE SIRVE');
    expect(await verdict.textContent()).toContain('Ya consumió COMIDA DE GUARDIA (1 de 1)');

    // Without a network: the count the server gave is kept, so the same badge is refused here too;
    // a document cannot be checked; the demobilised worker's badge, still genuine and in its dates,
    // is served (the reader cannot know), and the server records it with its own reason (the card was inactivated).
    await context.setOffline(true);
    await present(tokens[0]);
    expect(await verdict.getAttribute('data-reason')).toBe('ALREADY_SERVED');
    expect(await verdict.getAttribute('data-offline')).toBe('true');
    expect(await verdict.textContent()).toContain('decidido sin red');
    await present(documentOf(worker.id));
    expect(await verdict.getAttribute('data-reason')).toBe('DOCUMENT_NEEDS_NETWORK');
    expect(await verdict.textContent()).toContain('Sin red solo se sirve con la credencial');
    await present(tokens[1]);
    expect(await verdict.getAttribute('data-allow')).toBe('true');
    expect(await verdict.textContent()).toContain(gone.card);
    await page.screenshot({ path: `${SHOTS}/dining-offline-es.png` });
    await expect.poll(() => page.getByTestId('pending').getAttribute('data-count')).toBe('3');
    expect(meals(gone.id)).toEqual([]);

    await context.setOffline(false);
    await expect
      .poll(() => page.getByTestId('pending').getAttribute('data-count'), { timeout: 30_000 })
      .toBe('0');
    expect(meals(worker.id)).toEqual([
      { Resultado: 'P', CodigoMotivo: 'ALLOWED', EnLinea: 'S', TipoMarcacion: 'C', ImporteTotal: 1540 },
      {
        Resultado: 'D',
        CodigoMotivo: 'ALREADY_SERVED',
        EnLinea: 'S',
        TipoMarcacion: 'C',
        ImporteTotal: null,
      },
      {
        Resultado: 'D',
        CodigoMotivo: 'ALREADY_SERVED',
        EnLinea: 'N',
        TipoMarcacion: 'C',
        ImporteTotal: null,
      },
      // The document it could not check offline: refused there, the server's reason beside it.
      {
        Resultado: 'D',
        CodigoMotivo: 'ALREADY_SERVED',
        EnLinea: 'N',
        TipoMarcacion: 'T',
        ImporteTotal: null,
      },
    ]);
    expect(meals(gone.id)).toEqual([
      {
        Resultado: 'P',
        CodigoMotivo: 'CREDENTIAL_INACTIVE',
        EnLinea: 'N',
        TipoMarcacion: 'C',
        ImporteTotal: 1540,
      },
    ]);

    // In English, online again.
    await page.getByRole('button', { name: 'English' }).click();
    await present(tokens[0]);
    expect(await verdict.textContent()).toContain('DO NOT SERVE');
    expect(await verdict.textContent()).toContain('Already served COMIDA DE GUARDIA (1 of 1)');
    await page.screenshot({ path: `${SHOTS}/dining-refused-en.png` });
    expect(problems).toEqual([]);
    await context.close();
  }, 180_000);
});
