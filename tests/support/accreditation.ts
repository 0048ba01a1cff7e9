/** What the accreditation tests share: the demo's catalogue, multipart uploads, small files. */
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../src/server/db/connection.js';
import type { Registry } from '../../src/server/registry.js';
import { textPdf } from '../../src/server/services/pdf.js';
import { addDays } from '../../src/shared/dates.js';
import { call } from './app.js';

// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON
type Json = any;

/** A real PDF of a few hundred bytes. */
export const pdf = (title = 'CONSTANCIA') => textPdf(title, ['Documento de prueba']);

/** A PNG of the given size: a valid header (its dimensions) and an empty image body. */
export function png(width: number, height: number): Buffer {
  const bytes = Buffer.alloc(64);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(bytes, 0);
  bytes.writeUInt32BE(13, 8);
  bytes.write('IHDR', 12, 'ascii');
  bytes.writeUInt32BE(width, 16);
  bytes.writeUInt32BE(height, 20);
  return bytes;
}

/** A multipart body: text fields first, then one file. */
type UploadFile = { name: string; bytes: Buffer; type?: string; field?: string };

export function multipart(fields: Record<string, string | number>, file?: UploadFile | UploadFile[]) {
  const boundary = `----acr${Math.random().toString(16).slice(2)}`;
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields))
    parts.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`),
    );
  for (const one of file === undefined ? [] : Array.isArray(file) ? file : [file])
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${one.field ?? 'file'}"; filename="${one.name}"\r\nContent-Type: ${one.type ?? 'application/octet-stream'}\r\n\r\n`,
      ),
      one.bytes,
      Buffer.from('\r\n'),
    );
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    payload: Buffer.concat(parts),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

export async function upload(
  app: FastifyInstance,
  token: string,
  url: string,
  fields: Record<string, string | number>,
  file?: UploadFile | UploadFile[],
  method: 'POST' | 'PUT' = 'POST',
) {
  const body = multipart(fields, file);
  return call(app, { method, url, token, payload: body.payload, headers: body.headers });
}

/** Ids of the demo catalogue a test needs, read through the admin's API. */
export async function catalogue(app: FastifyInstance, admin: string) {
  const list = async (resource: string, filter: object = {}) =>
    (
      await call(app, {
        url: `/api/rest/${resource}?range=${encodeURIComponent('[0,999]')}&filter=${encodeURIComponent(JSON.stringify(filter))}`,
        token: admin,
      })
    ).body as Json[];
  const profiles = await list('accreditation-profile');
  const profile = (name: string) =>
    profiles.find((p) => p.Descripcion === name).IdPerfilAcreditacion as number;
  const documentTypes = await list('document-type');
  return {
    list,
    worker: profile('TRABAJADOR CONTRATISTA'),
    vehicle: profile('VEHÍCULO DE CONTRATISTA'),
    visit: profile('VISITA TÉCNICA'),
    dni: documentTypes.find((d) => d.Alias === 'DNI' && d.IdPais === 'PE').IdTipoDocumento as number,
  };
}

/** The values every requester-type datum of a request takes: a valid value by type. */
export function valuesFor(items: Json[], lists: Json[], expiry: string): Json[] {
  return items
    .filter(
      (item) =>
        item.TipoRequisito === 'S' &&
        item.Tipo !== 'G' &&
        !(item.AdjuntarArchivo === 'S' && item.DatoOpcional === 'S'),
    )
    .map((item) => ({
      IdDatoEvaluar: item.IdDatoEvaluar,
      IdVisitaPersona: item.IdVisitaPersona ?? undefined,
      Valor:
        item.Tipo === 'F'
          ? expiry
          : item.Tipo === 'L'
            ? lists.find((l) => l.IdDatoEvaluar === item.IdDatoEvaluar)?.IdDato
            : item.Tipo === 'B'
              ? 'S'
              : item.Tipo === 'N'
                ? '2'
                : `VAL-${item.IdDatoEvaluar}`,
    }));
}

const visitorOf = (item: Json): Record<string, number> =>
  item.IdVisitaPersona ? { IdVisitaPersona: item.IdVisitaPersona } : {};

/**
 * A visit of one visitor (document `document`) on `contract` for `days` days from `today`, filled
 * (values expiring on `expiry`, yyyy-mm-dd, and PDFs), sent by `requester` and approved whole by
 * `authoriser`: answers the visit's request and the person its approval registered.
 */
export async function accreditedVisitor(
  app: FastifyInstance,
  tokens: { requester: string; authoriser: string },
  visit: { contract: number; profile: number; dni: number; document: string; today: string; expiry: string },
): Promise<{ IdSolicitud: number; IdPersona: number }> {
  const as = (who: 'requester' | 'authoriser', method: 'GET' | 'POST', url: string, payload?: object) =>
    call(app, { method, url, token: tokens[who], payload });
  const BASE = '/api/acreditacionsolicitud';
  const made = await as('requester', 'POST', `${BASE}/crearsolicitante`, {
    IdEntidad: 'P',
    IdContrato: visit.contract,
    IdPerfilAcreditacion: visit.profile,
    FechaInicio: visit.today,
    FechaFin: addDays(visit.today, 2),
    MotivoVisita: 'Auditoría de seguridad',
    Visitantes: [
      { IdTipoDocumento: visit.dni, Documento: visit.document, Apellido: 'Ramos Díaz', Nombre: 'Carla' },
    ],
  });
  if (made.status !== 200) throw new Error(`the visit was not made: ${JSON.stringify(made.body)}`);
  const id = made.body.result.IdSolicitud as number;
  const detail = async (who: 'requester' | 'authoriser') =>
    (
      await as(
        who,
        'GET',
        `/api/acreditacionsolicituddetalle/${who === 'requester' ? 'obtener' : 'obtenerbyautorizador'}?IdSolicitud=${id}`,
      )
    ).body.result as Json[][];
  const [items, , , lists] = await detail('requester');
  const saved = await as('requester', 'POST', `${BASE}/actualizarsolicitante`, {
    IdSolicitud: id,
    Detalle: JSON.stringify(valuesFor(items, lists, visit.expiry.replaceAll('-', ''))),
  });
  if (saved.status !== 200) throw new Error(`the visit was not saved: ${JSON.stringify(saved.body)}`);
  for (const item of items.filter((i: Json) => i.AdjuntarArchivo === 'S' && i.TipoRequisito === 'S')) {
    const res = await upload(
      app,
      tokens.requester,
      `${BASE}/UploadSolicitanteArchivo`,
      { IdSolicitud: id, IdDatoEvaluar: item.IdDatoEvaluar, ...visitorOf(item) },
      { name: 'constancia.pdf', bytes: pdf(item.Requisito), type: 'application/pdf' },
    );
    if (res.status !== 200) throw new Error(`the visit's PDF was refused: ${JSON.stringify(res.body)}`);
  }
  const sent = await as('requester', 'POST', `${BASE}/cerrarsolicitud`, { IdSolicitud: id });
  if (sent.body.result?.EstadoAprobacion !== 'P')
    throw new Error(`the visit was not sent: ${JSON.stringify(sent.body)}`);
  const [requesterItems, authoriserItems] = await detail('authoriser');
  await as('authoriser', 'POST', `${BASE}/actualizarsolicitanteautorizador`, {
    IdSolicitud: id,
    Detalle: requesterItems
      .filter((i: Json) => i.Aprobar === 'S')
      .map((i: Json) => ({ IdDetalle: i.IdSecuencial, EstadoAprobacion: 'A' })),
  });
  const approved = await as('authoriser', 'POST', `${BASE}/actualizarsolicitanteautorizador`, {
    IdSolicitud: id,
    Accion: 'APROBAR',
    Detalle: authoriserItems
      .filter((i: Json) => i.Aprobar === 'S')
      .map((i: Json) => ({ IdDetalle: i.IdSecuencial, EstadoAprobacion: 'A', Valor: 'APROBADO' })),
  });
  if (approved.body.result?.EstadoAprobacion !== 'A')
    throw new Error(`the visit was not approved: ${JSON.stringify(approved.body)}`);
  const record = (await as('requester', 'GET', `${BASE}/obtenersolicitud?IdSolicitud=${id}`)).body.result;
  return { IdSolicitud: id, IdPersona: record.Visitantes[0].IdPersona as number };
}

/**
 * A renewal filled as its requester would (every value of the renewed requirement, its PDFs
 * attached, expiring on `expiry`, yyyy-mm-dd) and sent: answers the items it asked for.
 */
export async function sendRenewal(app: FastifyInstance, token: string, id: number, expiry: string) {
  const as = (method: 'GET' | 'POST', url: string, payload?: object) =>
    call(app, { method, url, token, payload });
  const read = await as('GET', `/api/acreditacionrequisitosolicitud/obtener?IdSolicitud=${id}`);
  if (read.status !== 200) throw new Error(`the renewal ${id} was not read: ${JSON.stringify(read.body)}`);
  const [items, , , lists] = read.body.result.detalle;
  const saved = await as('POST', '/api/acreditacionsolicitud/actualizarsolicitante', {
    IdSolicitud: id,
    Detalle: JSON.stringify(valuesFor(items, lists, expiry.replaceAll('-', ''))),
  });
  if (saved.status !== 200) throw new Error(`the renewal ${id} was not saved: ${JSON.stringify(saved.body)}`);
  for (const item of items.filter((i: Json) => i.AdjuntarArchivo === 'S' && i.TipoRequisito === 'S')) {
    const res = await upload(
      app,
      token,
      '/api/acreditacionsolicitud/UploadSolicitanteArchivo',
      // A visitor's renewal: the line is its visitor's.
      { IdSolicitud: id, IdDatoEvaluar: item.IdDatoEvaluar, ...visitorOf(item) },
      { name: 'sctr.pdf', bytes: pdf('SCTR RENOVADO'), type: 'application/pdf' },
    );
    if (res.status !== 200) throw new Error(`the renewal's PDF was refused: ${JSON.stringify(res.body)}`);
  }
  const sent = await as('POST', '/api/acreditacionsolicitud/cerrarsolicitud', { IdSolicitud: id });
  if (sent.status !== 200 || sent.body.result.EstadoAprobacion !== 'P')
    throw new Error(`the renewal ${id} was not sent: ${JSON.stringify(sent.body)}`);
  return items as Json[];
}

/** A second contract of the company: a copy of contract `id`, numbered with `suffix`; answers its id. */
export async function copyContract(db: Db, registry: Registry, id: number, suffix: string): Promise<number> {
  const table = registry.require('contract').table;
  const source = (await db
    .selectFrom(table)
    .selectAll()
    .where('IdContrato', '=', id)
    .executeTakeFirstOrThrow()) as Json;
  const { IdContrato: _, ...copy } = source;
  const made = (await db
    .insertInto(table)
    .values({ ...copy, NumeroContrato: `${source.NumeroContrato}${suffix}`, Activo: 'S' })
    .returning('IdContrato')
    .executeTakeFirstOrThrow()) as Json;
  return made.IdContrato as number;
}

/**
 * The people a contract (or one unit of it) holds today as its endowment counts them: accredited
 * (active or suspended, not ended) or in an open mobilisation or contract change.
 */
export async function peopleOnContract(
  db: Db,
  registry: Registry,
  contract: number,
  today: string,
  unit?: number,
): Promise<number> {
  const table = (name: string) => registry.require(name).table;
  const accredited = (await db
    .selectFrom(`${table('accreditation')} as a`)
    .innerJoin(`${table('request')} as r`, 'r.IdSolicitud', 'a.IdSolicitud')
    .select('a.IdPersona')
    .where('a.IdContrato', '=', contract)
    .where('a.IdEntidad', '=', 'T')
    .where('a.Estado', 'in', ['A', 'S'])
    .where('a.FechaFin', '>=', today)
    .$if(unit !== undefined, (qb) => qb.where('r.IdUnidadOrganizativa', '=', unit as number))
    .execute()) as Json[];
  const open = (await db
    .selectFrom(table('request'))
    .select('IdPersona')
    .where('IdContrato', '=', contract)
    .where('IdEntidad', '=', 'T')
    .where('TipoSolicitud', 'in', ['M', 'C'])
    .where('EstadoAprobacion', 'in', ['I', 'P', 'O'])
    .$if(unit !== undefined, (qb) => qb.where('IdUnidadOrganizativa', '=', unit as number))
    .execute()) as Json[];
  return new Set([...accredited, ...open].map((r) => r.IdPersona)).size;
}

/**
 * A worker's request filled as its requester would before sending: every requirement's value
 * (expiring on `expiry`, yyyy-mm-dd), a PDF on each line that takes one, and the photo.
 */
export async function fillRequest(app: FastifyInstance, token: string, id: number, expiry: string) {
  const as = (method: 'GET' | 'POST', url: string, payload?: object) =>
    call(app, { method, url, token, payload });
  const [items, , , lists] = (await as('GET', `/api/acreditacionsolicituddetalle/obtener?IdSolicitud=${id}`))
    .body.result;
  await as('POST', '/api/acreditacionsolicitud/actualizarsolicitante', {
    IdSolicitud: id,
    Detalle: JSON.stringify(valuesFor(items, lists, expiry.replaceAll('-', ''))),
  });
  for (const item of items.filter((i: Json) => i.AdjuntarArchivo === 'S' && i.TipoRequisito === 'S'))
    await upload(
      app,
      token,
      '/api/acreditacionsolicitud/UploadSolicitanteArchivo',
      { IdSolicitud: id, IdDatoEvaluar: item.IdDatoEvaluar },
      { name: 'constancia.pdf', bytes: pdf(item.Requisito), type: 'application/pdf' },
    );
  await upload(
    app,
    token,
    '/api/acreditacionsolicitud/crearsolicitantefoto',
    { IdSolicitud: id },
    {
      name: 'foto.png',
      bytes: png(150, 160),
      type: 'image/png',
    },
  );
}

/**
 * A worker's mobilisation as the wizard's first steps send it: on `contract`, from `today` for 30
 * days, a Peruvian worker by DNI; `fields` replace any of it (the document, the names, the dates).
 */
export function workerRequest(
  cat: Awaited<ReturnType<typeof catalogue>>,
  contract: number,
  today: string,
  fields: Record<string, unknown> = {},
) {
  return {
    IdEntidad: 'T',
    IdContrato: contract,
    IdPerfilAcreditacion: cat.worker,
    FechaInicio: today,
    FechaFin: addDays(today, 30),
    IdTipoDocumento: cat.dni,
    Apellido: 'Quispe Mamani',
    Nombre: 'Rosa',
    Sexo: 'F',
    FechaNacimiento: '1990-03-12',
    IdPaisNacimiento: 'PE',
    IdPaisResidencia: 'PE',
    TelefonoMovil: '987111222',
    ...fields,
  };
}
