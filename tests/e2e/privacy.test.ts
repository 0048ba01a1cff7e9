/**
 * Sensitive personal data in a real browser: the administrator reads a worker's allergy and finds
 * the read in the access log (Spanish, desktop); the authoriser, whose profile does not read health
 * data, sees it protected (English, phone); a requester kept from health data by their own setting
 * saves the worker's record and the allergy stays as stored.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Sqlite from 'better-sqlite3';
import { unzipSync } from 'fflate';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import en from '../../locales/en.json';
import es from '../../locales/es.json';
import { launchBrowser, PHONE } from '../support/browser.js';
import { signInBySession } from '../support/console.js';
import { asUser, type Lang } from '../support/request-screens.js';
import { type RunningServer, startRealServer } from '../support/server.js';
import { drawingProblems, screenshot } from '../support/shots.js';

// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON
type Json = any;
const SHOTS = '/tmp/privacy-shots';
const ALLERGY = 'ALERGIA A LA PENICILINA';
const DESKTOP: BrowserContextOptions = { viewport: { width: 1280, height: 900 } };

describe('sensitive personal data in the console', () => {
  let server: RunningServer;
  let browser: Browser;
  let db: Sqlite.Database;
  let person: { IdPersona: number; Apellido: string };
  const { go } = asUser(() => server.url);
  const problems: string[] = [];

  beforeAll(async () => {
    server = await startRealServer();
    browser = await launchBrowser();
    mkdirSync(SHOTS, { recursive: true });
    db = new Sqlite(join(server.dataDir, 'acreditacion.db'));
    db.pragma('busy_timeout = 5000');
    person = db
      .prepare(
        `select p.IdPersona, p.Apellido from administration_person p
         join administration_company c on c.IdCompania = p.IdCompania
         where c.Alias = 'SERMIPAC' and p.Condicion = 'T' order by p.IdPersona limit 1`,
      )
      .get() as Json;
    db.prepare('update administration_person set Alergia = ?, Discapacidad = ? where IdPersona = ?').run(
      ALLERGY,
      'VISUAL PARCIAL',
      person.IdPersona,
    );
  }, 120_000);

  afterAll(async () => {
    db?.close();
    await browser?.close();
    await server?.stop();
  });

  async function open(user: string, lang: Lang, context: BrowserContextOptions): Promise<Page> {
    const page = await (await browser.newContext(context)).newPage();
    page.setDefaultTimeout(20_000);
    page.on('pageerror', (error) => problems.push(`${user} pageerror: ${error.message}`));
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(`${user} console: ${m.text()}`);
    });
    await signInBySession(page, server.url, user, { at: null });
    await go(page, '/dashboard', lang);
    return page;
  }

  it("shows the administrator a worker's allergy, and the read in the access log (Spanish, desktop)", async () => {
    const page = await open('ADMIN', 'es', DESKTOP);
    await go(page, `/person/${person.IdPersona}/show`, 'es');
    await page.getByText(ALLERGY).waitFor();
    expect(await page.locator('.protected-value').count()).toBe(0);
    await screenshot(page, `${SHOTS}/admin-person.es.png`);

    // Emptied in the form, a health field is cleared; the others stay.
    await go(page, `/person/${person.IdPersona}/edit`, 'es');
    const disability = page.getByRole('textbox', {
      name: es.resources.person.fields.Discapacidad,
      exact: true,
    });
    await expect.poll(() => disability.inputValue()).toBe('VISUAL PARCIAL');
    await disability.fill('');
    await page.getByRole('button', { name: 'Guardar', exact: true }).click();
    await expect
      .poll(
        () =>
          (
            db
              .prepare('select Discapacidad from administration_person where IdPersona = ?')
              .get(person.IdPersona) as Json
          ).Discapacidad,
        { timeout: 20_000 },
      )
      .toBeNull();
    expect(
      (
        db
          .prepare('select Alergia from administration_person where IdPersona = ?')
          .get(person.IdPersona) as Json
      ).Alergia,
    ).toBe(ALLERGY);

    await go(page, '/sensitive-access', 'es');
    const row = page.locator('#main-content table tbody tr', { hasText: es.resources.person.fields.Alergia });
    await row.first().waitFor();
    const text = await row.first().innerText();
    expect(text).toContain('ADMIN');
    expect(text).toContain(String(person.IdPersona));
    expect(text).toContain(es.enums.dataClass.health);
    expect(await drawingProblems(page, 'access log', /^(resources|app|enums)\./)).toEqual([]);
    await screenshot(page, `${SHOTS}/admin-log.es.png`);
    const rows = db
      .prepare(`select * from security_sensitive_access where IdPersona = ? and IdUsuario = 'ADMIN'`)
      .all(person.IdPersona) as Json[];
    expect(rows.map((r) => r.Campo)).toContain('Alergia');
    expect(rows.find((r) => r.Campo === 'Alergia').Origen).toBe(
      `GET /api/rest/person/:id · /person/${person.IdPersona}/show`,
    );
    await page.context().close();
  });

  it('shows the authoriser, whose profile does not read health data, the allergy as protected (English, phone)', async () => {
    const page = await open('AUTORIZADOR', 'en', PHONE);
    await go(page, `/person/${person.IdPersona}/show`, 'en');
    await page.getByText(person.Apellido).first().waitFor();
    const guarded = page.locator('.protected-value');
    await guarded.first().waitFor();
    expect(await guarded.count()).toBe(3);
    expect(await guarded.first().innerText()).toContain(en.app.privacy.masked);
    expect(await page.locator('body').innerText()).not.toContain(ALLERGY);
    await screenshot(page, `${SHOTS}/authoriser-person.en.png`, true);
    const reads = db
      .prepare(`select count(*) as n from security_sensitive_access where IdUsuario = 'AUTORIZADOR'`)
      .get() as Json;
    expect(reads.n).toBe(0);
    // A request's medical examination: its values and file withheld, said so.
    const request = db
      .prepare(
        `select d.IdSolicitud, d.IdDetalle from accreditation_request_detail d
         join access_requirement r on r.IdRequisito = d.IdRequisito
         join accreditation_request s on s.IdSolicitud = d.IdSolicitud
         where r.ClaseDato = 'health' and d.ClaveArchivo is not null and s.IdEntidad = 'T'
           and s.IdDivision = 1 and s.EstadoAprobacion = 'P' order by d.IdDetalle limit 1`,
      )
      .get() as Json;
    await go(page, `/movilizacion/autorizador/persona/${request.IdSolicitud}`, 'en');
    const line = page.locator(`.requirement-item[data-item="${request.IdDetalle}"]`);
    await line.locator('.protected-value').waitFor();
    expect(await line.locator(`[data-preview="${request.IdDetalle}"]`).count()).toBe(0);
    await line.scrollIntoViewIfNeeded();
    await screenshot(page, `${SHOTS}/authoriser-examination.en.png`);
    await page.context().close();
  });

  it("keeps a worker's allergy when a requester kept from health data saves the record (Spanish, desktop)", async () => {
    // The requester's profile reads health data; this user's own setting says no.
    db.prepare(`update security_user set DatosSalud = 'N' where IdUsuario = 'SOLICITANTE'`).run();
    const page = await open('SOLICITANTE', 'es', DESKTOP);
    await go(page, `/person/${person.IdPersona}/edit`, 'es');
    const surname = page.getByRole('textbox', { name: es.resources.person.fields.Apellido, exact: true });
    await expect.poll(() => surname.inputValue()).toBe(person.Apellido);
    await page.getByText(es.app.privacy.maskedHelp).first().waitFor();
    const allergy = page.getByRole('textbox', { name: es.resources.person.fields.Alergia, exact: true });
    expect(await allergy.isEditable()).toBe(false);
    expect(await allergy.inputValue()).toBe('');
    const note = page.getByRole('textbox', { name: es.resources.person.fields.Observacion, exact: true });
    await note.fill('REVISADO SIN VER SU SALUD');
    await screenshot(page, `${SHOTS}/requester-edit.es.png`, true);
    await page.getByRole('button', { name: 'Guardar', exact: true }).click();
    await expect
      .poll(
        () =>
          (
            db
              .prepare('select Observacion from administration_person where IdPersona = ?')
              .get(person.IdPersona) as Json
          ).Observacion,
        { timeout: 20_000 },
      )
      .toBe('REVISADO SIN VER SU SALUD');
    const stored = db
      .prepare('select Alergia from administration_person where IdPersona = ?')
      .get(person.IdPersona) as Json;
    expect(stored.Alergia).toBe(ALLERGY);
    await page.context().close();
  });

  it('shows the administrator what retention would anonymise, then anonymises it (English, phone)', async () => {
    const model = db
      .prepare('select * from administration_person where IdPersona = ?')
      .get(person.IdPersona) as Json;
    const { IdPersona: _id, ...row } = model;
    const former = {
      ...row,
      Documento: '99887766',
      Apellido: 'EXTRABAJADOR ANTIGUO',
      Condicion: 'C',
      FechaCese: '2010-06-30',
      Alergia: 'LATEX',
    };
    const columns = Object.keys(former);
    const made = db
      .prepare(
        `insert into administration_person (${columns.join(', ')}) values (${columns.map(() => '?').join(', ')})`,
      )
      .run(...columns.map((c) => former[c]));
    const id = Number(made.lastInsertRowid);
    const page = await open('ADMIN', 'en', PHONE);
    await go(page, '/retention-rule', 'en');
    await page.getByTestId('record-cards').getByText(en.enums.dataClass.health).waitFor();
    await page.getByRole('button', { name: en.privacy.retention.dryRun }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText(en.privacy.retention.dryRunTitle).waitFor();
    const rows = dialog.locator('.retention-classes tbody tr');
    await expect.poll(() => rows.count()).toBe(6);
    expect(await dialog.locator('.retention-classes').innerText()).toContain(en.enums.dataClass.health);
    await dialog.getByText('1 person would be anonymised').waitFor();
    await screenshot(page, `${SHOTS}/admin-retention.en.png`);
    expect(
      (db.prepare('select Apellido from administration_person where IdPersona = ?').get(id) as Json).Apellido,
    ).toBe('EXTRABAJADOR ANTIGUO');
    await dialog.getByRole('button', { name: en.privacy.retention.run }).click();
    await dialog.getByText('1 person was anonymised').waitFor();
    const gone = db
      .prepare('select Apellido, Documento, Alergia from administration_person where IdPersona = ?')
      .get(id) as Json;
    expect(gone).toEqual({ Apellido: 'ANONIMIZADO', Documento: `ANON-${id}`, Alergia: null });
    await page.context().close();
  });

  it("answers a worker's access request with the export of their data (Spanish, desktop)", async () => {
    const at = new Date().toISOString();
    const made = db
      .prepare(
        `insert into security_rights_request (IdCliente, IdPersona, Tipo, Pais, FechaRecepcion, FechaLimite, Estado, IdUsuarioCreacion, FechaCreacion)
         values (1, ?, 'A', 'PE', '2026-11-02', '2026-11-30', 'P', 'ADMIN', ?)`,
      )
      .run(person.IdPersona, at);
    const page = await open('ADMIN', 'es', DESKTOP);
    await go(page, `/rights-request/${made.lastInsertRowid}/show`, 'es');
    await page.getByText(es.enums.rightsKind.A).first().waitFor();
    await screenshot(page, `${SHOTS}/admin-rights.es.png`);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: es.privacy.rights.export }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(
      new RegExp(`^datos-personales-${person.IdPersona}-\\d{8}\\.zip$`),
    );
    const files = unzipSync(new Uint8Array(readFileSync(await download.path())));
    const people = JSON.parse(Buffer.from(files['datos/person.json']).toString('utf8')) as Json[];
    expect(people[0]).toMatchObject({ IdPersona: person.IdPersona, Alergia: ALLERGY });
    expect(Object.keys(files)).toContain('resumen.pdf');
    await page.context().close();
  });

  it("makes a security incident's notice to the authority and tells the person it reached (English, phone)", async () => {
    const at = new Date().toISOString();
    const made = db
      .prepare(
        `insert into security_security_incident (IdCliente, Titulo, FechaDeteccion, Descripcion, Pais, AfectaSalud, Estado, FechaLimiteAutoridad, IdUsuarioCreacion, FechaCreacion)
         values (1, 'FICHAS MÉDICAS ENVIADAS POR ERROR', '2026-11-28T14:30:00.000Z', 'Un correo con aptitudes médicas a un destinatario equivocado.', 'PE', 'S', 'A', '2026-11-30T14:30:00.000Z', 'ADMIN', ?)`,
      )
      .run(at);
    const id = Number(made.lastInsertRowid);
    db.prepare(
      'insert into security_security_incident_personas_afectadas (IdIncidente, Valor) values (?, ?)',
    ).run(id, person.IdPersona);
    const page = await open('ADMIN', 'en', PHONE);
    await go(page, `/security-incident/${id}/show`, 'en');
    await page.getByText('FICHAS MÉDICAS ENVIADAS POR ERROR').first().waitFor();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: en.privacy.incident.authority }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`incident-notice-${id}.pdf`);
    await page.getByRole('button', { name: en.privacy.incident.people }).click();
    await page.getByText('People told: 1; without an e-mail: 0').waitFor();
    await screenshot(page, `${SHOTS}/admin-incident.en.png`);
    const stored = db
      .prepare(
        'select Estado, FechaAvisoAutoridad, FechaAvisoPersonas from security_security_incident where IdIncidente = ?',
      )
      .get(id) as Json;
    expect(stored.Estado).toBe('N');
    expect(stored.FechaAvisoAutoridad).toBeTruthy();
    expect(stored.FechaAvisoPersonas).toBeTruthy();
    await page.context().close();
  });

  it('ends without errors in the browsers’ consoles', () => {
    expect(problems).toEqual([]);
  });
});
