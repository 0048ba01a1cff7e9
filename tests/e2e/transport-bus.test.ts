import { createPrivateKey, sign } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Sqlite from 'better-sqlite3';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BadgeClaims, claimsBytes, tokenOf } from '../../src/shared/badge-token.js';
import { addDays, siteDate } from '../../src/shared/dates.js';
import { PHONE } from '../support/browser.js';
import { launchWithCamera, videoOf } from '../support/camera.js';
import { consoleSession, signInBySession } from '../support/console.js';
import { api } from '../support/processes.js';
import { type RunningServer, startRealServer } from '../support/server.js';

// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary rows
type Json = any;
const SOUTH = 'UNIDAD MINERA SAN GABRIEL';
const SHOTS = '/tmp/transport-shots';
describe('the door of a bus boards from the signed manifest offline and sends each reading once', () => {
  let server: RunningServer;
  let browser: Browser;
  let db: Sqlite.Database;
  let folder: string;
  let trip: number;
  const problems: string[] = [];
  const today = siteDate('PE');
  const people: Array<{ id: number; card: string; credential: number; name: string }> = [];

  beforeAll(async () => {
    server = await startRealServer();
    folder = mkdtempSync(join(tmpdir(), 'bus-door-'));
    mkdirSync(SHOTS, { recursive: true });
    await fetch(`${server.url}/api/acceso/clave`);
    db = new Sqlite(join(server.dataDir, 'acreditacion.db'));
    db.pragma('busy_timeout = 5000');
    // Three workers accredited in the south today: two booked on a trip leaving tonight, one not.
    const workers = db
      .prepare(
        `select a.IdPersona, a.IdCompania, p.Apellido, p.Nombre from accreditation_accreditation a
         join administration_person p on p.IdPersona = a.IdPersona
         where a.IdDivision = 1 and a.IdEntidad = 'T' and a.IdPersona is not null
           and a.IdPersona not in (select IdPersona from transport_trip_booking)
         group by a.IdPersona order by a.IdPersona limit 3`,
      )
      .all() as Json[];
    const type = db
      .prepare('select IdTipoCredencial, IdMotivoEmision from identification_credential limit 1')
      .get() as Json;
    // A bus of the division on no trip today.
    const bus = db
      .prepare(
        `select IdBus, Asientos from transport_transport_bus where IdDivision = 1
         and IdBus not in (select IdBus from transport_trip where Fecha = ?) order by Asientos desc, IdBus limit 1`,
      )
      .get(today) as Json;
    const route = db
      .prepare(`select IdRuta from transport_transport_route where Codigo = 'CAMP-PLT' and IdDivision = 1`)
      .get() as Json;
    trip = Number(
      db
        .prepare(
          `insert into transport_trip (IdCliente, IdDivision, IdRuta, Fecha, Hora, Sentido, IdBus, IdConductor, Asientos, Reservados, Abordados, Estado)
           values (1, 1, ?, ?, '23:30', 'I', ?, ?, ?, 2, 0, 'P')`,
        )
        .run(route.IdRuta, today, bus.IdBus, workers[2].IdPersona, bus.Asientos).lastInsertRowid,
    );
    for (const [i, w] of workers.entries()) {
      const id = Number(w.IdPersona);
      db.prepare(
        `update accreditation_accreditation set Estado = 'A', FechaInicio = ?, FechaFin = ? where IdPersona = ? and IdDivision = 1`,
      ).run(addDays(today, -10), addDays(today, 60), id);
      db.prepare(`update identification_credential set Activo = 'N' where IdPersona = ?`).run(id);
      const card = `BUS-000${i + 1}`;
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
      people.push({ id, card, credential: Number(credential), name: `${w.Apellido} ${w.Nombre}` });
      if (i < 2)
        db.prepare(
          `insert into transport_trip_booking (IdCliente, IdDivision, IdViaje, IdPersona, IdCompania, Fecha, Sentido, Asiento, Estado, Excepcion, FechaReserva, IdUsuarioReserva)
           values (1, 1, ?, ?, ?, ?, 'I', ?, 'R', 'N', ?, 'TRANSPORTE')`,
        ).run(trip, id, w.IdCompania, today, i + 1, new Date().toISOString());
    }
    // The first booked worker's badge on the fake camera (the worker not booked gives a card number by hand).
    const { Privada } = db.prepare('select Privada from access_signing_key where Id = 1').get() as Json;
    const tokens = [people[0]].map((p) => {
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
      if (message.type() === 'error' && !/ERR_INTERNET_DISCONNECTED|Failed to fetch/.test(message.text()))
        problems.push(`${message.type()}: ${message.text()}`);
    });
  };
  const boardings = () =>
    db
      .prepare(
        'select IdPersona, Resultado, Motivo from transport_trip_boarding where IdViaje = ? order by IdAbordaje',
      )
      .all(trip) as Json[];

  it('takes the manifest online, boards a booked badge and an exception offline, then syncs once; the coordinator sees the no-show and the road', async () => {
    const session = await consoleSession(server.url, 'ADMIN', { division: SOUTH });
    const token = JSON.parse(
      session.origins[0].localStorage.find((i) => i.name === 'acreditacion.auth')?.value ?? '{}',
    ).accessToken;
    const { code } = await api(server.url, 'POST', '/api/acceso/equipo/1/enrolamiento', token);
    const context = await browser.newContext({ ...PHONE, locale: 'es-PE' });
    const page = await context.newPage();
    watch(page);
    await page.goto(`${server.url}/garita/?enrolar=${code}`);
    await page.getByTestId('list-age').waitFor();
    await page.getByRole('button', { name: 'Bus', exact: true }).click();
    await page.getByRole('button', { name: 'Ver los viajes de hoy' }).click();
    await page.getByTestId('bus-trip').selectOption(String(trip));
    await page.getByTestId('bus-take').click();
    await expect
      .poll(() => page.getByTestId('bus-manifest').textContent())
      .toContain('0 abordaron de 2 reservados');
    await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));

    await context.setOffline(true);
    await page.reload();
    await page.getByTestId('network').filter({ hasText: 'Sin red' }).waitFor();
    await page.getByRole('button', { name: 'Encender cámara' }).click();
    const verdict = page.getByTestId('verdict');
    await verdict.and(page.locator('[data-reason="BOARD"]')).waitFor();
    expect(await verdict.textContent()).toContain(people[0].name);
    expect(await verdict.textContent()).toContain('Asiento 1');
    await page.screenshot({ path: `${SHOTS}/bus-board-es.png` });
    await page.getByRole('button', { name: 'Detener cámara' }).click();
    await page.getByLabel('Número de credencial (si no se lee el código)').fill(people[2].card);
    await page.getByRole('button', { name: 'Verificar' }).click();
    await verdict.and(page.locator('[data-reason="NOT_BOOKED"]')).waitFor();
    expect(await verdict.textContent()).toContain(people[2].name);
    await page.getByLabel(/Motivo para abordarlo sin reserva/).fill('Reemplazo de guardia');
    await page.getByRole('button', { name: 'Abordar como excepción' }).click();
    await verdict.and(page.locator('[data-reason="EXCEPTION"]')).waitFor();
    await page.screenshot({ path: `${SHOTS}/bus-exception-es.png` });
    await expect.poll(() => page.getByTestId('bus-manifest').getAttribute('data-boarded')).toBe('2');
    // The two boarded and the refusal wait on the phone; nothing reached the server.
    await expect
      .poll(async () => Number(await page.getByTestId('pending').getAttribute('data-count')))
      .toBeGreaterThanOrEqual(3);
    expect(boardings()).toEqual([]);

    await context.setOffline(false);
    await expect
      .poll(() => page.getByTestId('pending').getAttribute('data-count'), { timeout: 30_000 })
      .toBe('0');
    const kept = boardings();
    expect(kept.filter((b) => b.Resultado === 'P').map((b) => [b.IdPersona, b.Motivo])).toEqual([
      [people[0].id, 'BOARD'],
      [people[2].id, 'EXCEPTION'],
    ]);
    const seats = db
      .prepare(
        'select IdPersona, Estado, Excepcion from transport_trip_booking where IdViaje = ? order by Asiento',
      )
      .all(trip) as Json[];
    expect(seats).toEqual([
      { IdPersona: people[0].id, Estado: 'A', Excepcion: 'N' },
      { IdPersona: people[1].id, Estado: 'R', Excepcion: 'N' },
      { IdPersona: people[2].id, Estado: 'A', Excepcion: 'S' },
    ]);
    await context.close();

    // The coordinator lets the bus go: the worker who did not board is listed; the board shows who is on the road.
    const desk = await browser.newContext({ viewport: { width: 1366, height: 768 }, locale: 'es-PE' });
    const console_ = await desk.newPage();
    watch(console_);
    await signInBySession(console_, server.url, 'TRANSPORTE', { division: SOUTH, at: null });
    const coordinator = JSON.parse(
      (await console_.evaluate(() => window.localStorage.getItem('acreditacion.auth'))) ?? '{}',
    ).accessToken;
    const departed = await api(server.url, 'POST', `/api/transporte/viajes/${trip}/salida`, coordinator);
    expect(departed.noPresentados.map((p: Json) => p.IdPersona)).toEqual([people[1].id]);
    await console_.goto(`${server.url}/transporte/tablero`);
    await expect.poll(() => console_.getByText(people[2].name).count()).toBeGreaterThan(0);
    await console_.screenshot({ path: `${SHOTS}/board-es.png`, fullPage: true });
    await desk.close();
    expect(problems).toEqual([]);
  });
});
