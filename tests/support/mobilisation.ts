import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { addDays } from '../../src/shared/dates.js';
import { pdf, valuesFor } from './accreditation.js';
import { png } from './png.js';
import { asUser } from './request-screens.js';

// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON
type Json = any;

/** A worker a requester mobilises: its document and names. */
export interface NewWorker {
  Documento: string;
  Apellido: string;
  Nombre: string;
}

/**
 * A worker of SERMIPAC mobilised in the south division through the mobilisation flow's calls (the
 * screens of that flow are accreditation.test.ts's) as the signed-in pages' users: the requester
 * asks for it on contract CT-2026-001 from today for ninety days, fills every requirement and its
 * PDFs and the photo, and sends it; the authoriser approves every line and the request. Answers
 * the approved request (with the worker's IdPersona).
 */
export async function mobiliseWorker(
  baseUrl: string,
  pages: { requester: Page; authoriser: Page; admin: Page },
  worker: NewWorker,
  today: string,
): Promise<Json> {
  const { requester, authoriser, admin } = pages;
  const { api } = asUser(() => baseUrl);
  const token = (page: Page) =>
    page.evaluate(() => JSON.parse(localStorage.getItem('acreditacion.auth') ?? '{}').accessToken as string);
  const upload = async (page: Page, path: string, fields: Record<string, number>, file: Json) => {
    const form = new FormData();
    for (const [name, value] of Object.entries(fields)) form.append(name, String(value));
    form.append('file', new Blob([file.bytes], { type: file.type }), file.name);
    const res = await fetch(`${baseUrl}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${await token(page)}` },
      body: form,
    });
    expect(res.status, await res.clone().text()).toBe(200);
  };
  const all = (resource: string) =>
    api(admin, 'GET', `/api/rest/${resource}?range=${encodeURIComponent('[0,999]')}`);

  const contract = (await all('contract')).find((c: Json) => c.NumeroContrato === 'CT-2026-001');
  const profile = (await all('accreditation-profile')).find(
    (p: Json) => p.Descripcion === 'TRABAJADOR CONTRATISTA',
  );
  const dni = (await all('document-type')).find((d: Json) => d.Alias === 'DNI' && d.IdPais === 'PE');
  const made = await api(requester, 'POST', '/api/acreditacionsolicitud/crearsolicitante', {
    IdEntidad: 'T',
    IdContrato: contract.IdContrato,
    IdPerfilAcreditacion: profile.IdPerfilAcreditacion,
    FechaInicio: today,
    FechaFin: addDays(today, 90),
    IdTipoDocumento: dni.IdTipoDocumento,
    ...worker,
    Sexo: 'M',
    FechaNacimiento: '1988-03-09',
    IdPaisNacimiento: 'PE',
    IdPaisResidencia: 'PE',
    TelefonoMovil: '951478236',
  });
  const id = made.IdSolicitud as number;
  expect(id, JSON.stringify(made)).toBeGreaterThan(0);
  const [items, , , lists] = await api(
    requester,
    'GET',
    `/api/acreditacionsolicituddetalle/obtener?IdSolicitud=${id}`,
  );
  await api(requester, 'POST', '/api/acreditacionsolicitud/actualizarsolicitante', {
    IdSolicitud: id,
    Detalle: JSON.stringify(valuesFor(items, lists, addDays(today, 200).replaceAll('-', ''))),
  });
  for (const item of items.filter((i: Json) => i.AdjuntarArchivo === 'S' && i.TipoRequisito === 'S'))
    await upload(
      requester,
      '/api/acreditacionsolicitud/UploadSolicitanteArchivo',
      { IdSolicitud: id, IdDatoEvaluar: item.IdDatoEvaluar },
      { bytes: pdf(item.Requisito), type: 'application/pdf', name: 'constancia.pdf' },
    );
  await upload(
    requester,
    '/api/acreditacionsolicitud/crearsolicitantefoto',
    { IdSolicitud: id },
    { bytes: png(150, 160), type: 'image/png', name: 'foto.png' },
  );
  expect(
    (await api(requester, 'POST', '/api/acreditacionsolicitud/cerrarsolicitud', { IdSolicitud: id }))
      .EstadoAprobacion,
  ).toBe('P');
  const [mine, theirs] = await api(
    authoriser,
    'GET',
    `/api/acreditacionsolicituddetalle/obtenerbyautorizador?IdSolicitud=${id}`,
  );
  for (const [lines, action] of [
    [mine, undefined],
    [theirs, 'APROBAR'],
  ] as const)
    await api(authoriser, 'POST', '/api/acreditacionsolicitud/actualizarsolicitanteautorizador', {
      IdSolicitud: id,
      Accion: action,
      Detalle: lines
        .filter((i: Json) => i.Aprobar === 'S')
        .map((i: Json) => ({ IdDetalle: i.IdSecuencial, EstadoAprobacion: 'A', Valor: 'APROBADO' })),
    });
  const record = await api(requester, 'GET', `/api/acreditacionsolicitud/obtenersolicitud?IdSolicitud=${id}`);
  expect(record.EstadoAprobacion).toBe('A');
  return record;
}
