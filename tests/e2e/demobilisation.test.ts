import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, siteDate } from '../../src/shared/dates.js';
import { launchBrowser } from '../support/browser.js';
import { signInThroughConsole } from '../support/console.js';
import { asUser, typeDate } from '../support/request-screens.js';
import { type RunningServer, startRealServer } from '../support/server.js';

// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON
type Json = any;
const SOUTH = 'UNIDAD MINERA SAN GABRIEL';
const today = siteDate('PE');

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
    await signInThroughConsole(page, server.url, user, { division: SOUTH });
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
    await file.click();
    await requester.locator(`[data-testid="candidate-${a.IdAcreditacion}"]`).waitFor({ state: 'detached' });
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
    await authoriser.getByRole('button', { name: /Aprobar 2/ }).click();
    await authoriser.locator(`[data-testid="demobilisation-${ids[0]}"] [data-status="A"]`).waitFor();
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
});
