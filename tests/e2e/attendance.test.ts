import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import Sqlite from 'better-sqlite3';
import ExcelJS from 'exceljs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import es from '../../locales/es.json';
import { addDays, siteDate } from '../../src/shared/dates.js';
import { seriousAxeFindings } from '../support/axe.js';
import { launchBrowser, PHONE } from '../support/browser.js';
import { signInBySession } from '../support/console.js';
import { asUser, typeDate } from '../support/request-screens.js';
import { type RunningServer, startRealServer } from '../support/server.js';
import { drawingProblems, screenshot } from '../support/shots.js';

// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON
type Json = any;
const SOUTH = 'UNIDAD MINERA SAN GABRIEL';
const SHOTS = '/tmp/attendance-shots';
const TURNSTILE = 'TORNIQUETE GARITA PRINCIPAL 01';

/** The instant of a wall-clock time in Lima (UTC−5) on a day, as a device sends it. */
const lima = (day: string, hhmm: string) => new Date(Date.parse(`${day}T${hhmm}:00-05:00`)).toISOString();

describe('people management: a night worker’s month from the gate’s markings', () => {
  let server: RunningServer;
  let browser: Browser;
  let db: Sqlite.Database;
  const problems: string[] = [];
  const { api, go } = asUser(() => server.url);
  // Three days ago, a working day of the roster anchored the day before.
  const today = siteDate('PE');
  const night = addDays(today, -3);
  let worker: { id: number; document: string; name: string };

  beforeAll(async () => {
    server = await startRealServer();
    mkdirSync(SHOTS, { recursive: true });
    db = new Sqlite(join(server.dataDir, 'acreditacion.db'));
    db.pragma('busy_timeout = 5000');
    // An accredited worker with no roster of the demo's, of a company whose attendance is configured.
    const row = db
      .prepare(
        `select p.IdPersona, p.Documento, p.Apellido, p.Nombre, p.IdCompania from accreditation_accreditation a
         join administration_person p on p.IdPersona = a.IdPersona
         join attendance_attendance_config k on k.IdCompania = p.IdCompania
         where a.IdDivision = 1 and a.IdEntidad = 'T' and a.Estado = 'A'
           and k.Activo = 'S' and k.IdCondicionEspecial is not null
           and p.IdPersona not in (select IdPersona from attendance_schedule_assignment)
         order by a.IdAcreditacion limit 1`,
      )
      .get() as Json;
    // The company's attendance is closed weekly, on yesterday's weekday: last week is a closed-able period.
    const weekday = new Date(`${addDays(today, -1)}T00:00:00Z`).getUTCDay() || 7;
    const payroll = db
      .prepare(
        `insert into attendance_payroll (IdCliente, Codigo, Descripcion, Periodicidad, DiaCierre, Activo)
         values (1, 'SEM', 'PLANILLA SEMANAL', 'S', ?, 'S')`,
      )
      .run(weekday).lastInsertRowid;
    db.prepare('update attendance_attendance_config set IdPlanilla = ? where IdCompania = ?').run(
      payroll,
      row.IdCompania,
    );
    db.prepare("update administration_person set CodigoPlanilla = 'SG-0715' where IdPersona = ?").run(
      row.IdPersona,
    );
    worker = { id: row.IdPersona, document: row.Documento, name: `${row.Apellido}, ${row.Nombre}` };
    const schedule = db
      .prepare(`select IdTipoHorario from attendance_schedule_type where Descripcion = 'GUARDIA NOCHE 14X7'`)
      .get() as Json;
    db.prepare(
      `insert into attendance_schedule_assignment (IdCliente, IdPersona, IdTipoHorario, FechaInicio, FechaAncla, Activo)
       values (1, ?, ?, ?, ?, 'S')`,
    ).run(worker.id, schedule.IdTipoHorario, addDays(night, -30), addDays(night, -1));
    browser = await launchBrowser();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    db?.close();
    await server?.stop();
  });

  const watch = (page: Page) => {
    page.setDefaultTimeout(20_000);
    page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(`${message.type()}: ${message.text()}`);
    });
  };

  /** The worker's month on the screen, the night's month shown. */
  async function openMonth(page: Page, lang: 'es' | 'en') {
    await go(page, '/asistencia/personas', lang);
    await page.locator('#attendance-person').fill(worker.document);
    await page.locator(`li[data-person="${worker.document}"]`).click();
    await page.getByTestId('attendance-calendar').waitFor();
    if (night.slice(0, 7) !== today.slice(0, 7))
      await page.getByRole('button', { name: lang === 'es' ? 'Mes anterior' : 'Previous month' }).click();
    return page.locator(`[data-testid="attendance-calendar"] [data-day="${night}"]`);
  }

  it('shows the night the turnstile recorded across midnight, with its overtime, and the day’s markings', async () => {
    const context = await browser.newContext({ viewport: { width: 1400, height: 1000 }, locale: 'es-PE' });
    const page = await context.newPage();
    watch(page);
    await signInBySession(page, server.url, 'ADMIN', { division: SOUTH, at: null });
    // The turnstile at the main gate (an attendance control point) sends what it recorded offline.
    const equipment = db
      .prepare('select IdEquipo from system_equipment where Descripcion = ?')
      .get(TURNSTILE) as Json;
    const { key } = await api(page, 'POST', `/api/acceso/equipo/${equipment.IdEquipo}/clave`);
    const doors = db
      .prepare(
        `select d.IdPuerta, d.Sentido from access_door d
         join access_control_point_equipos e on e.IdPuntoControl = d.IdPuntoControl where e.Valor = ?`,
      )
      .all(equipment.IdEquipo) as Json[];
    const door = (s: 'E' | 'S') => doors.find((d) => d.Sentido === s).IdPuerta;
    const sent = await fetch(`${server.url}/api/acceso/marcaciones`, {
      method: 'POST',
      headers: { authorization: `Device ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        Marcas: [
          {
            IdMarca: 'noche-1',
            IdPuerta: door('E'),
            Funcion: 'E',
            FechaHora: lima(night, '18:50'),
            Documento: worker.document,
            Resultado: 'P',
          },
          {
            IdMarca: 'noche-2',
            IdPuerta: door('S'),
            Funcion: 'S',
            FechaHora: lima(addDays(night, 1), '07:40'),
            Documento: worker.document,
            Resultado: 'P',
          },
          // The next night he comes 40 minutes late (a medical appointment, justified below).
          {
            IdMarca: 'noche-3',
            IdPuerta: door('E'),
            Funcion: 'E',
            FechaHora: lima(addDays(night, 1), '19:40'),
            Documento: worker.document,
            Resultado: 'P',
          },
          {
            IdMarca: 'noche-4',
            IdPuerta: door('S'),
            Funcion: 'S',
            FechaHora: lima(addDays(night, 2), '07:05'),
            Documento: worker.document,
            Resultado: 'P',
          },
        ],
      }),
    });
    expect(sent.status).toBe(200);

    const cell = await openMonth(page, 'es');
    // The supervisor recomputes the month (the night was recomputed as soon as the batch committed;
    // the button makes the screen show it whether or not that came before the page's first read).
    await page.getByRole('button', { name: 'Recalcular el mes' }).click();
    await page.getByText('Mes recalculado').waitFor();
    await expect.poll(() => cell.getAttribute('data-status')).toBe('WORKED');
    expect(await cell.textContent()).toContain('Trabajado');
    expect(await cell.textContent()).toContain('18:50 → 07:40');
    expect(await cell.textContent()).toContain('11 h 50');
    expect(await cell.textContent()).toContain('Extra 50 min');
    await cell.click();
    const detail = page.getByTestId('attendance-day');
    expect(await detail.textContent()).toContain('19:00 – 07:00');
    expect(await detail.textContent()).toContain('Extra antes de la entrada10 min');
    expect(await detail.textContent()).toContain('Extra después de la salida40 min');
    const rows = await page.getByTestId('attendance-markings').locator('tbody tr').allInnerTexts();
    expect(rows.map((r) => r.replace(/\s+/g, ' ').trim())).toEqual([
      '18:50 Entrada Pasó',
      `${addDays(night, 1).slice(8, 10)}/${addDays(night, 1).slice(5, 7)} 07:40 Salida Pasó`,
    ]);
    expect(await drawingProblems(page, 'attendance desktop es', /attendance\./)).toEqual([]);
    await screenshot(page, `${SHOTS}/month-es.png`, true);
    await context.close();

    // On a phone, in English: the month as a list, the same night.
    const phone = await browser.newContext({ ...PHONE, locale: 'en-GB' });
    const small = await phone.newPage();
    watch(small);
    await signInBySession(small, server.url, 'ADMIN', { division: SOUTH, at: null });
    const listed = await openMonth(small, 'en');
    await expect.poll(() => listed.getAttribute('data-status')).toBe('WORKED');
    expect(await listed.textContent()).toContain('Worked');
    expect(await listed.textContent()).toContain('Overtime 50 min');
    expect(await drawingProblems(small, 'attendance phone en', /attendance\./)).toEqual([]);
    await screenshot(small, `${SHOTS}/month-en-phone.png`, true);
    await phone.close();
    expect(problems).toEqual([]);
  }, 180_000);

  it('the supervisor justifies the late night, the period grid shows it, the week is closed and its export holds it', async () => {
    const late = addDays(night, 1);
    const context = await browser.newContext({ viewport: { width: 1400, height: 1000 }, locale: 'es-PE' });
    const page = await context.newPage();
    watch(page);
    await signInBySession(page, server.url, 'ASISTENCIA', { division: SOUTH, at: null });
    const cell = await openMonth(page, 'es');
    const lateCell = page.locator(`[data-testid="attendance-calendar"] [data-day="${late}"]`);
    await expect.poll(() => cell.getAttribute('data-status')).toBe('WORKED');
    expect(await lateCell.textContent()).toContain('Tardanza 40 min');
    await lateCell.click();
    const detail = page.getByTestId('attendance-day');
    await page.getByTestId('attendance-justify').click();
    const dialog = page.getByTestId('justify-dialog');
    await page.locator('#justify-justification').click();
    await page.getByRole('option', { name: 'CITA MÉDICA ESSALUD (CME)' }).click();
    expect(await page.locator('#justify-kind').innerText()).toBe('Tardanza');
    await page.locator('#justify-observation').fill('Cita en EsSalud a las 18:00');
    await page.getByTestId('justify-save').click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByText('Justificación registrada').waitFor();
    await expect.poll(() => detail.textContent()).toContain('Justificado40 min');
    expect(await detail.textContent()).toContain('Tardanza0 min');
    expect(await page.getByTestId('attendance-justifications').innerText()).toContain(
      'CITA EN ESSALUD A LAS 18:00',
    );
    for (const finding of await seriousAxeFindings(page)) problems.push(`month: ${finding}`);
    await screenshot(page, `${SHOTS}/justified-es.png`, true);

    // The period's grid: his two nights worked, the late one no longer late.
    await go(page, '/asistencia/periodo', 'es');
    await typeDate(page, 'period-from-label', addDays(night, -1));
    await typeDate(page, 'period-to-label', addDays(today, -1));
    const line = page.locator(`[data-testid="attendance-period-grid"] [data-person="${worker.id}"]`);
    await expect.poll(() => line.locator(`[data-day="${night}"]`).textContent()).toBe('T');
    expect(await line.locator(`[data-day="${late}"]`).textContent()).toBe('T');
    expect(await drawingProblems(page, 'period desktop es', /attendance\./)).toEqual([]);
    for (const finding of await seriousAxeFindings(page)) problems.push(`period: ${finding}`);
    await screenshot(page, `${SHOTS}/period-es.png`, true);

    // The week closed (his company's weekly payroll closes on yesterday's weekday), then exported.
    await go(page, '/asistencia/cierres', 'es');
    await page.getByTestId('close-SEM').click();
    const week = { desde: addDays(today, -7), hasta: addDays(today, -1) };
    expect(await page.getByTestId('closing-confirm-text').innerText()).toContain(
      `${week.desde.slice(8)}/${week.desde.slice(5, 7)}/${week.desde.slice(0, 4)}`,
    );
    await page.getByTestId('closing-confirm').click();
    await page.getByText(/^Periodo cerrado: \d+ personas, \d+ días\.$/).waitFor();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByTestId(`export-SEM-${week.desde}`).click(),
    ]);
    const book = new ExcelJS.Workbook();
    await book.xlsx.readFile((await download.path()) as string);
    const sheet = book.worksheets[0];
    const header = (sheet.getRow(1).values as Json[]).slice(1).map(String);
    let mine: Json[] = [];
    sheet.eachRow((r) => {
      const values = (r.values as Json[]).slice(1);
      if (values[header.indexOf(es.attendance.export.payrollCode)] === 'SG-0715') mine = values;
    });
    const at = (name: Exclude<keyof typeof es.attendance.export, 'concepts'>) =>
      mine[header.indexOf(es.attendance.export[name])];
    const days = db
      .prepare(
        `select sum(MinutosTrabajados) worked, sum(MinutosExtraAntes + MinutosExtraDespues) overtime,
                sum(MinutosTardanza) late, sum(Cerrado = 'S') closed, count(*) n
         from attendance_day where IdPersona = ? and Fecha between ? and ?`,
      )
      .get(worker.id, week.desde, week.hasta) as Json;
    expect(days.closed).toBe(days.n);
    expect(at('payroll')).toBe('SEM');
    expect(at('hoursWorked')).toBe(Math.round((days.worked / 60) * 100) / 100);
    expect(at('overtime')).toBe(Math.round((days.overtime / 60) * 100) / 100);
    expect(at('lateMinutes')).toBe(0);
    expect(at('daysWorked')).toBe(2);
    expect(mine[header.indexOf('CME')]).toBe(1);
    // The worker's company's special condition names the hours it pays.
    const condition = db
      .prepare(
        `select s.Descripcion from administration_person p
         join attendance_attendance_config k on k.IdCompania = p.IdCompania and k.Activo = 'S'
         join attendance_special_condition s on s.IdCondicionEspecial = k.IdCondicionEspecial
         where p.IdPersona = ?`,
      )
      .get(worker.id) as Json;
    expect(at('condition')).toBe(condition.Descripcion);
    expect(await drawingProblems(page, 'closing desktop es', /attendance\./)).toEqual([]);
    for (const finding of await seriousAxeFindings(page)) problems.push(`closing: ${finding}`);
    await screenshot(page, `${SHOTS}/closing-es.png`, true);
    await context.close();

    // On a phone, in English: the grid and the closings, the week closed.
    const phone = await browser.newContext({ ...PHONE, locale: 'en-GB' });
    const small = await phone.newPage();
    watch(small);
    await signInBySession(small, server.url, 'ASISTENCIA', { division: SOUTH, at: null });
    await go(small, '/asistencia/cierres', 'en');
    await small.getByTestId(`export-SEM-${week.desde}`).waitFor();
    expect(await drawingProblems(small, 'closing phone en', /attendance\./)).toEqual([]);
    await screenshot(small, `${SHOTS}/closing-en-phone.png`, true);
    await go(small, '/asistencia/periodo', 'en');
    await small.getByTestId('attendance-period-grid').waitFor();
    expect(await drawingProblems(small, 'period phone en', /attendance\./)).toEqual([]);
    await screenshot(small, `${SHOTS}/period-en-phone.png`, true);
    await phone.close();
    expect(problems).toEqual([]);
  }, 180_000);

  it('sends a profile without the screen to the no-permission page', async () => {
    const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    const page = await context.newPage();
    page.setDefaultTimeout(20_000);
    const calls: string[] = [];
    page.on('response', (r) => {
      if (r.url().includes('/api/asistencia/')) calls.push(`${r.status()} ${r.url()}`);
    });
    await signInBySession(page, server.url, 'SOLICITANTE', { division: SOUTH, at: null });
    for (const route of ['/asistencia/personas', '/asistencia/periodo', '/asistencia/cierres']) {
      await go(page, route, 'es');
      await page.waitForURL(/\/sinpermiso$/);
      await expect
        .poll(() => page.getByRole('heading', { level: 1 }).innerText())
        .toBe(es.errors.noPermission.title);
    }
    expect(calls).toEqual([]);
    await context.close();

    // The attendance supervisor reads a special condition's name on the configurations, but the
    // conditions' own screen is not in its menu: its address says so instead of drawing nothing.
    const supervisor = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    const supervisorPage = await supervisor.newPage();
    watch(supervisorPage);
    await signInBySession(supervisorPage, server.url, 'ASISTENCIA', { division: SOUTH, at: null });
    await go(supervisorPage, '/special-condition', 'es');
    await supervisorPage.waitForURL(/\/sinpermiso$/);
    await expect
      .poll(() => supervisorPage.getByRole('heading', { level: 1 }).innerText())
      .toBe(es.errors.noPermission.title);
    await supervisor.close();

    // The administrator reaches the period's grid and the closings too.
    const admin = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    const adminPage = await admin.newPage();
    watch(adminPage);
    await signInBySession(adminPage, server.url, 'ADMIN', { division: SOUTH, at: null });
    await go(adminPage, '/asistencia/periodo', 'en');
    await adminPage.getByTestId('attendance-period-grid').waitFor();
    expect(await adminPage.getByTestId('attendance-period-legend').innerText()).toContain('Absent');
    await go(adminPage, '/asistencia/cierres', 'en');
    await adminPage.getByTestId('close-EMP').waitFor();
    await admin.close();
    expect(problems).toEqual([]);
  }, 120_000);
});
