import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, siteDate } from '../../src/shared/dates.js';
import { launchBrowser, PHONE } from '../support/browser.js';
import { signInBySession } from '../support/console.js';
import { asUser, typeDate } from '../support/request-screens.js';
import { type RunningServer, startRealServer } from '../support/server.js';

// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON
type Json = any;
const SOUTH = 'UNIDAD MINERA SAN GABRIEL';
const today = siteDate('PE');
/** Once the page's finite transitions (a dialog fading in) have ended: for a screenshot. */
const settled = (page: Page) =>
  page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((a) => a.effect?.getComputedTiming().iterations !== Number.POSITIVE_INFINITY)
        .map((a) => a.finished.catch(() => undefined)),
    ),
  );
/** A date as the screens write it. */
const dmy = (iso: string) => iso.split('-').reverse().join('/');

/**
 * Demobilisation through the screens: the requester demobilises two workers at once with its
 * observation; the authoriser approves both together and sees what was revoked (the accreditation,
 * the access assignment and the credential); the demobilisation dashboards moved.
 */
describe('demobilisation in a real browser', () => {
  let server: RunningServer;
  let browser: Browser;
  let requester: Page;
  let authoriser: Page;
  let admin: Page;
  const problems: string[] = [];

  const open = async (user: string) => {
    const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    const page = await context.newPage();
    page.setDefaultTimeout(20_000);
    page.on('pageerror', (error) => problems.push(`${user} pageerror: ${error.message}`));
    await signInBySession(page, server.url, user, { division: SOUTH, at: null });
    return page;
  };
  const { api, go } = asUser(() => server.url);

  beforeAll(async () => {
    server = await startRealServer();
    browser = await launchBrowser();
    requester = await open('SOLICITANTE');
    authoriser = await open('AUTORIZADOR');
    admin = await open('ADMIN');
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('demobilises two workers at once; the approval revokes their access and credential, and the dashboards move', async () => {
    const candidates = (
      (await api(requester, 'POST', '/api/acreditaciondesmovilizacion/filtrarNuevoSolicitante', {
        IdEntidad: 'T',
      })) as Json[]
    ).filter((c) => c.Estado === 'A');
    expect(candidates.length).toBeGreaterThanOrEqual(2);
    const [a, b] = candidates;
    // Each of them holds an access assignment and a credential.
    const profile = (
      (await api(admin, 'GET', '/api/rest/access-profile?filter={"IdEntidad":"T"}')) as Json[]
    )[0];
    const type = ((await api(admin, 'GET', '/api/rest/credential-type')) as Json[])[0];
    const issue = (
      (await api(admin, 'GET', '/api/rest/identification-reason?filter={"Tipo":"E"}')) as Json[]
    )[0];
    for (const worker of [a, b]) {
      const access = (await api(
        admin,
        'GET',
        `/api/rest/person-access?filter={"IdPersona":${worker.IdPersona}}`,
      )) as Json[];
      if (!access.some((x) => x.Activo === 'S'))
        await api(admin, 'POST', '/api/rest/person-access', {
          IdPersona: worker.IdPersona,
          IdPerfilAcceso: profile.IdPerfilAcceso,
          FechaInicio: addDays(today, -5),
          FechaFin: addDays(today, 90),
          Temporal: 'N',
          Activo: 'S',
        });
      const credentials = (await api(
        admin,
        'GET',
        `/api/rest/credential?filter={"IdPersona":${worker.IdPersona}}`,
      )) as Json[];
      if (!credentials.some((x) => x.Activo === 'S'))
        await api(admin, 'POST', '/api/rest/credential', {
          IdPersona: worker.IdPersona,
          IdTipoCredencial: type.IdTipoCredencial,
          Numero: `E2E-${worker.IdPersona}`,
          FechaInicio: addDays(today, -5),
          FechaFin: addDays(today, 200),
          Impreso: 'S',
          IdMotivoEmision: issue.IdMotivo,
          Activo: 'S',
        });
    }
    const pendingBefore = (
      (await api(
        authoriser,
        'GET',
        '/api/acreditaciondesmovilizacion/dashboardAutorizador?CantMeses=1',
      )) as Json
    )[1].find((r: Json) => r.ESTADO === 'P').TOTAL;

    // The requester: both selected, the button waits for the observation.
    await go(requester, '/desmovilizacion/solicitante/persona');
    for (const worker of [a, b])
      await requester
        .locator(`[data-testid="candidate-${worker.IdAcreditacion}"] input[type="checkbox"]`)
        .check();
    const file = requester.getByRole('button', { name: /Desmovilizar 2 seleccionados/ });
    expect(await file.isDisabled()).toBe(true);
    await requester.getByLabel(/Observación \(obligatoria\)/).fill('Fin de la obra civil del tajo norte');
    // The date: today unless another is typed, today or later and within both accreditations.
    const latest = [a.FechaFin, b.FechaFin].sort()[0];
    expect(await requester.locator('#demobilisation-date-helper-text').textContent()).toContain(dmy(latest));
    const date = [addDays(today, 3), latest].sort()[0];
    await typeDate(requester, 'demobilisation-date-label', addDays(latest, 1));
    await expect.poll(() => file.isDisabled()).toBe(true);
    await typeDate(requester, 'demobilisation-date-label', date);
    await expect.poll(() => file.isDisabled()).toBe(false);
    await file.click();
    await requester.locator(`[data-testid="candidate-${a.IdAcreditacion}"]`).waitFor({ state: 'detached' });
    // It says what was done, and from when.
    expect(await requester.getByTestId('demobilisation-filed').textContent()).toBe(
      `Se solicitó la desmovilización de 2 seleccionados desde el ${dmy(date)}.`,
    );
    const mine = (await api(requester, 'POST', '/api/acreditaciondesmovilizacion/FiltrarSolicitante', {
      take: 10,
    })) as Json;
    const ids = (mine.data as Json[]).filter((r) => r.EstadoAprobacion === 'P').map((r) => r.IdSolicitud);
    expect(ids.length).toBeGreaterThanOrEqual(2);

    // The authoriser's dashboard tab counts them; its screen approves both together.
    await go(authoriser, '/dashboard');
    await authoriser.getByRole('tab', { name: 'Desmovilización' }).click();
    await authoriser.locator('[data-entity="T"] [data-count="P"]').waitFor();
    expect(Number(await authoriser.locator('[data-entity="T"] [data-count="P"]').textContent())).toBe(
      pendingBefore + 2,
    );
    await go(authoriser, '/desmovilizacion/autorizador/persona');
    for (const id of ids.slice(0, 2))
      await authoriser.locator(`[data-testid="demobilisation-${id}"] input[type="checkbox"]`).check();
    // Approving asks first, naming whom it ends; cancelled, nothing changes.
    const names = [a, b].map((w) => `${w.Apellido} ${w.Nombre} (${w.Documento}) · ${dmy(date)}`);
    await authoriser.getByRole('button', { name: /Aprobar 2/ }).click();
    const question = authoriser.getByRole('dialog', { name: '¿Aprobar 2 desmovilizaciones?' });
    await question.waitFor();
    expect((await question.getByTestId('approval-names').locator('li').allTextContents()).sort()).toEqual(
      names.sort(),
    );
    expect(await question.textContent()).toContain('fotocheck');
    await question.getByRole('button', { name: 'Cancelar' }).click();
    await question.waitFor({ state: 'detached' });
    expect(
      await authoriser.locator(`[data-testid="demobilisation-${ids[0]}"] [data-status="P"]`).count(),
    ).toBe(1);
    await authoriser.getByRole('button', { name: /Aprobar 2/ }).click();
    await question.getByRole('button', { name: 'Aprobar y desmovilizar 2' }).click();
    await authoriser.locator(`[data-testid="demobilisation-${ids[0]}"] [data-status="A"]`).waitFor();
    const decided = await authoriser.getByTestId('demobilisation-decided').textContent();
    for (const w of [a, b])
      expect(decided).toContain(`${w.Apellido} ${w.Nombre} (${w.Documento}): desmovilizado el ${dmy(date)}`);
    // What was revoked, as the authoriser sees it.
    await authoriser
      .locator(`[data-testid="demobilisation-${ids[0]}"]`)
      .getByRole('button', { name: 'Ver' })
      .click();
    const revoked = authoriser.getByTestId('revoked');
    await revoked.getByText('Acreditación', { exact: false }).first().waitFor();
    const text = await revoked.textContent();
    expect(text).toMatch(/Acceso/i);
    expect(text).toMatch(/Credencial/i);
    // By name: the contract, the access profile, the badge's number; no ids.
    const shownText = await authoriser.getByRole('dialog').textContent();
    const first = [a, b].find((w) => shownText?.includes(w.Documento));
    expect(text).toContain(first.NumeroContrato);
    const credential = (
      (await api(admin, 'GET', `/api/rest/credential?filter={"IdPersona":${first.IdPersona}}`)) as Json[]
    ).find((x) => x.IdMotivoInactivacion);
    expect(text).toContain(credential.Numero);
    expect(text).not.toMatch(/#\d/);

    for (const worker of [a, b]) {
      const access = (await api(
        admin,
        'GET',
        `/api/rest/person-access?filter={"IdPersona":${worker.IdPersona}}`,
      )) as Json[];
      expect(access.length).toBeGreaterThan(0);
      expect(access.every((x) => x.Activo === 'N')).toBe(true);
      const credentials = (await api(
        admin,
        'GET',
        `/api/rest/credential?filter={"IdPersona":${worker.IdPersona}}`,
      )) as Json[];
      expect(credentials.length).toBeGreaterThan(0);
      expect(credentials.every((x) => x.Activo === 'N')).toBe(true);
      const accreditation = (await api(
        admin,
        'GET',
        `/api/rest/accreditation?filter={"IdPersona":${worker.IdPersona}}`,
      )) as Json[];
      expect(accreditation.find((x) => x.IdAcreditacion === worker.IdAcreditacion).Estado).toBe('T');
    }
    // The requester's demobilisation tab moved to approved.
    await go(requester, '/dashboard');
    await requester.getByRole('tab', { name: 'Desmovilización' }).click();
    await requester.locator('[data-entity="T"] [data-count="A"]').waitFor();
    expect(
      Number(await requester.locator('[data-entity="T"] [data-count="A"]').textContent()),
    ).toBeGreaterThanOrEqual(2);
    expect(problems).toEqual([]);
  }, 120_000);

  it('extends a worker’s accreditation through the contract screen; approved, the accreditation ends later', async () => {
    const candidates = (
      (await api(requester, 'POST', '/api/acreditaciondesmovilizacion/filtrarNuevoSolicitante', {
        IdEntidad: 'T',
      })) as Json[]
    ).filter((c) => c.Estado === 'A');
    const contracts = (await api(
      admin,
      'GET',
      `/api/rest/contract?range=${encodeURIComponent('[0,99]')}`,
    )) as Json[];
    const worker = candidates.find((c) => {
      const contract = contracts.find((k) => k.NumeroContrato === c.NumeroContrato);
      return contract && addDays(c.FechaFin, 30) <= contract.FechaFin;
    });
    expect(worker).toBeDefined();
    const end = addDays(worker.FechaFin, 30);

    await go(requester, '/contrato/solicitante/persona', 'es');
    await requester.getByRole('checkbox', { name: worker.Documento }).check();
    await typeDate(requester, 'contract-end-label', end);
    await requester.getByRole('button', { name: 'Solicitar la ampliación de 1 seleccionado' }).click();
    const filed = requester.locator('[data-testid^="contract-request-"]', { hasText: worker.Documento });
    await expect.poll(() => filed.innerText()).toMatch(/Pendiente/i);
    const number = await filed.locator('td').first().innerText();

    await go(authoriser, '/contrato/autorizador/persona', 'es');
    await authoriser.getByRole('checkbox', { name: number }).check();
    await authoriser.getByRole('button', { name: 'Aprobar 1' }).click();
    const decided = authoriser.locator('[data-testid^="contract-request-"]', { hasText: worker.Documento });
    await expect.poll(() => decided.innerText()).toMatch(/Aprobada/i);
    const accreditation = await api(requester, 'GET', `/api/rest/accreditation/${worker.IdAcreditacion}`);
    expect(accreditation.FechaFin).toBe(end);
    expect(problems).toEqual([]);
  }, 120_000);

  it('on a phone, in English: the date, the question naming whom approval ends, what was revoked by name', async () => {
    const phone = async (user: string) => {
      const context = await browser.newContext(PHONE);
      const page = await context.newPage();
      page.setDefaultTimeout(20_000);
      page.on('pageerror', (error) => problems.push(`${user} pageerror: ${error.message}`));
      await signInBySession(page, server.url, user, { division: SOUTH, at: null });
      return page;
    };
    const requesterPhone = await phone('SOLICITANTE');
    const authoriserPhone = await phone('AUTORIZADOR');
    const [worker] = (
      (await api(requesterPhone, 'POST', '/api/acreditaciondesmovilizacion/filtrarNuevoSolicitante', {
        IdEntidad: 'T',
      })) as Json[]
    ).filter((c) => c.Estado === 'A');
    expect(worker).toBeDefined();
    await go(requesterPhone, '/desmovilizacion/solicitante/persona', 'en');
    await requesterPhone
      .locator(`[data-testid="candidate-${worker.IdAcreditacion}"] input[type="checkbox"]`)
      .check();
    await requesterPhone.getByLabel(/Observation/).fill('End of the civil works');
    const date = [addDays(today, 1), worker.FechaFin].sort()[0];
    await typeDate(requesterPhone, 'demobilisation-date-label', date);
    await requesterPhone.screenshot({
      path: 'test-results/demobilisation-phone-requester.png',
      fullPage: true,
    });
    await requesterPhone.getByRole('button', { name: 'Demobilise 1 selected' }).click();
    expect(await requesterPhone.getByTestId('demobilisation-filed').textContent()).toBe(
      `Demobilisation requested for 1 selected from ${dmy(date)}.`,
    );
    const [request] = (
      (await api(requesterPhone, 'POST', '/api/acreditaciondesmovilizacion/FiltrarSolicitante', {
        take: 50,
      })) as Json
    ).data.filter((r: Json) => r.EstadoAprobacion === 'P' && r.Documento === worker.Documento);

    await go(authoriserPhone, '/desmovilizacion/autorizador/persona', 'en');
    await authoriserPhone
      .locator(`[data-testid="demobilisation-${request.IdSolicitud}"] input[type="checkbox"]`)
      .check();
    await authoriserPhone.getByRole('button', { name: 'Approve 1' }).click();
    const question = authoriserPhone.getByRole('dialog', { name: 'Approve 1 demobilisation?' });
    await question.waitFor();
    expect(await question.getByTestId('approval-names').textContent()).toBe(
      `${worker.Apellido} ${worker.Nombre} (${worker.Documento}) · ${dmy(date)}`,
    );
    expect(await question.textContent()).toContain('badge');
    await settled(authoriserPhone);
    await authoriserPhone.screenshot({ path: 'test-results/demobilisation-phone-question.png' });
    await question.getByRole('button', { name: 'Approve and demobilise 1' }).click();
    await authoriserPhone
      .locator(`[data-testid="demobilisation-${request.IdSolicitud}"] [data-status="A"]`)
      .waitFor();
    expect(await authoriserPhone.getByTestId('demobilisation-decided').textContent()).toContain(
      `${worker.Apellido} ${worker.Nombre} (${worker.Documento}): demobilised on ${dmy(date)}`,
    );
    await authoriserPhone
      .locator(`[data-testid="demobilisation-${request.IdSolicitud}"]`)
      .getByRole('button', { name: 'Show' })
      .click();
    const revoked = authoriserPhone.getByTestId('revoked');
    await revoked.getByText('Accreditation', { exact: false }).first().waitFor();
    expect(await revoked.textContent()).toContain(worker.NumeroContrato);
    expect(await revoked.textContent()).not.toMatch(/#\d/);
    await settled(authoriserPhone);
    await authoriserPhone.screenshot({ path: 'test-results/demobilisation-phone-revoked.png' });
    expect(problems).toEqual([]);
  }, 120_000);
});
