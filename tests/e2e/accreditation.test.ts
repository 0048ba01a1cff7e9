import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import es from '../../locales/es.json' with { type: 'json' };
import { addDays, siteDate } from '../../src/shared/dates.js';
import { pdf } from '../support/accreditation.js';
import { launchBrowser } from '../support/browser.js';
import { sessionPage } from '../support/console.js';
import { png } from '../support/png.js';
import {
  approveAll,
  asUser,
  button,
  choose,
  fillPersonal,
  fillRequirements,
  type Lang,
  saveAndReopen,
  select,
  sendRequest,
  setLine,
  typeDate,
} from '../support/request-screens.js';
import { type RunningServer, startRealServer } from '../support/server.js';

type Data = Record<string, unknown>;

const SHOTS = process.env.E2E_SHOTS;
const today = siteDate('PE');

/**
 * A mobilisation through the screens, as the requester and the authoriser do it, in both
 * languages: a worker with a PDF and a photo, sent, observed on one requirement, corrected and
 * sent again, approved; the worker then accredited and both dashboards moved. A vehicle and a
 * visit go through the same engine.
 */
describe('accreditation requests in a real browser', () => {
  let server: RunningServer;
  let browser: Browser;
  let requester: Page;
  let authoriser: Page;
  const problems: string[] = [];

  const open = async (user: string) => {
    const page = await sessionPage(browser, server.url, user, {
      context: { viewport: { width: 1400, height: 900 } },
    });
    page.setDefaultTimeout(20_000);
    page.on('console', (message) => {
      if (/Failed to load resource: the server responded with a status of (400|404|409)/.test(message.text()))
        return;
      if (message.type() === 'error' || message.type() === 'warning')
        problems.push(`${user} ${message.type()}: ${message.text()}`);
    });
    page.on('pageerror', (error) => problems.push(`${user} pageerror: ${error.message}`));
    return page;
  };

  beforeAll(async () => {
    server = await startRealServer();
    browser = await launchBrowser();
    requester = await open('SOLICITANTE');
    authoriser = await open('AUTORIZADOR');
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const shot = async (page: Page, name: string) => {
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
  };
  const calls = asUser(() => server.url);
  const api = (page: Page, path: string): Promise<Data> => calls.api(page, 'GET', path);
  const go = (page: Page, path: string, lang: Lang) => calls.go(page, path, lang);

  const count = async (page: Page, entity: string, status: string) =>
    Number(await page.locator(`[data-entity="${entity}"] [data-count="${status}"]`).textContent());
  const requesterCounts = async (entity: string, lang: Lang) => {
    await go(requester, '/dashboard', lang);
    await requester.locator(`[data-entity="${entity}"] [data-count="A"]`).waitFor();
    return { approved: await count(requester, entity, 'A'), pending: await count(requester, entity, 'P') };
  };
  const authoriserCounts = async (entity: string, lang: Lang) => {
    await go(authoriser, '/dashboard', lang);
    await authoriser.locator(`[data-entity="${entity}"] [data-count="A"]`).waitFor();
    return { approved: await count(authoriser, entity, 'A'), pending: await count(authoriser, entity, 'P') };
  };

  const openToEvaluate = async (page: Page, segment: string, id: number, lang: Lang) => {
    await go(page, `/movilizacion/autorizador/${segment}?estado=P`, lang);
    await page.locator(`[data-open-request="${id}"]`).click();
    await page.locator('[data-testid="evaluation"][data-status="P"]').waitFor();
  };

  it('mobilises a worker: made with a PDF and a photo, observed, corrected, approved and accredited (Spanish)', async () => {
    const lang = 'es';
    const before = await requesterCounts('T', lang);
    const authorisedBefore = await authoriserCounts('T', lang);
    await shot(requester, 'requester-dashboard-es');
    await shot(authoriser, 'authoriser-dashboard-es');

    await go(requester, '/movilizacion/solicitante/persona', lang);
    await requester.locator('[data-testid="new-request"]').click();
    await requester.locator('#general_IdContrato').waitFor();
    await choose(requester, 'general_IdContrato', 'CT-2026');
    await choose(requester, 'general_IdPerfilAcreditacion', 'TRABAJADOR');
    // Dates the server would refuse are refused on this step, under their fields, dd/MM/yyyy.
    const dmy = (iso: string) => iso.split('-').reverse().join('/');
    await typeDate(requester, 'general_FechaInicio-label', addDays(today, -1));
    await typeDate(requester, 'general_FechaFin-label', '2031-01-01');
    await button(requester, /Siguiente/).click();
    const startError = requester.locator('#general_FechaInicio__error');
    const endError = requester.locator('#general_FechaFin__error');
    await expect
      .poll(() => startError.textContent())
      .toBe(`La fecha de inicio debe ser hoy (${dmy(today)}) o posterior.`);
    expect(await endError.textContent()).toMatch(
      /^Las fechas deben estar dentro del contrato \(\d{2}\/\d{2}\/\d{4} a \d{2}\/\d{2}\/\d{4}\)\.$/,
    );
    expect(await requester.locator('[data-step="general"][aria-selected="true"]').count()).toBe(1);
    await shot(requester, 'worker-general-dates-es');
    // Fixed, each message goes at once.
    await typeDate(requester, 'general_FechaInicio-label', today);
    await expect.poll(() => startError.count()).toBe(0);
    await typeDate(requester, 'general_FechaFin-label', addDays(today, 120));
    await expect.poll(() => endError.count()).toBe(0);
    await shot(requester, 'worker-general-es');
    await button(requester, /Siguiente/).click();

    // Personal data: the photo and who the worker is.
    await fillPersonal(requester, {
      photo: png(150, 160),
      document: '71234598',
      surname: 'Quispe Mamani',
      name: 'Rosa Elena',
      sex: /Femenino/,
      birth: addDays(today, -365 * 16),
      phone: '987654321',
    });
    // Too young to work: said under the birth date, and the request is not made.
    await button(requester, /Guardar y continuar/).click();
    const birthError = requester.locator('#personal_FechaNacimiento__error');
    await expect
      .poll(() => birthError.textContent())
      .toBe('La persona debe tener al menos 18 años, la edad legal para trabajar.');
    await typeDate(requester, 'personal_FechaNacimiento-label', '1992-03-08');
    await expect.poll(() => birthError.count()).toBe(0);
    await shot(requester, 'worker-personal-es');
    await button(requester, /Guardar y continuar/).click();
    await requester.waitForURL(/\/movilizacion\/solicitante\/persona\/\d+$/);
    const id = Number(requester.url().split('/').pop());
    await requester.locator('[data-testid="request-form"][data-status="I"]').waitFor();
    await expect
      .poll(() => requester.locator('[data-testid="request-title"]').textContent())
      .toBe(`Solicitud N.º ${String(id).padStart(8, '0')}`);

    // Requirements: every value and file; a value of the wrong type is refused by the step.
    await fillRequirements(requester, today);
    await shot(requester, 'worker-requirements-es');
    // A save goes back to the list, which opens the request again.
    await saveAndReopen(requester, id, 'Solicitud guardada.');
    await requester.locator('[data-step="additional"]').click();
    await requester.locator('#additionalHolder_EmergenciaNombre').fill('Juan Quispe');
    await requester.locator('#additionalHolder_EmergenciaTelefono').fill('987000111');
    await saveAndReopen(requester, id, 'Solicitud guardada.');
    await requester.locator('[data-step="finalise"]').click();
    await requester.getByText(/Todos los requisitos están ingresados/).waitFor();
    await shot(requester, 'worker-finalise-es');
    await sendRequest(requester);
    expect(
      (await api(requester, `/api/acreditacionsolicitud/obtenersolicitud?IdSolicitud=${id}`))
        .EstadoAprobacion,
    ).toBe('P');
    expect(
      (await api(requester, `/api/acreditacionsolicitud/obtenersolicitud?IdSolicitud=${id}`)).ClaveFoto,
    ).toBeTruthy();

    // The authoriser observes one requirement: the request goes back to the requester.
    await openToEvaluate(authoriser, 'persona', id, lang);
    await shot(authoriser, 'worker-evaluation-es');
    const observed = (await authoriser
      .locator('.requirement-item[data-kind="S"][data-type="file"] .evaluation')
      .first()
      .getAttribute('data-evaluate')) as string;
    await authoriser.locator(`[data-preview="${observed}"]`).click();
    await authoriser.locator('[data-testid="pdf-pages"] canvas').first().waitFor();
    await shot(authoriser, 'pdf-preview-es');
    await authoriser.keyboard.press('Escape');
    await setLine(authoriser, observed, 'O', 'Constancia ilegible');
    await authoriser.locator('[data-action="OBSERVAR"]').click();
    await authoriser.waitForURL(/\/movilizacion\/autorizador\/persona\?/);

    // The requester sees the observation in red, replaces the file and sends again.
    await go(requester, `/movilizacion/solicitante/persona/${id}`, lang);
    await requester.locator('[data-testid="request-form"][data-status="O"]').waitFor();
    // It opens on the requirements, the observation in view.
    await requester.locator('[data-step="requirements"][aria-selected="true"]').waitFor();
    const note = requester.locator(`.requirement-item[data-item="${observed}"] .line-observation`);
    expect(await note.textContent()).toBe('CONSTANCIA ILEGIBLE');
    await expect
      .poll(() =>
        note.evaluate((el) => {
          const box = el.getBoundingClientRect();
          return box.top >= 0 && box.bottom <= window.innerHeight;
        }),
      )
      .toBe(true);
    // Finalise names what is still to correct, and Send waits for it.
    await requester.locator('[data-step="finalise"]').click();
    const uncorrected = requester.getByTestId('uncorrected');
    expect(await uncorrected.textContent()).toContain('CONSTANCIA ILEGIBLE');
    expect(await requester.getByText(es.accreditation.form.ready).count()).toBe(0);
    expect(await requester.getByTestId('send-request').getAttribute('aria-disabled')).toBe('true');
    await requester.locator('[data-step="requirements"]').click();
    const [red, green, blue] =
      (await note.evaluate((el) => getComputedStyle(el).color)).match(/\d+/g)?.map(Number) ?? [];
    expect(red).toBeGreaterThan(150);
    expect(Math.max(green, blue)).toBeLessThan(80);
    await shot(requester, 'worker-observed-es');
    // A file that is no PDF is refused on its own line, not only in a toast.
    await requester.locator(`input[data-attach="${observed}"]`).setInputFiles({
      name: 'constancia.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from('no es un pdf'),
    });
    const refusedFile = requester.locator(`[data-file-problem="${observed}"]`);
    await refusedFile.waitFor();
    expect(await refusedFile.textContent()).toBe(`constancia.txt: ${es.accreditation.files.notPdf}`);
    await requester.locator(`input[data-attach="${observed}"]`).setInputFiles({
      name: 'constancia-corregida.pdf',
      mimeType: 'application/pdf',
      buffer: pdf('Constancia corregida'),
    });
    await expect
      .poll(() =>
        requester.locator(`.requirement-item[data-item="${observed}"]`).getAttribute('data-line-status'),
      )
      .toBe('P');
    expect(await refusedFile.count()).toBe(0);
    await requester.locator('[data-step="finalise"]').click();
    await requester.getByText(es.accreditation.form.ready).waitFor();
    expect(await requester.getByTestId('uncorrected').count()).toBe(0);
    expect(await requester.getByTestId('send-request').getAttribute('aria-disabled')).toBeNull();
    await sendRequest(requester);

    // The authoriser approves every line, then the request.
    await openToEvaluate(authoriser, 'persona', id, lang);
    await approveAll(authoriser, lang, today);

    // The worker is accredited for the contract and division; both dashboards moved.
    const record = await api(requester, `/api/acreditacionsolicitud/obtenersolicitud?IdSolicitud=${id}`);
    expect(record.EstadoAprobacion).toBe('A');
    await go(requester, '/accreditation', lang);
    await requester.getByText('QUISPE MAMANI ROSA ELENA').first().waitFor();
    await shot(requester, 'accreditations-es');
    const after = await requesterCounts('T', lang);
    expect(after.approved).toBe(before.approved + 1);
    expect(after.pending).toBe(before.pending);
    const authorisedAfter = await authoriserCounts('T', lang);
    expect(authorisedAfter.approved).toBe(authorisedBefore.approved + 1);
    await shot(requester, 'requester-dashboard-after-es');
  }, 240_000);

  it('accredits a vehicle through the same engine (English)', async () => {
    const lang = 'en';
    const before = await requesterCounts('V', lang);
    await go(requester, '/movilizacion/solicitante/vehiculo/nueva', lang);
    await requester.locator('#general_IdContrato').waitFor();
    await choose(requester, 'general_IdContrato', 'CT-2026');
    await choose(requester, 'general_IdPerfilAcreditacion', 'VEHÍCULO');
    await typeDate(requester, 'general_FechaInicio-label', today);
    await typeDate(requester, 'general_FechaFin-label', addDays(today, 60));
    // The second step names what it holds: the vehicle, not a person.
    expect(await requester.locator('[data-step="personal"]').textContent()).toBe('2. Vehicle data');
    await button(requester, /^Next/).click();
    await requester.locator('#personal_Placa').fill('bxk-482');
    await choose(requester, 'personal_IdTipoVehiculo', /CAMIONETA/);
    await choose(requester, 'personal_IdMarca', 'TOYOTA');
    await requester.locator('#personal_Serie').fill('8AJFB3CD5R7654321');
    await select(requester, 'personal_ModoMarcacion', /.+/);
    await shot(requester, 'vehicle-personal-en');
    await button(requester, /Save and continue/).click();
    await requester.waitForURL(/\/movilizacion\/solicitante\/vehiculo\/\d+$/);
    const id = Number(requester.url().split('/').pop());
    await fillRequirements(requester, today);
    await shot(requester, 'vehicle-requirements-en');
    await saveAndReopen(requester, id, 'Request saved.');
    await sendRequest(requester);

    await openToEvaluate(authoriser, 'vehiculo', id, lang);
    await shot(authoriser, 'vehicle-evaluation-en');
    await approveAll(authoriser, lang, today);
    expect(
      (await api(requester, `/api/acreditacionsolicitud/obtenersolicitud?IdSolicitud=${id}`))
        .EstadoAprobacion,
    ).toBe('A');
    const after = await requesterCounts('V', lang);
    expect(after.approved).toBe(before.approved + 1);
    await shot(requester, 'requester-dashboard-en');
  }, 180_000);

  it('fills in a registered worker’s data as soon as the document is typed (Spanish)', async () => {
    const token = await requester.evaluate(
      () => JSON.parse(localStorage.getItem('acreditacion.auth') ?? '{}').accessToken,
    );
    const res = await fetch(`${server.url}/api/rest/person?range=[0,49]`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const known = ((await res.json()) as Data[]).find((p) => /^\d{8}$/.test(String(p.Documento)));
    expect(known).toBeDefined();
    await go(requester, '/movilizacion/solicitante/persona/nueva', 'es');
    await requester.locator('#general_IdContrato').waitFor();
    await choose(requester, 'general_IdContrato', 'CT-2026');
    await choose(requester, 'general_IdPerfilAcreditacion', 'TRABAJADOR');
    await typeDate(requester, 'general_FechaInicio-label', today);
    await typeDate(requester, 'general_FechaFin-label', addDays(today, 30));
    await button(requester, /^Siguiente/).click();
    await choose(requester, 'personal_IdTipoDocumento', 'DNI');
    await requester.locator('#personal_Documento').fill(String(known?.Documento));
    await expect
      .poll(() => requester.locator('[data-testid="known-holder"]').textContent(), { timeout: 10_000 })
      .toMatch(/Trabajador registrado/);
    expect(await requester.locator('#personal_Nombre').inputValue()).toBe(String(known?.Nombre));
    expect(await requester.locator('#personal_Apellido').inputValue()).toBe(String(known?.Apellido));
    await shot(requester, 'known-worker-es');
  }, 90_000);

  it('accredits a visit with its visitors through the same engine (Spanish)', async () => {
    const lang = 'es';
    const before = await requesterCounts('P', lang);
    await go(requester, '/movilizacion/solicitante/visita/nueva', lang);
    await requester.locator('#general_IdContrato').waitFor();
    await choose(requester, 'general_IdContrato', 'CT-2026');
    await choose(requester, 'general_IdPerfilAcreditacion', 'VISITA');
    await typeDate(requester, 'general_FechaInicio-label', today);
    await typeDate(requester, 'general_FechaFin-label', addDays(today, 2));
    await requester.locator('#general_MotivoVisita').fill('Auditoría de seguridad');
    await button(requester, /Siguiente/).click();
    // A visit needs a visitor: Next refuses without one.
    await button(requester, /Guardar y continuar/).click();
    await requester.getByText('Corrija los datos marcados antes de continuar.').waitFor();
    for (const [index, doc, last, first] of [
      [0, '45871236', 'Rojas Pinto', 'Ana'],
      [1, '46921357', 'Salas Vera', 'Jorge'],
    ] as const) {
      await requester.locator('[data-testid="add-visitor"]').click();
      await choose(requester, `visitor${index}_IdTipoDocumento`, 'DNI');
      await requester.locator(`#visitor${index}_Documento`).fill(doc);
      await requester.locator(`#visitor${index}_Apellido`).fill(last);
      await requester.locator(`#visitor${index}_Nombre`).fill(first);
    }
    await shot(requester, 'visit-visitors-es');
    await button(requester, /Guardar y continuar/).click();
    await requester.waitForURL(/\/movilizacion\/solicitante\/visita\/\d+$/);
    const id = Number(requester.url().split('/').pop());
    await fillRequirements(requester, today);
    await shot(requester, 'visit-requirements-es');
    await saveAndReopen(requester, id, 'Solicitud guardada.');
    await sendRequest(requester);

    await openToEvaluate(authoriser, 'visita', id, lang);
    await approveAll(authoriser, lang, today);
    expect(
      (await api(requester, `/api/acreditacionsolicitud/obtenersolicitud?IdSolicitud=${id}`))
        .EstadoAprobacion,
    ).toBe('A');
    const after = await requesterCounts('P', lang);
    expect(after.approved).toBe(before.approved + 1);
    expect(problems).toEqual([]);
  }, 180_000);

  it('flags an observed request past its correction deadline on both dashboards, and leads to it (Spanish)', async () => {
    await go(requester, '/dashboard', 'es');
    // The demo's observed vehicle request of the requester's company lapsed months ago.
    const flags = requester.locator('[data-entity="V"] [data-overdue]');
    await expect.poll(() => flags.count()).toBe(1);
    const flag = flags.first();
    // Made in the card's months, it is one of the card's Observed; made in others, it says so.
    const ofOthers = (await flag.getAttribute('data-overdue')) === 'V-other';
    expect(await flag.innerText()).toMatch(
      ofOthers
        ? /1 observada de otros meses con plazo de corrección vencido/
        : /1 observada con plazo de corrección vencido/,
    );
    const observed = Number(await requester.locator('[data-entity="V"] [data-count="O"]').innerText());
    expect(observed).toBeGreaterThanOrEqual(ofOthers ? 0 : 1);
    await shot(requester, 'dashboard-overdue-es');
    await flag.getByRole('link', { name: 'Ver' }).click();
    await requester.waitForURL(/\/movilizacion\/solicitante\/vehiculo\?.*estado=O/);
    const rows = requester.locator('[data-testid="request-grid"] tbody tr');
    await expect.poll(() => rows.count()).toBe(1);
    await rows.first().click();
    await requester.waitForURL(/\/movilizacion\/solicitante\/vehiculo\/\d+$/);
    await requester.locator('[data-step="requirements"]').click();
    const deadline = requester.locator('.line-deadline[data-overdue="S"]');
    await expect.poll(() => deadline.count()).toBeGreaterThan(0);
    expect(await deadline.first().innerText()).toMatch(/^Plazo de corrección vencido el \d\d\/\d\d\/\d{4}$/);

    await go(authoriser, '/dashboard', 'es');
    await expect.poll(() => authoriser.locator('[data-overdue]').count()).toBeGreaterThan(0);
    expect(problems).toEqual([]);
  }, 120_000);
});
