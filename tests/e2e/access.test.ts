import Sqlite from 'better-sqlite3';
import ExcelJS from 'exceljs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, siteDate } from '../../src/shared/dates.js';
import { launchBrowser } from '../support/browser.js';
import { signInBySession } from '../support/console.js';
import { mobiliseWorker } from '../support/mobilisation.js';
import { asUser } from '../support/request-screens.js';
import { type RunningServer, startRealServer } from '../support/server.js';

// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON
type Json = any;
const ENTRY_DOOR = 1; // turnstile in, main gate
const EXIT_DOOR = 2; // turnstile out, main gate

const SOUTH = 'UNIDAD MINERA SAN GABRIEL';

describe('headcount and roll call in a real browser', () => {
  let server: RunningServer;
  let browser: Browser;
  const problems: string[] = [];

  async function newPage(timezoneId?: string): Promise<Page> {
    const page = await (
      await browser.newContext({
        viewport: { width: 1400, height: 900 },
        ...(timezoneId ? { timezoneId } : {}),
      })
    ).newPage();
    page.setDefaultTimeout(15_000);
    page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
    page.on('console', (message) => {
      if (message.type() === 'error' || message.type() === 'warning')
        problems.push(`${message.type()}: ${message.text()}`);
    });
    return page;
  }

  beforeAll(async () => {
    // The gate's answers, not their speed: the budget is tested in tests/api/access-device.test.ts.
    server = await startRealServer({ GATE_DECISION_BUDGET_MS: '60000' });
    browser = await launchBrowser();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('shows the requester its present and absent workers, and the popups list them', async () => {
    const page = await newPage();
    await signInBySession(page, server.url, 'SOLICITANTE', { division: SOUTH });
    await page.getByRole('tab', { name: 'Dotación' }).click();
    const tab = page.getByTestId('headcount-tab');
    await tab.waitFor();
    // Who is in and who is out depends on the hour (day and night shifts overlap at 6:45 and
    // 18:45): every worker accredited today is one or the other, so the two counts add up to more
    // than none, and each popup that has rows lists them, page by page.
    const row = (state: 'TP' | 'TA') => tab.locator(`[data-headcount-row="${state}"]`);
    const count = async (state: 'TP' | 'TA') => Number(await row(state).locator('span').last().textContent());
    await row('TA').waitFor();
    // The counts arrive after the tab: read once they have.
    await expect.poll(async () => (await count('TP')) + (await count('TA'))).toBeGreaterThan(0);
    for (const [state, column] of [
      ['TP', 'Zona'],
      ['TA', 'Contrato'],
    ] as const) {
      const n = await count(state);
      if (!n) continue;
      await row(state).click();
      const dialog = page.getByRole('dialog');
      await expect(dialog.getByRole('columnheader', { name: column }).count()).resolves.toBe(1);
      await dialog.getByTestId('headcount-table').locator('tbody tr').first().waitFor();
      const rows = await dialog.getByTestId('headcount-table').locator('tbody tr').count();
      expect(rows).toBe(Math.min(15, n));
      await dialog.getByRole('button', { name: 'Cerrar' }).click();
      await dialog.waitFor({ state: 'detached' });
    }
    // The headcount by contract, as the division counts it: its groups' present and absent add up to the card's.
    const groups = tab.getByTestId('headcount-groups');
    await groups.waitFor();
    expect(await groups.getAttribute('data-mode')).toBe('C');
    expect(await groups.getByRole('heading').textContent()).toBe('Dotación por contrato');
    const workerRows = groups.locator('tbody tr').filter({ hasText: 'Trabajadores' });
    expect(await workerRows.count()).toBeGreaterThan(0);
    const cells = await workerRows.evaluateAll((rows) =>
      rows.map((r) => [...r.querySelectorAll('td')].slice(2).map((td) => Number(td.textContent))),
    );
    expect(cells.reduce((sum, [present, absent]) => sum + present + absent, 0)).toBe(
      (await count('TP')) + (await count('TA')),
    );
    // The roll call of its own people, from the tab: it asks for nothing the requester may not read.
    await tab.getByRole('link', { name: 'Lista de evacuación' }).click();
    await page.waitForURL((url) => url.pathname === '/acceso/evacuacion');
    await page.getByTestId('roll-call').waitFor();
    await page.waitForLoadState('networkidle');
    expect(problems).toEqual([]);
  }, 60_000);

  it('gives the security office the evacuation roll call of the division', async () => {
    // A browser far from the site: the times shown and exported are still the site's.
    const page = await newPage('Asia/Tokyo');
    await signInBySession(page, `${server.url}`, 'ADMIN', { division: SOUTH });
    // From the side menu: Acceso › Gestión de accesos › Lista de evacuación.
    // One click each, as fast as the browser allows: the second group opens while the first is
    // still opening, and the link is clicked while both are.
    const expand = async (name: string) => {
      const group = page.getByRole('button', { name, exact: true });
      await group.click();
      await expect.poll(() => group.getAttribute('aria-expanded')).toBe('true');
    };
    await expand('Acceso');
    await expand('Gestión de accesos');
    await page.getByRole('link', { name: 'Lista de evacuación' }).click();
    await page.waitForURL((url) => url.pathname === '/acceso/evacuacion');
    const roll = page.getByTestId('roll-call');
    await roll.waitFor();
    await roll.locator('tbody tr').first().waitFor();
    const heading = await roll.getByRole('heading', { level: 1 }).textContent();
    const inside = Number(heading?.split(':').pop());
    expect(inside).toBeGreaterThan(0);
    expect(await roll.locator('tbody tr').count()).toBe(inside);

    // The export writes each entry's time as the screen shows it: the site's (Lima's) clock.
    const first = roll.locator('tbody tr').first();
    const cells = await first.locator('td').allTextContents();
    const shownAt = cells.find((c) => /^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}:\d{2}$/.test(c));
    expect(shownAt).toBeDefined();
    const file = await page.evaluate(async () => {
      const token = JSON.parse(localStorage.getItem('acreditacion.auth') ?? '{}').accessToken;
      const res = await fetch('/api/acceso/evacuacion?formato=xlsx', {
        headers: { authorization: `Bearer ${token}` },
      });
      return (await res.json()).result.fileBase64 as string;
    });
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(Buffer.from(file, 'base64') as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0];
    const exported: string[] = [];
    sheet.eachRow((row) =>
      row.eachCell((cell) => {
        if (cell.value instanceof Date) {
          const d = cell.value;
          const pad = (n: number) => String(n).padStart(2, '0');
          exported.push(
            `${pad(d.getUTCDate())}/${pad(d.getUTCMonth() + 1)}/${d.getUTCFullYear()} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`,
          );
        }
      }),
    );
    expect(exported).toContain(shownAt);
    // The time on site in hours and minutes, as the screen writes it.
    const stays: string[] = [];
    sheet.eachRow((r) =>
      r.eachCell(
        (cell) =>
          typeof cell.value === 'string' && / h \d{2} min$/.test(cell.value) && stays.push(cell.value),
      ),
    );
    expect(stays.length).toBe(inside);
    expect(cells.some((c) => /^\d+ h \d{2} min$/.test(c))).toBe(true);
    // And that is Lima's clock, not the browser's (Tokyo is 14 hours ahead).
    const row = (await page.evaluate(async () => {
      const token = JSON.parse(localStorage.getItem('acreditacion.auth') ?? '{}').accessToken;
      const res = await fetch('/api/acceso/evacuacion', { headers: { authorization: `Bearer ${token}` } });
      return (await res.json()).result;
    })) as Array<{ FechaMarca: string }>;
    const lima = new Date(Date.parse(row[0].FechaMarca) - 5 * 3_600_000);
    const pad = (n: number) => String(n).padStart(2, '0');
    expect(shownAt).toBe(
      `${pad(lima.getUTCDate())}/${pad(lima.getUTCMonth() + 1)}/${lima.getUTCFullYear()} ${pad(lima.getUTCHours())}:${pad(lima.getUTCMinutes())}:${pad(lima.getUTCSeconds())}`,
    );
    expect(problems).toEqual([]);
  }, 60_000);

  it('lets a worker accredited through the mobilisation flow through the gate, counts it present then absent, and denies it once its requirement expired or it is demobilised', async () => {
    const requester = await newPage();
    await signInBySession(requester, server.url, 'SOLICITANTE', { division: SOUTH, at: null });
    const authoriser = await newPage();
    await signInBySession(authoriser, server.url, 'AUTORIZADOR', { division: SOUTH, at: null });
    const admin = await newPage();
    await signInBySession(admin, server.url, 'ADMIN', { division: SOUTH, at: null });
    const { api } = asUser(() => server.url);
    const today = siteDate('PE');
    const all = (resource: string) =>
      api(admin, 'GET', `/api/rest/${resource}?range=${encodeURIComponent('[0,999]')}`);

    // Mobilised and approved (the screens of that flow are accreditation.test.ts's; here their calls).
    const DOCUMENT = '71234598';
    const record = await mobiliseWorker(
      server.url,
      { requester, authoriser, admin },
      { Documento: DOCUMENT, Apellido: 'Mamani Coaquira', Nombre: 'Wilber' },
      today,
    );
    // The administrator gives the worker the round-the-clock supervision profile at the main gate.
    const access = (await all('access-profile')).find(
      (p: Json) => p.Descripcion === 'SUPERVISIÓN SAN GABRIEL',
    );
    const assigned = await api(admin, 'POST', '/api/rest/person-access', {
      IdPersona: record.IdPersona,
      IdPerfilAcceso: access.IdPerfilAcceso,
      FechaInicio: today,
      FechaFin: addDays(today, 90),
      Temporal: 'N',
      Activo: 'S',
    });
    expect(assigned.IdAccesoPersona, JSON.stringify(assigned)).toBeGreaterThan(0);

    // Its effective access, on the assignment's screen: the main gate's entry lets it in now.
    await admin.goto(`${server.url}/person-access/${assigned.IdAccesoPersona}`, { waitUntil: 'networkidle' });
    await admin.locator('.effective-access').click();
    const door = admin.getByTestId('effective-access').locator(`[data-door="${ENTRY_DOOR}"]`);
    await expect.poll(() => door.innerText()).toMatch(/Sí/);
    await admin.keyboard.press('Escape');

    // The gate's key, issued on the equipment screen.
    await admin.goto(`${server.url}/equipment/1`, { waitUntil: 'networkidle' });
    await admin.locator('.device-key').click();
    await admin
      .getByRole('dialog')
      .getByRole('button', { name: /Emitir/ })
      .click();
    const key = await admin.getByRole('textbox', { name: 'Clave' }).inputValue();
    expect(key.length).toBeGreaterThan(20);
    const gate = async (door: number) => {
      const res = await fetch(`${server.url}/api/acceso/decidir`, {
        method: 'POST',
        headers: {
          authorization: `Device ${key}`,
          'content-type': 'application/json',
          'accept-language': 'es',
        },
        body: JSON.stringify({ IdPuerta: door, Documento: DOCUMENT }),
      });
      expect(res.status).toBe(200);
      return ((await res.json()) as Json).result;
    };

    // The requester's headcount tab: present and absent workers, before and after each pass.
    const counts = async () => {
      await requester.goto(`${server.url}/dashboard`, { waitUntil: 'networkidle' });
      await requester.getByRole('tab', { name: 'Dotación' }).click();
      const tab = requester.getByTestId('headcount-tab');
      const number = async (row: string) => {
        const cell = tab.locator(`[data-headcount-row="${row}"]`);
        await cell.waitFor();
        return Number(await cell.locator('span').last().textContent());
      };
      return { present: await number('TP'), absent: await number('TA') };
    };
    const before = await counts();
    const entry = await gate(ENTRY_DOOR);
    expect(entry).toMatchObject({ allow: true, reason: 'ALLOWED', direction: 'E' });
    expect(await counts()).toEqual({ present: before.present + 1, absent: before.absent - 1 });
    await requester.getByTestId('headcount-tab').locator('[data-headcount-row="TP"]').click();
    const dialog = requester.getByRole('dialog');
    await expect.poll(() => dialog.getByTestId('headcount-table').innerText()).toContain(DOCUMENT);
    await dialog.getByRole('button', { name: 'Cerrar' }).click();
    const exit = await gate(EXIT_DOOR);
    expect(exit).toMatchObject({ allow: true, direction: 'S' });
    expect(await counts()).toEqual(before);

    // Its SCTR expired yesterday: the gate says so.
    const db = new Sqlite(`${server.dataDir}/acreditacion.db`);
    const kept = db
      .prepare(
        `select k.IdRequisitoAcreditado, k.FechaVencimiento from accreditation_accredited_requirement k
         join access_requirement q on q.IdRequisito = k.IdRequisito
         where k.IdPersona = ? and q.Requisito = 'SCTR SALUD' and k.FechaVencimiento is not null`,
      )
      .get(record.IdPersona) as Json;
    db.prepare(
      'update accreditation_accredited_requirement set FechaVencimiento = ? where IdRequisitoAcreditado = ?',
    ).run(addDays(today, -1), kept.IdRequisitoAcreditado);
    const expired = await gate(ENTRY_DOOR);
    expect(expired).toMatchObject({ allow: false, reason: 'REQUIREMENT_EXPIRED' });
    expect(expired.message).toContain('SCTR SALUD');
    // The security office's requirement report names it and the requirement.
    await admin.goto(`${server.url}/acceso/requisitos-vencidos`, { waitUntil: 'networkidle' });
    const blocked = admin.getByTestId('requirement-report').locator('tbody tr', { hasText: DOCUMENT });
    await expect.poll(() => blocked.innerText()).toContain('SCTR SALUD');
    db.prepare(
      'update accreditation_accredited_requirement set FechaVencimiento = ? where IdRequisitoAcreditado = ?',
    ).run(kept.FechaVencimiento, kept.IdRequisitoAcreditado);
    db.close();
    expect(await gate(ENTRY_DOOR)).toMatchObject({ allow: true });
    expect((await gate(EXIT_DOOR)).allow).toBe(true);

    // Demobilised: the accreditation ends and the gate denies it.
    const accreditation = (
      await api(
        requester,
        'GET',
        `/api/rest/accreditation?filter=${encodeURIComponent(JSON.stringify({ IdPersona: record.IdPersona }))}`,
      )
    )[0];
    const demobilised = await api(requester, 'POST', '/api/acreditaciondesmovilizacion/crear', {
      IdEntidad: 'T',
      IdAcreditacion: accreditation.IdAcreditacion,
      Observacion: 'Fin de la parada de planta',
    });
    await api(authoriser, 'POST', '/api/acreditaciondesmovilizacion/actualizarautorizador', {
      IdSolicitud: demobilised.Solicitudes[0].IdSolicitud,
      Accion: 'APROBAR',
    });
    const denied = await gate(ENTRY_DOOR);
    expect(denied).toMatchObject({ allow: false, reason: 'ACCREDITATION_TERMINATED' });
    expect(problems).toEqual([]);
  }, 120_000);
  it('reports the markings of a date range and a company, and exports what it shows', async () => {
    const page = await newPage();
    await signInBySession(page, server.url, 'ADMIN', { division: SOUTH, at: null });
    const token = await page.evaluate(
      () => JSON.parse(localStorage.getItem('acreditacion.auth') ?? '{}').accessToken as string,
    );
    const total = async (filter: Json) => {
      const res = await fetch(
        `${server.url}/api/rest/marking?range=[0,0]&filter=${encodeURIComponent(JSON.stringify(filter))}`,
        { headers: { authorization: `Bearer ${token}` } },
      );
      expect(res.status).toBe(200);
      return Number(res.headers.get('content-range')?.split('/')[1]);
    };
    // The demo's week of markings: the contractor with most of them over three days.
    const today = siteDate('PE');
    const [from, to] = [addDays(today, -4), addDays(today, -2)];
    const companies = (await (
      await fetch(`${server.url}/api/rest/company?range=[0,99]`, {
        headers: { authorization: `Bearer ${token}` },
      })
    ).json()) as Json[];
    const counts = await Promise.all(
      companies.map(async (c) => ({
        company: c,
        n: await total({ Fecha_gte: from, Fecha_lte: to, IdCompania: c.id }),
      })),
    );
    const { company, n } = counts.sort((a, b) => b.n - a.n)[0];
    expect(n).toBeGreaterThan(0);

    await page.goto(`${server.url}/marking?lang=es`, { waitUntil: 'networkidle' });
    const addFilter = async (name: string) => {
      await page.getByRole('button', { name: 'Agregar filtro' }).click();
      await page.getByRole('menuitemcheckbox', { name, exact: true }).click();
    };
    // Each filter is applied (the address holds all chosen so far) before the next is added.
    const chosen: Json = {};
    const applied = (key: string, value: string | number) => {
      chosen[key] = value;
      const expected = JSON.stringify(chosen, Object.keys(chosen).sort());
      return page.waitForURL((url) => {
        const filter = JSON.parse(url.searchParams.get('filter') ?? '{}');
        return JSON.stringify(filter, Object.keys(filter).sort()) === expected;
      });
    };
    const shown = page.locator('.MuiTablePagination-displayedRows');
    // Typed as people write a date: day, month, year; then, as a person does, the next filter is
    // added once the list shows the rows of this one (adding one while the list has not yet drawn
    // the last would start from the filters it drew, dropping the date just typed).
    const typeDate = async (name: string, key: string, date: string) => {
      await page.getByRole('group', { name }).getByRole('spinbutton').first().click();
      await page.keyboard.type(date.split('-').reverse().join(''));
      await applied(key, date);
      const expected = await total(chosen);
      await expect.poll(() => shown.textContent()).toMatch(new RegExp(` ${expected}$`));
    };
    await addFilter('Fecha desde');
    await typeDate('Fecha desde', 'Fecha_gte', from);
    await addFilter('Fecha hasta');
    await typeDate('Fecha hasta', 'Fecha_lte', to);
    await addFilter('Compañía');
    await page.getByRole('combobox', { name: 'Compañía' }).fill(String(company.Compania).slice(0, 12));
    await page.getByRole('option', { name: String(company.Compania), exact: true }).click();
    await applied('IdCompania', company.id);
    await expect.poll(() => shown.textContent()).toMatch(new RegExp(` ${n}$`));
    const filter = JSON.parse(new URL(page.url()).searchParams.get('filter') ?? '{}');
    expect(filter).toEqual({ Fecha_gte: from, Fecha_lte: to, IdCompania: company.id });
    const dates = await page.locator('tbody tr td:nth-child(2)').allTextContents();
    const iso = (text: string) => text.trim().split('/').reverse().join('-');
    expect(dates.length).toBeGreaterThan(0);
    expect(dates.every((d) => iso(d) >= from && iso(d) <= to)).toBe(true);

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.locator('.export-button').click(),
    ]);
    const book = new ExcelJS.Workbook();
    await book.xlsx.readFile((await download.path()) as string);
    expect((book.getWorksheet('data') as ExcelJS.Worksheet).rowCount - 1).toBe(n);
    expect(problems).toEqual([]);
  }, 60_000);
});
