import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from '../../errors.js';
import { field, INT32, objectOf, resultResponses } from '../../routes/responses.js';
import { divisionTimeZone } from '../../site.js';
import { dashboardRoutes, PERIOD } from './dashboard-routes.js';
import { DemobilisationService } from './demobilisation.js';
import { entityParam, REQUEST_COLUMNS, RequestLists, requestQuery } from './lists.js';
import { Notices } from './notices.js';
import { periodOf } from './period.js';
import { RequestService } from './requests.js';
import { authoriserOf, requesterOf, viewerOf } from './roles.js';
import { acceptMultipart, checkPdf, UPLOAD_LIMIT_BYTES, uploadedFiles } from './uploads.js';

type Query = Record<string, unknown>;
const result = (description: string) => resultResponses(description, [400, 401, 403, 404, 409]);
const id = field.id();
const entity = { type: 'string', enum: ['T', 'V'] };
const statusEnum = { type: 'string', enum: ['P', 'O', 'R', 'A'] };
const months = PERIOD;
const grid = {
  skip: field.integer(0, INT32.max),
  take: field.integer(1, 1000),
  sort: field.text(500),
  filter: field.text(5000),
  IdEntidad: entity,
  EstadoAprobacion: statusEnum,
  IdContrato: id,
  IdCompaniaContratista: id,
};
const ids = { type: 'array', items: id, maxItems: 500 };
const evaluation = {
  Accion: { type: 'string', enum: ['APROBAR', 'OBSERVAR', 'RECHAZAR'] },
  Observacion: field.text(500),
  MotivoRechazo: field.text(500),
};

/**
 * The demobilisation calls of spec section 7 (/api/acreditaciondesmovilizacion/*), answering
 * inside `result`: the requester's (candidates, make, list, export, dashboard, delete) and the
 * authoriser's (read, evaluate one or many, dashboard).
 */
export default async function demobilisationRoutes(fastify: FastifyInstance): Promise<void> {
  const { database, registry, crud } = fastify;
  const db = database.db;
  const notices = new Notices(db, registry, fastify.notifier, fastify.log);
  const now = () => fastify.auth.now();
  const requests = new RequestService(database, registry, crud, fastify.files, notices, now);
  const service = new DemobilisationService(database, registry, crud, requests, notices, now);
  const lists = new RequestLists(database, registry);
  const tags = ['accreditation'];
  const base = '/acreditaciondesmovilizacion';
  await fastify.register(multipart, { limits: { fileSize: UPLOAD_LIMIT_BYTES, files: 1, fields: 20 } });

  /** Demobilisation is for workers and vehicles (spec section 2): a visit's kind is refused. */
  const kindOf = (value: unknown) => {
    if (value === 'P') throw new ApiError('FORBIDDEN');
    return entityParam(value);
  };
  const viewer = (request: FastifyRequest, kind?: unknown) => viewerOf(db, registry, request.principal, kind);
  const listOf = async (q: Query, request: FastifyRequest) => {
    const who = await viewer(request, kindOf(q.IdEntidad));
    const scoped = { ...who, entities: who.entities.filter((e) => e !== 'P') };
    const spans =
      q.CantMeses !== undefined || q.CantMonth !== undefined || q.CantYear !== undefined
        ? periodOf(q, now())
        : undefined;
    return lists.list(scoped, requestQuery(q, spans, 'D'));
  };

  fastify.get(
    `${base}/configuracion`,
    {
      schema: {
        tags,
        summary: 'What the demobilisation screens offer the session',
        response: result('{ Entidades, ObservacionObligatoria, Estados }'),
      },
    },
    async (request) => {
      const who = await viewer(request);
      return {
        result: {
          Entidades: who.entities.filter((e) => e !== 'P'),
          ObservacionObligatoria: true,
          Estados: ['P', 'O', 'R', 'A'],
          Rol: 'companyId' in who ? 'SOLICITANTE' : 'AUTORIZADOR',
        },
      };
    },
  );

  fastify.post<{ Body: Query }>(
    `${base}/filtrarNuevoSolicitante`,
    {
      schema: {
        tags,
        summary: 'The accredited workers or vehicles of a contract the requester may demobilise',
        description:
          'Active or suspended accreditations of the requester’s company in the session’s division, of the kind asked, with no demobilisation open. No row for the contract is an error (spec section 5).',
        body: objectOf({ IdEntidad: entity, IdContrato: id }, ['IdEntidad']),
        response: result(
          '[{ IdAcreditacion, IdPersona or IdVehiculo, Documento, Apellido, Nombre or Placa, … }]',
        ),
      },
    },
    async (request) => {
      const kind = request.body.IdEntidad as 'T' | 'V';
      const requester = requesterOf(request.principal, kind);
      const contract = request.body.IdContrato === undefined ? undefined : Number(request.body.IdContrato);
      const rows = await service.candidates(requester, kind, contract);
      if (!rows.length && contract !== undefined)
        throw new ApiError('BUSINESS_RULE', { messageKey: 'demobilisation.refusals.noWorkers' });
      return { result: rows };
    },
  );

  fastify.post<{ Body: Query }>(
    `${base}/crear`,
    {
      schema: {
        tags,
        summary: 'Demobilise one or several accredited workers or vehicles',
        description:
          'Acreditaciones: the ids of the accreditations to end (one: individual; several: mass), Observacion (required), FechaDesmovilizacion (today or later, within the accreditation; today by default). One request per row, sent at once (P). All or nothing: refused rows are named in errors as Acreditaciones.<index>. JSON, or multipart with the same fields (Acreditaciones as a JSON array) and optionally one PDF (a letter; no larger than SIZEMAXPDFUPLOAD MB) that every request carries (downloadFileBase64).',
        consumes: ['application/json', 'multipart/form-data'],
        body: {
          type: 'object',
          properties: {
            IdEntidad: entity,
            IdAcreditacion: id,
            Acreditaciones: ids,
            Observacion: field.text(500),
            FechaDesmovilizacion: field.text(10),
          },
        },
        response: result('{ Solicitudes: [{ IdSolicitud, IdAcreditacion, EstadoAprobacion }] }'),
      },
      // A requester's only, with at most its one letter.
      preValidation: acceptMultipart({ allowed: (principal) => requesterOf(principal), files: 1 }),
    },
    async (request) => {
      const requester = requesterOf(request.principal, kindOf(request.body?.IdEntidad));
      const [file] = Object.values(uploadedFiles(request));
      const attachment = file
        ? await checkPdf(db, registry, request.principal, { fields: {}, file }).then(async (pdf) => ({
            ClaveArchivo: await fastify.files.put(pdf.bytes),
            NombreArchivo: pdf.name.slice(0, 200),
            TipoArchivo: pdf.mime,
          }))
        : undefined;
      return { result: await service.create(requester, request.body ?? {}, attachment) };
    },
  );

  fastify.get<{ Querystring: { IdSolicitud?: number } }>(
    `${base}/downloadFileBase64`,
    {
      schema: {
        tags,
        summary: 'The file a demobilisation carries, base64',
        querystring: objectOf({ IdSolicitud: id }, ['IdSolicitud']),
        response: result('{ file, name, type }'),
      },
    },
    async (request) => {
      const stored = await service.read(await viewer(request), request.query.IdSolicitud);
      const bytes = stored.ClaveArchivo ? await fastify.files.get(String(stored.ClaveArchivo)) : undefined;
      if (!bytes) throw new ApiError('NOT_FOUND', { messageKey: 'ACCREDITATION.REQUEST.NOTFILE' });
      return {
        result: { file: bytes.toString('base64'), name: stored.NombreArchivo, type: stored.TipoArchivo },
      };
    },
  );

  fastify.post<{ Body: Query }>(
    `${base}/FiltrarSolicitante`,
    {
      schema: {
        tags,
        summary: 'The demobilisations the session may see (grid list)',
        description: `Columns: ${REQUEST_COLUMNS.join(', ')}.`,
        body: objectOf({ ...grid, ...months }),
        response: result('{ data, totalCount, totalPages }'),
      },
    },
    async (request) => ({ result: await listOf(request.body ?? {}, request) }),
  );

  fastify.post<{ Body: Query }>(
    `${base}/exportarExcelSolicitante`,
    {
      schema: {
        tags,
        summary: 'The demobilisations list as an Excel file inside result: { fileBase64, fileName }',
        body: objectOf({ ...grid, Titulo: field.text(100), NombreArchivo: field.text(100) }),
        response: result('{ fileBase64, fileName }'),
      },
    },
    async (request) => {
      const q = request.body ?? {};
      const { data } = await listOf({ ...q, skip: 0, take: 1000 }, request);
      const { requestsWorkbook } = await import('./export.js');
      return {
        result: await requestsWorkbook(
          data,
          request.language,
          q,
          await divisionTimeZone(db, fastify.registry, request.principal.divisionId),
        ),
      };
    },
  );

  fastify.get<{ Querystring: { IdSolicitud?: number } }>(
    `${base}/obtenerbyautorizador`,
    {
      schema: {
        tags,
        summary: 'One demobilisation with its accreditation, history and what its approval revoked',
        querystring: objectOf({ IdSolicitud: id }, ['IdSolicitud']),
        response: result('The request, acreditacion, historial and revocados'),
      },
    },
    async (request) => ({ result: await service.read(await viewer(request), request.query.IdSolicitud) }),
  );

  fastify.post<{ Body: Query }>(
    `${base}/actualizarautorizador`,
    {
      schema: {
        tags,
        summary: 'An authoriser approves, observes or rejects one demobilisation',
        description:
          'Approval ends the accreditation and revokes, in the same transaction, the access assignments, the active credential and the dining categories that hang on it (answered as revocados). Observing and rejecting need Observacion (or MotivoRechazo).',
        body: objectOf({ IdSolicitud: id, ...evaluation }, ['IdSolicitud', 'Accion']),
        response: result('{ IdSolicitud, EstadoAprobacion, revocados }'),
      },
    },
    async (request) => ({
      result: await service.evaluate(await authoriserOf(db, registry, request.principal), request.body ?? {}),
    }),
  );

  fastify.post<{ Body: Query }>(
    `${base}/actualizarautorizadormasivo`,
    {
      schema: {
        tags,
        summary: 'An authoriser gives several demobilisations the same decision, all or nothing',
        description:
          'Solicitudes: the request ids. If any is refused nothing is kept, and errors names each refused row as Solicitudes.<index>.',
        body: objectOf({ Solicitudes: ids, ...evaluation }, ['Solicitudes', 'Accion']),
        response: result('{ Solicitudes: [{ IdSolicitud, EstadoAprobacion, revocados }] }'),
      },
    },
    async (request) => ({
      result: await service.evaluateMany(
        await authoriserOf(db, registry, request.principal),
        request.body ?? {},
      ),
    }),
  );

  fastify.delete<{ Querystring: { IdSolicitud?: number } }>(
    `${base}/eliminar`,
    {
      schema: {
        tags,
        summary: 'Delete an incomplete demobilisation (a sent or answered one stays)',
        querystring: objectOf({ IdSolicitud: id }, ['IdSolicitud']),
        response: result('{ IdSolicitud }'),
      },
    },
    async (request) => ({
      result: await service.remove(requesterOf(request.principal), request.query.IdSolicitud),
    }),
  );

  dashboardRoutes(fastify, { base, kind: 'D', what: 'demobilisation' });
}
