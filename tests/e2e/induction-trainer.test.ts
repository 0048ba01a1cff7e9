import { execFileSync } from 'node:child_process';
import { createPrivateKey, sign } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Sqlite from 'better-sqlite3';
import bwipjs from 'bwip-js/node';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import es from '../../locales/es.json';
import { claimsBytes, tokenOf } from '../../src/shared/badge-token.js';
import { addDays, siteDate } from '../../src/shared/dates.js';
import { seriousAxeFindings } from '../support/axe.js';
import { launchBrowser } from '../support/browser.js';
import { signedInPage } from '../support/console.js';
import { api, sessionOf } from '../support/processes.js';
import { asUser } from '../support/request-screens.js';
import { type RunningServer, startRealServer } from '../support/server.js';
import { drawingProblems, screenshot } from '../support/shots.js';

// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON
type Json = any;
const SOUTH = 'UNIDAD MINERA SAN GABRIEL';
const SHOTS = '/tmp/induction-shots';
const COURSE = 'IND-ECF';
const ROOM = 'SALA E2E INDUCCIONES';
const RAW_KEY = /\b(?:induction|resources|enums|app|ra)\.[a-zA-Z-]+\.[a-zA-Z]/;
const text = es.induction.screens;

/**
 * A badge's QR code held up to Chromium's fake camera: the code (PNGs from bwip-js) drifting over a
 * light background as a hand moves it nearer and farther, made into a y4m video by ffmpeg. The
 * size changes every half second among two, three and four pixels a module: the console's barcode
 * library misses a still synthetic code at some sizes and places (a real camera never shows the
 * same frame twice), so the badge is shown, as a hand shows it, at several.
 */
async function badgeVideo(token: string, folder: string): Promise<string> {
  const scales = [2, 3, 4];
  const pngs: string[] = [];
  for (const scale of scales) {
    const png = join(folder, `badge-${scale}.png`);
    writeFileSync(
      png,
      await bwipjs.toBuffer({ bcid: 'qrcode', text: token, scale, padding: 4, backgroundcolor: 'FFFFFF' }),
    );
    pngs.push(png);
  }
  const video = join(folder, 'badge.y4m');
  const period = scales.length / 2;
  // Each size in its half second of every period, drifting as a hand moves.
  const layers = scales
    .map((_, i) => {
      const from = i === 0 ? '[0:v]' : `[v${i}]`;
      const shown = `between(mod(t,${period}),${i / 2},${(i + 1) / 2 - 0.001})`;
      return `${from}[${i + 1}:v]overlay=x='(W-w)/2+40*sin(2*t)':y='(H-h)/2+25*cos(3*t)':enable='${shown}':shortest=1[v${i + 1}]`;
    })
    .join(';');
  execFileSync('ffmpeg', [
    ...['-hide_banner', '-loglevel', 'error', '-y'],
    ...['-f', 'lavfi', '-i', 'color=c=0xE8E8E8:s=640x480:r=5'],
    ...pngs.flatMap((png) => ['-loop', '1', '-framerate', '5', '-i', png]),
    ...['-filter_complex', `${layers};[v${scales.length}]format=yuv420p`],
    ...['-t', '9', video],
  ]);
  return video;
}

/**
 * The trainer's induction screens in a real browser, as INDUCCION in Spanish on a desktop: a
 * session scheduled for today from the calendar (a capacity of 0 refused under its field first), a
 * worker booked on it by SERMIPAC's requester through the API, seen on the session's page, marked
 * present by scanning the worker's badge with the fake camera, scored, the session closed, the
 * certificate printed (a PDF); then the report's figures as the report call counts them.
 */
describe('the trainer schedules, takes attendance by badge, scores, closes and certifies', () => {
  let server: RunningServer;
  let browser: Browser;
  let folder: string;
  let trainer: Page;
  let worker: { IdPersona: number; Documento: string; Persona: string };
  const problems: string[] = [];
  const today = siteDate('PE');
  const { go } = asUser(() => server.url);

  beforeAll(async () => {
    server = await startRealServer();
    folder = mkdtempSync(join(tmpdir(), 'induction-'));
    mkdirSync(SHOTS, { recursive: true });
    // The requester's first worker on its contract, and a badge of theirs signed with the server's key.
    const requester = await sessionOf(server.url, 'SOLICITANTE', SOUTH);
    const contracts = await api(server.url, 'GET', '/api/rest/contract?range=[0,99]', requester);
    const contract = contracts.find((c: Json) => c.NumeroContrato === 'CT-2026-001').IdContrato;
    [worker] = await api(server.url, 'GET', `/api/induccion/candidatos?IdContrato=${contract}`, requester);
    await fetch(`${server.url}/api/acceso/clave`);
    const db = new Sqlite(join(server.dataDir, 'acreditacion.db'), { readonly: true });
    const { Privada } = db.prepare('select Privada from access_signing_key where Id = 1').get() as Json;
    db.close();
    const claims = {
      IdCliente: 1,
      IdDivision: 1,
      IdCredencial: 1,
      Numero: 'INDUCCION-0001',
      Titular: `P:${worker.IdPersona}`,
      Hasta: addDays(today, 90),
    };
    const signature = sign(null, claimsBytes(claims), createPrivateKey(Privada));
    const video = await badgeVideo(tokenOf(claims, new Uint8Array(signature)), folder);
    browser = await launchBrowser([
      '--use-fake-device-for-media-stream',
      '--use-fake-ui-for-media-stream',
      `--use-file-for-fake-video-capture=${video}`,
    ]);
    trainer = await signedInPage(browser, server.url, 'INDUCCION', problems, {
      context: { viewport: { width: 1400, height: 900 }, locale: 'es-PE' },
      division: SOUTH,
      // The barcode library's own note on a frame it could not read.
      ignore: /MultiFormatReader: non-ReaderException/,
    });
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    if (folder) rmSync(folder, { recursive: true, force: true });
  });

  const look = async (where: string) => {
    problems.push(...(await drawingProblems(trainer, where, RAW_KEY)));
    for (const finding of await seriousAxeFindings(trainer)) problems.push(`${where}: ${finding}`);
    await screenshot(trainer, `${SHOTS}/${where.replaceAll(' ', '-')}.png`, true);
  };
  const notice = () => trainer.getByTestId('session-notice').innerText();
  const row = () =>
    trainer.getByTestId('session-bookings').locator('tr').filter({ hasText: worker.Documento });

  it('schedules a session for today, sees the booking, scans the badge, scores, closes and prints', async () => {
    await go(trainer, '/induccion/sesiones', 'es');
    await trainer.getByTestId('session-new').click();
    await trainer.locator('#session-course').click();
    await trainer.getByRole('option', { name: new RegExp(`^${COURSE} · `) }).click();
    await trainer.locator('#session-room').fill(ROOM);
    await trainer.locator('#session-capacity').fill('0');
    await trainer.getByTestId('new-session-save').click();
    // The server's refusal names the field, and nothing was written.
    await expect
      .poll(() => trainer.getByTestId('new-session-refusal').innerText())
      .toContain(`${es.resources['training-session'].fields.Capacidad}: ${es.induction.rules.capacity}`);
    // The browser notes the refusal's 400 in its console: that one is expected.
    const refused = problems.findIndex((p) => p.includes('status of 400'));
    expect(refused).toBeGreaterThanOrEqual(0);
    problems.splice(refused, 1);
    await trainer.locator('#session-capacity').fill('10');
    await trainer.getByTestId('new-session-save').click();
    await expect.poll(() => trainer.getByTestId('sessions-notice').innerText()).toBe(text.create.done);
    const tile = trainer.locator(`[data-day="${today}"] [data-session]`).filter({ hasText: COURSE });
    await expect.poll(() => tile.count()).toBe(1);
    expect(await tile.innerText()).toContain('0/10 reservados');
    const sessionId = Number(await tile.getAttribute('data-session'));

    // SERMIPAC's requester books its worker (its own screen is another test's).
    const requester = await sessionOf(server.url, 'SOLICITANTE', SOUTH);
    await api(server.url, 'POST', `/api/induccion/sesiones/${sessionId}/reservas`, requester, {
      IdPersonas: [worker.IdPersona],
    });
    await tile.click();
    await expect.poll(() => row().count()).toBe(1);
    expect(await row().innerText()).toContain(worker.Persona);
    expect(await trainer.locator('[data-fact="seats"]').innerText()).toBe('1/10');

    // The badge in front of the camera marks the worker present.
    await trainer.getByTestId('scan-toggle').click();
    // What the scan said (a refusal or a camera that failed would be said there instead).
    const said = trainer.locator(
      '[data-testid="scan-marked"], [data-testid="scan-refusal"], [data-testid="scan-camera-failed"]',
    );
    await expect
      .poll(() => said.innerText(), { timeout: 30_000 })
      .toBe(text.scan.marked.replace('%{name}', worker.Persona));
    const attended = trainer.locator(`[data-attended="${worker.Documento}"] input`);
    await expect.poll(() => attended.isChecked()).toBe(true);
    await trainer.getByTestId('scan-toggle').click();
    await look('session scheduled es');

    await trainer.locator(`[data-score="${worker.Documento}"]`).fill('86');
    await trainer.getByTestId('session-save').click();
    await expect.poll(notice).toBe(text.session.saved);
    await trainer.getByTestId('session-close').click();
    await trainer.getByRole('dialog').getByRole('button', { name: text.session.close }).click();
    await expect
      .poll(notice)
      .toBe(
        text.session.closed
          .replace('%{aprobados}', '1')
          .replace('%{desaprobados}', '0')
          .replace('%{ausentes}', '0'),
      );
    await expect.poll(() => trainer.getByTestId('induction-session').getAttribute('data-state')).toBe('C');
    expect(await row().innerText()).toContain(es.enums.bookingState.A);

    // The pass's certificate comes as a PDF.
    const [download] = await Promise.all([
      trainer.waitForEvent('download'),
      trainer.locator(`[data-certificate="${worker.Documento}"]`).click(),
    ]);
    const pdf = readFileSync(await download.path());
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    await expect.poll(notice).toBe(text.session.printed);
    await look('session closed es');
  }, 180_000);

  it("shows the period's figures as the report counts them", async () => {
    await go(trainer, '/induccion/reporte', 'es');
    // This month, as the screen opens.
    const from = `${today.slice(0, 8)}01`;
    const to = addDays(`${addDays(from, 40).slice(0, 8)}01`, -1);
    const token = await trainer.evaluate(
      () => JSON.parse(localStorage.getItem('acreditacion.auth') ?? '{}').accessToken,
    );
    const counted = await api(server.url, 'GET', `/api/induccion/reporte?desde=${from}&hasta=${to}`, token);
    expect(counted.aprobados).toBeGreaterThanOrEqual(1);
    const figure = (name: string) => trainer.locator(`[data-figure="${name}"]`).innerText();
    await expect.poll(() => figure('aprobados')).toBe(String(counted.aprobados));
    expect(await figure('sesiones')).toBe(String(counted.sesiones));
    expect(await trainer.getByTestId('induction-report-companies').innerText()).toContain('SERMIPAC');
    // Every booking of the period as a workbook.
    const [workbook] = await Promise.all([
      trainer.waitForEvent('download'),
      trainer.getByTestId('induction-report-excel').click(),
    ]);
    expect(workbook.suggestedFilename()).toMatch(/\.xlsx$/);
    expect(
      readFileSync(await workbook.path())
        .subarray(0, 2)
        .toString('latin1'),
    ).toBe('PK');
    await look('report es');
    expect(problems).toEqual([]);
  }, 60_000);
});
