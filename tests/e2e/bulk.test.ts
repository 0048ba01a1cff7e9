import { readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import JSZip from 'jszip';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, siteDate } from '../../src/shared/dates.js';
import { launchBrowser } from '../support/browser.js';
import { type CellInput, excelDate, fillData, openTemplate } from '../support/bulk.js';
import { signInBySession } from '../support/console.js';
import { type RunningServer, startRealServer } from '../support/server.js';

const today = siteDate('PE');

/**
 * A bulk request through the screen, as a contractor's requester does it: the template
 * downloaded, 20 workers filled in with exceljs (3 of them wrong), uploaded, the errors seen on
 * their rows, fixed and uploaded again, processed with the progress bar, the 20 requests then in
 * the requester's list.
 */
describe('bulk requests in a real browser', () => {
  let server: RunningServer;
  let browser: Browser;
  let page: Page;
  const problems: string[] = [];

  beforeAll(async () => {
    server = await startRealServer();
    browser = await launchBrowser();
    const context = await browser.newContext({
      viewport: { width: 1400, height: 900 },
      acceptDownloads: true,
    });
    page = await context.newPage();
    page.setDefaultTimeout(30_000);
    page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
    await signInBySession(page, server.url, 'SOLICITANTE', { at: null });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const row = (i: number, extra: Record<string, CellInput> = {}): Record<string, CellInput> => ({
    FechaInicio: excelDate(today),
    FechaFin: excelDate(addDays(today, 45)),
    IdTipoDocumento: 'PE DNI',
    Documento: String(73_100_000 + i),
    Apellido: 'Masivo Prueba',
    Nombre: `Trabajador ${String.fromCharCode(65 + i)}`,
    Sexo: 'Masculino',
    FechaNacimiento: excelDate('1992-02-02'),
    IdPaisNacimiento: 'PE',
    IdPaisResidencia: 'PE',
    TelefonoMovil: String(955_000_000 + i),
    ...extra,
  });
  const choose = async (label: RegExp, option: RegExp) => {
    await page.getByRole('combobox', { name: label }).click();
    await page.getByRole('option', { name: option }).first().click();
  };
  const uploadFile = async (bytes: Buffer, zip?: Buffer) => {
    const path = join(tmpdir(), `bulk-${Date.now()}.xlsx`);
    writeFileSync(path, bytes);
    await page.getByRole('tab', { name: 'Ficha de personas' }).click();
    await page.getByLabel('Formato lleno (.xlsx)').setInputFiles(path);
    if (zip) {
      const zipPath = join(tmpdir(), `bulk-${Date.now()}.zip`);
      writeFileSync(zipPath, zip);
      await page.getByLabel('Adjuntos (.zip de PDF, opcional)').setInputFiles(zipPath);
    }
    await page.getByRole('button', { name: 'Cargar archivo' }).click();
    await page.getByTestId('bulk-counts').waitFor();
  };

  it('downloads the template, uploads 20 workers, shows the 3 errors, processes the fixed file with a progress bar', async () => {
    await page.goto(`${server.url}/movilizacion/solicitante/masiva?lang=es`, { waitUntil: 'networkidle' });
    await expect.poll(() => page.getByRole('tab', { name: 'Datos de la empresa' }).count()).toBe(1);

    await choose(/^Contrato/, /CT-2026-001/);
    await choose(/^Perfil de acreditación/, /TRABAJADOR CONTRATISTA/);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Descargar formato' }).click(),
    ]);
    const template = readFileSync((await download.path()) as string);
    const wrong = [
      row(3, { Sexo: 'Otro' }),
      row(7, { Documento: '123' }),
      row(12, { FechaFin: excelDate('2031-06-30') }),
    ];
    const rows = Array.from({ length: 20 }, (_, i) => row(i));
    const mistakes = rows.map((r, i) => (i === 3 ? wrong[0] : i === 7 ? wrong[1] : i === 12 ? wrong[2] : r));
    await uploadFile(await (await openTemplate(template.toString('base64'))).fill(mistakes));
    await expect.poll(() => page.locator('[data-count="observed"]').textContent()).toBe('Observados: 3');
    await expect.poll(() => page.locator('[data-state="E"]').count()).toBe(3);
    await expect
      .poll(() => page.locator('[data-row="6"]').textContent())
      .toContain('El valor no está en la lista.');
    await expect.poll(() => page.locator('[data-row="15"]').textContent()).toMatch(/dentro del contrato/);

    // Fixed and uploaded again with the first two workers' PDFs in a zip, named as the
    // instructions sheet says: nothing observed, the PDFs on their rows, a stray file pointed out.
    const opened = await openTemplate(template.toString('base64'));
    const names: string[] = [];
    opened.workbook.worksheets[1].eachRow((r) => {
      const name = String(r.getCell(2).value ?? '');
      if (name.startsWith('<documento>-')) names.push(name.replace('<documento>', ''));
    });
    expect(names.length).toBeGreaterThan(2);
    const zip = new JSZip();
    for (const i of [0, 1])
      for (const name of names)
        zip.file(`${73_100_000 + i}${name}`, `%PDF-1.4\n% ${73_100_000 + i}${name}\n%%EOF\n`);
    zip.file('leeme.pdf', '%PDF-1.4\n%%EOF\n');
    await uploadFile(await opened.fill(rows), await zip.generateAsync({ type: 'nodebuffer' }));
    await expect.poll(() => page.locator('[data-count="observed"]').textContent()).toBe('Observados: 0');
    await expect
      .poll(() => page.getByTestId('bulk-unused').textContent())
      .toBe('1 archivo del .zip no corresponde a ninguna fila: leeme.pdf');
    await expect.poll(() => page.locator('[data-row="4"]').textContent()).toContain(`${names.length} PDF`);
    expect(await page.locator('[data-row="4"] td[title]').getAttribute('title')).toContain(
      `${73_100_001}${names[1]}`,
    );
    expect(await page.locator('[data-row="5"]').textContent()).not.toContain('PDF');
    await expect.poll(() => page.locator('[data-count="toProcess"]').textContent()).toBe('Por procesar: 20');
    await page.getByRole('button', { name: 'Procesar' }).click();
    await page.getByTestId('bulk-progress').waitFor();
    await expect
      .poll(() => page.locator('[data-count="successful"]').textContent(), { timeout: 60_000 })
      .toBe('Exitosos: 20');
    await expect.poll(() => page.getByTestId('bulk-progress').getAttribute('aria-valuenow')).toBe('100');
    await expect.poll(() => page.locator('[data-state="S"]').count()).toBe(20);

    const code = new URL(page.url()).searchParams.get('codigo') as string;
    expect(code).toMatch(/^CM-/);
    const token = await page.evaluate(
      () => JSON.parse(localStorage.getItem('acreditacion.auth') ?? '{}').accessToken as string,
    );
    const answer = (await (
      await fetch(`${server.url}/api/acreditacionsolicitud/filasmasivo?CodigoCargaMasiva=${code}&take=100`, {
        headers: { authorization: `Bearer ${token}` },
      })
    ).json()) as { result: { rows: Array<{ IdSolicitud: number | null }> } };
    const ids = answer.result.rows.map((r) => r.IdSolicitud);
    expect(ids.filter(Boolean)).toHaveLength(20);

    // The requester's list holds them.
    await page.goto(`${server.url}/movilizacion/solicitante/persona?lang=es`, { waitUntil: 'networkidle' });
    await page.getByLabel('Buscar nombre o documento').fill('MASIVO PRUEBA');
    // Ten a page, the newest first: the first page shows ten of the twenty.
    const shown = async () => {
      let n = 0;
      for (const id of ids) if (await page.getByText(String(id).padStart(8, '0')).count()) n++;
      return n;
    };
    await expect.poll(shown, { timeout: 20_000 }).toBe(10);
    expect(problems).toEqual([]);
  });

  it('renews one requirement of two accredited workers from a file, from the requirement-update screen', async () => {
    const token = await page.evaluate(
      () => JSON.parse(localStorage.getItem('acreditacion.auth') ?? '{}').accessToken as string,
    );
    const api = async (path: string, body?: object) =>
      (await (
        await fetch(`${server.url}/api${path}`, {
          method: body ? 'POST' : 'GET',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: body ? JSON.stringify(body) : undefined,
        })
      ).json()) as { result: Array<Record<string, string | number>> };
    const accredited = (
      await api('/acreditaciondesmovilizacion/filtrarNuevoSolicitante', { IdEntidad: 'T' })
    ).result.filter((r) => r.NumeroContrato === 'CT-2026-001');
    expect(accredited.length).toBeGreaterThanOrEqual(2);
    const [a, b] = accredited;

    await page.goto(`${server.url}/requisito/solicitante/persona?lang=es`, { waitUntil: 'networkidle' });
    await page.getByRole('link', { name: 'Varios desde Excel' }).click();
    await expect
      .poll(() => page.getByRole('combobox', { name: /^Tipo de carga/ }).textContent())
      .toBe('Actualización de un requisito');
    await choose(/^Contrato/, /CT-2026-001/);
    await choose(/^Perfil de acreditación/, /TRABAJADOR CONTRATISTA/);
    await choose(/^Requisito a actualizar/, /^SCTR SALUD$/);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Descargar formato' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('CT-2026-001 SCTR SALUD.xlsx');
    const tpl = await openTemplate(readFileSync((await download.path()) as string).toString('base64'));
    const filled = [a, b].map((w) => {
      const row: Record<string, CellInput> = { IdTipoDocumento: 'PE DNI', Documento: String(w.Documento) };
      return { ...row, ...fillData(tpl, addDays(today, 300), () => 'POL-2027-0099') };
    });
    const zip = new JSZip();
    zip.file(`${a.Documento}.pdf`, '%PDF-1.4\n% SCTR\n%%EOF\n');
    await uploadFile(await tpl.fill(filled), await zip.generateAsync({ type: 'nodebuffer' }));
    await expect.poll(() => page.locator('[data-count="toProcess"]').textContent()).toBe('Por procesar: 2');
    await expect.poll(() => page.locator('[data-row="3"]').textContent()).toContain('1 PDF');
    await page.getByRole('button', { name: 'Procesar' }).click();
    await expect
      .poll(() => page.locator('[data-count="successful"]').textContent(), { timeout: 60_000 })
      .toBe('Exitosos: 2');
    const code = new URL(page.url()).searchParams.get('codigo') as string;
    const rows = (await api(`/acreditacionsolicitud/filasmasivo?CodigoCargaMasiva=${code}`))
      .result as unknown as {
      rows: Array<{ IdSolicitud: number }>;
    };
    const ids = rows.rows.map((r) => r.IdSolicitud);
    expect(ids.filter(Boolean)).toHaveLength(2);
    // A processed row's number opens its request, to add what is missing and send it.
    await page.getByRole('link', { name: String(ids[1]).padStart(8, '0') }).click();
    await page.waitForURL(new RegExp(`/${ids[1]}$`));
    await expect
      .poll(() =>
        page
          .getByRole('heading', { name: `Actualización de requisito N.º ${String(ids[1]).padStart(8, '0')}` })
          .count(),
      )
      .toBe(1);
    await page.getByRole('tab', { name: /Requisitos/ }).click();
    await expect.poll(() => page.getByText('SCTR SALUD').count()).toBeGreaterThan(0);

    // Both are renewals on the requirement-update screen, to complete and send there.
    await page.goto(`${server.url}/requisito/solicitante/persona?lang=es`, { waitUntil: 'networkidle' });
    for (const id of ids) await page.getByTestId(`renewal-request-${id}`).waitFor();
    expect(problems).toEqual([]);
  });
  it('files three visits from a file on a phone, in English', async () => {
    const phone = await browser.newContext({
      viewport: { width: 390, height: 844 },
      isMobile: true,
      hasTouch: true,
      acceptDownloads: true,
    });
    const mobile = await phone.newPage();
    mobile.setDefaultTimeout(30_000);
    mobile.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
    await signInBySession(mobile, server.url, 'SOLICITANTE', { at: null });
    await mobile.goto(`${server.url}/movilizacion/solicitante/masiva?lang=en`, { waitUntil: 'networkidle' });
    const pick = async (label: RegExp, option: RegExp) => {
      await mobile.getByRole('combobox', { name: label }).click();
      await mobile.getByRole('option', { name: option }).first().click();
    };
    await pick(/^Entity/, /^Visits$/);
    await pick(/^Contract/, /CT-2026-001/);
    await pick(/^Accreditation profile/, /VISITA TÉCNICA/);
    const [download] = await Promise.all([
      mobile.waitForEvent('download'),
      mobile.getByRole('button', { name: 'Download template' }).click(),
    ]);
    const tpl = await openTemplate(readFileSync((await download.path()) as string).toString('base64'));
    expect(tpl.keys.slice(0, 3)).toEqual(['FechaInicio', 'FechaFin', 'MotivoVisita']);
    const visit = (i: number): Record<string, CellInput> => {
      const row: Record<string, CellInput> = {
        FechaInicio: excelDate(today),
        FechaFin: excelDate(addDays(today, 1)),
        MotivoVisita: 'Inspección de equipos',
        IdTipoDocumento: 'PE DNI',
        Documento: String(41_950_000 + i),
        Apellido: 'Visita Masiva',
        Nombre: `Visitante ${String.fromCharCode(64 + i)}`,
      };
      return { ...row, ...fillData(tpl, addDays(today, 300), () => `V-${i}`) };
    };
    const path = join(tmpdir(), `bulk-visits-${Date.now()}.xlsx`);
    writeFileSync(path, await tpl.fill([visit(1), visit(2), visit(3)]));
    await mobile.getByRole('tab', { name: 'Person file' }).click();
    await mobile.getByLabel('Filled template (.xlsx)').setInputFiles(path);
    await mobile.getByRole('button', { name: 'Upload file' }).click();
    await mobile.getByTestId('bulk-counts').waitFor();
    await expect.poll(() => mobile.locator('[data-count="toProcess"]').textContent()).toBe('To process: 3');
    await mobile.getByRole('button', { name: 'Process' }).click();
    await expect
      .poll(() => mobile.locator('[data-count="successful"]').textContent(), { timeout: 60_000 })
      .toBe('Successful: 3');
    await mobile.screenshot({ path: join(tmpdir(), 'bulk-visits-phone.png'), fullPage: true });
    // The visits wait, incomplete, in the requester's visit list.
    const code = new URL(mobile.url()).searchParams.get('codigo') as string;
    const token = await mobile.evaluate(
      () => JSON.parse(localStorage.getItem('acreditacion.auth') ?? '{}').accessToken as string,
    );
    const answer = (await (
      await fetch(`${server.url}/api/acreditacionsolicitud/filasmasivo?CodigoCargaMasiva=${code}&take=10`, {
        headers: { authorization: `Bearer ${token}` },
      })
    ).json()) as { result: { rows: Array<{ IdSolicitud: number }> } };
    const ids = answer.result.rows.map((r) => r.IdSolicitud);
    expect(ids).toHaveLength(3);
    await mobile.goto(`${server.url}/movilizacion/solicitante/visita?lang=en`, { waitUntil: 'networkidle' });
    await expect
      .poll(() => mobile.getByText(String(Math.max(...ids)).padStart(8, '0')).count(), { timeout: 20_000 })
      .toBeGreaterThan(0);
    await phone.close();
    expect(problems).toEqual([]);
  });
});
