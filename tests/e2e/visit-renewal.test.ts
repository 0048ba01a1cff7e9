import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, siteDate } from '../../src/shared/dates.js';
import { multipart, pdf, valuesFor } from '../support/accreditation.js';
import { launchBrowser, PHONE } from '../support/browser.js';
import { signedInPage } from '../support/console.js';
import { approveAll, asUser, button, fillRequirements, sendRequest } from '../support/request-screens.js';
import { type RunningServer, startRealServer } from '../support/server.js';

// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON
type Json = any;
const SOUTH = 'UNIDAD MINERA SAN GABRIEL';
const BASE = '/api/acreditacionsolicitud';
const today = siteDate('PE');

/**
 * A visit's requirement update through the screens: a visit of one visitor accredited through the
 * calls; the requester (Spanish, desktop) picks the visitor and a requirement it holds on the
 * visits' requirement update screen, fills and sends it; the authoriser (English, phone) finds it
 * on its visits' requirement update screen and approves it on the evaluation page.
 */
describe('a visit’s requirement update in a real browser', () => {
  let server: RunningServer;
  let browser: Browser;
  let requester: Page;
  let authoriser: Page;
  const problems: string[] = [];
  const { api, go } = asUser(() => server.url);

  beforeAll(async () => {
    server = await startRealServer();
    browser = await launchBrowser();
    requester = await signedInPage(browser, server.url, 'SOLICITANTE', problems, {
      division: SOUTH,
      context: { viewport: { width: 1400, height: 900 } },
    });
    authoriser = await signedInPage(browser, server.url, 'AUTORIZADOR', problems, {
      division: SOUTH,
      context: PHONE,
    });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  /** A visit of one visitor filed, filled, sent and approved through the calls: the visitor's person. */
  const accreditedVisitor = async (document: string) => {
    const contracts = (await api(requester, 'GET', '/api/rest/contract')) as Json[];
    const contract = contracts.find((c) => c.NumeroContrato === 'CT-2026-001').IdContrato;
    const profiles = (await api(requester, 'GET', '/api/rest/accreditation-profile')) as Json[];
    const profile = profiles.find((p) => p.Descripcion === 'VISITA TÉCNICA').IdPerfilAcreditacion;
    const types = (await api(requester, 'GET', '/api/rest/document-type')) as Json[];
    const dni = types.find((d) => d.Alias === 'DNI' && d.IdPais === 'PE').IdTipoDocumento;
    const made = await api(requester, 'POST', `${BASE}/crearsolicitante`, {
      IdEntidad: 'P',
      IdContrato: contract,
      IdPerfilAcreditacion: profile,
      FechaInicio: today,
      FechaFin: addDays(today, 2),
      MotivoVisita: 'Auditoría de seguridad',
      Visitantes: [{ IdTipoDocumento: dni, Documento: document, Apellido: 'Céspedes Ríos', Nombre: 'Ana' }],
    });
    const id = made.IdSolicitud as number;
    expect(id, JSON.stringify(made)).toBeTypeOf('number');
    const [items, , , lists] = await api(
      requester,
      'GET',
      `/api/acreditacionsolicituddetalle/obtener?IdSolicitud=${id}`,
    );
    await api(requester, 'POST', `${BASE}/actualizarsolicitante`, {
      IdSolicitud: id,
      Detalle: JSON.stringify(valuesFor(items, lists, addDays(today, 30).replaceAll('-', ''))),
    });
    const token = await requester.evaluate(
      () => JSON.parse(localStorage.getItem('acreditacion.auth') ?? '{}').accessToken,
    );
    for (const item of (items as Json[]).filter(
      (i) => i.AdjuntarArchivo === 'S' && i.TipoRequisito === 'S',
    )) {
      const body = multipart(
        { IdSolicitud: id, IdDatoEvaluar: item.IdDatoEvaluar, IdVisitaPersona: item.IdVisitaPersona },
        { name: 'constancia.pdf', bytes: pdf(item.Requisito), type: 'application/pdf' },
      );
      const res = await fetch(`${server.url}${BASE}/UploadSolicitanteArchivo`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, ...body.headers },
        body: body.payload,
      });
      expect(res.status).toBe(200);
    }
    expect(
      (await api(requester, 'POST', `${BASE}/cerrarsolicitud`, { IdSolicitud: id })).EstadoAprobacion,
    ).toBe('P');
    const [requesterItems, authoriserItems] = await api(
      authoriser,
      'GET',
      `/api/acreditacionsolicituddetalle/obtenerbyautorizador?IdSolicitud=${id}`,
    );
    await api(authoriser, 'POST', `${BASE}/actualizarsolicitanteautorizador`, {
      IdSolicitud: id,
      Detalle: (requesterItems as Json[])
        .filter((i) => i.Aprobar === 'S')
        .map((i) => ({ IdDetalle: i.IdSecuencial, EstadoAprobacion: 'A' })),
    });
    const approved = await api(authoriser, 'POST', `${BASE}/actualizarsolicitanteautorizador`, {
      IdSolicitud: id,
      Accion: 'APROBAR',
      Detalle: (authoriserItems as Json[])
        .filter((i) => i.Aprobar === 'S')
        .map((i) => ({ IdDetalle: i.IdSecuencial, EstadoAprobacion: 'A', Valor: 'APROBADO' })),
    });
    expect(approved.EstadoAprobacion, JSON.stringify(approved)).toBe('A');
    return (await api(requester, 'GET', `${BASE}/obtenersolicitud?IdSolicitud=${id}`)).Visitantes[0] as Json;
  };

  it('renews a visitor’s requirement: the requester files it on its screen, the authoriser approves it on a phone', async () => {
    const visitor = await accreditedVisitor('46120001');
    const dashboard = async () =>
      ((await api(requester, 'GET', '/api/acreditacionrequisitosolicitud/dashboard?CantMeses=1')) as Json[])
        .slice(1)
        .flat()
        .find((r: Json) => r.ENTIDAD === 'P' && r.ESTADO === 'P').TOTAL as number;
    const pendingBefore = await dashboard();

    // The requester: the visits' requirement update screen, in Spanish on a desktop.
    await go(requester, '/requisito/solicitante/visita');
    await requester.getByTestId('expiring-counts').waitFor();
    expect(await requester.getByTestId('breadcrumb').textContent()).toMatch(/Actualización de requisitos/);
    await requester.locator('[role="combobox"][aria-labelledby="renewal-holder"]').click();
    await requester.getByRole('option', { name: /\(46120001\)/ }).click();
    await requester.locator('[role="combobox"][aria-labelledby="renewal-requirement"]').click();
    const requirement = requester.getByRole('option').first();
    const name = ((await requirement.textContent()) ?? '').split(' — ')[0];
    await requirement.click();
    await requester.getByRole('listbox').waitFor({ state: 'detached' });
    await requester.screenshot({ path: 'test-results/visit-renewal-requester-es.png' });
    await button(requester, /^Renovar$/).click();
    await requester.waitForURL(/\/requisito\/solicitante\/visita\/\d+$/);
    const id = Number(requester.url().split('/').pop());
    await requester.locator('[data-testid="request-form"][data-status="I"]').waitFor();
    expect(await requester.getByTestId('request-title').textContent()).toBe(
      `Actualización de requisito N.º ${String(id).padStart(8, '0')}`,
    );
    const renews = await requester.getByTestId('renewal-of').textContent();
    expect(renews).toContain(`«${name}»`);
    expect(renews).toContain('CÉSPEDES RÍOS');
    await requester.locator('[data-step="requirements"][aria-selected="true"]').waitFor();
    await fillRequirements(requester, today);
    await requester.locator('[data-testid="save-request"]').click();
    await requester.getByText('Solicitud guardada.', { exact: true }).first().waitFor();
    // The save goes back to the visits' renewals list, which opens it again.
    await requester.waitForURL(/\/requisito\/solicitante\/visita$/);
    await requester.getByRole('link', { name: String(id).padStart(8, '0') }).click();
    await requester.locator('[data-testid="request-form"]').waitFor();
    await sendRequest(requester);
    await requester.getByTestId(`renewal-request-${id}`).waitFor();
    expect(await dashboard()).toBe(pendingBefore + 1);

    // The authoriser: the visits' requirement updates, in English on a phone.
    await go(authoriser, '/requisito/autorizador/visita', 'en');
    const row = authoriser.getByTestId(`renewal-request-${id}`);
    await expect.poll(() => row.locator('[data-column="requirement"]').textContent()).toBe(name);
    await authoriser.screenshot({ path: 'test-results/visit-renewal-authoriser-en-phone.png' });
    await authoriser.getByRole('link', { name: String(id).padStart(8, '0') }).click();
    await authoriser.locator('[data-testid="evaluation"][data-status="P"]').waitFor();
    expect(await authoriser.locator('main').textContent()).toContain('46120001');
    await approveAll(authoriser, 'en', today);
    expect((await api(requester, 'GET', `${BASE}/obtenersolicitud?IdSolicitud=${id}`)).EstadoAprobacion).toBe(
      'A',
    );
    // The renewed value is the visitor's, kept from the renewal.
    const held = (await api(
      requester,
      'GET',
      `/api/acreditacionrequisitosolicitud/requisitosacreditados?IdEntidad=P&IdPersona=${visitor.IdPersona}`,
    )) as Json[];
    expect(held.map((h) => h.Requisito)).toContain(name);
    expect(problems).toEqual([]);
  }, 240_000);
});
