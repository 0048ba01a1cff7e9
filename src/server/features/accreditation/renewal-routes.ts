import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from '../../errors.js';
import { field, INT32, objectOf, resultResponses } from '../../routes/responses.js';
import { divisionTimeZone } from '../../site.js';
import { dashboardRoutes, PERIOD } from './dashboard-routes.js';
import { entityParam, REQUEST_COLUMNS, RequestLists, requestQuery } from './lists.js';
import { Notices } from './notices.js';
import { periodOf } from './period.js';
import { RenewalService } from './renewal.js';
import { RequestService } from './requests.js';
import { authoriserOf, requesterOf, viewerOf } from './roles.js';
import { acceptMultipart, checkPdf, UPLOAD_LIMIT_BYTES, uploadedFiles } from './uploads.js';
import { RequestViews } from './views.js';

type Query = Record<string, unknown>;
const result = (description: string) => resultResponses(description, [400, 401, 403, 404, 409]);
const id = field.id();
/** The most files one renewal may carry: one for each datum of the requirement renewed. */
const RENEWAL_FILES = 10;
const entity = { type: 'string', enum: ['T', 'V'] };
const months = PERIOD;
const listQuery = objectOf({
  skip: field.integer(0, INT32.max),
  take: field.integer(1, 1000),
  sort: field.text(500),
  filter: field.text(5000),
  IdEntidad: entity,
  EstadoAprobacion: { type: 'string', enum: ['I', 'P', 'O', 'R', 'A'] },
  IdCompaniaContratista: id,
  IdContrato: id,
  ...months,
});

/**
 * The requirement update (renewal) calls of spec section 7 (/api/acreditacionrequisitosolicitud/*),
 * answering inside `result`. Files are attached and the request is sent with the request calls
 * (/api/acreditacionsolicitud/UploadSolicitanteArchivo, cerrarsolicitud), as for a mobilisation.
 */
export default async function renewalRoutes(fastify: FastifyInstance): Promise<void> {
  const { database, registry, crud } = fastify;
  const db = database.db;
  const now = () => fastify.auth.now();
  const notices = new Notices(db, registry, fastify.notifier, fastify.log);
  const requests = new RequestService(database, registry, crud, fastify.files, notices, now);
  const service = new RenewalService(database, registry, requests, now);
  const views = new RequestViews(db, registry, requests);
  const lists = new RequestLists(database, registry);
  const tags = ['accreditation'];
  const base = '/acreditacionrequisitosolicitud';
  await fastify.register(multipart, {
    limits: { fileSize: UPLOAD_LIMIT_BYTES, files: RENEWAL_FILES, fields: 20 },
  });

  const viewer = (request: FastifyRequest, kind?: unknown) => {
    if (kind === 'P') throw new ApiError('FORBIDDEN');
    return viewerOf(db, registry, request.principal, kind);
  };
  const listOf = async (q: Query, request: FastifyRequest) => {
    const who = await viewer(request, entityParam(q.IdEntidad));
    const scoped = { ...who, entities: who.entities.filter((e) => e !== 'P') };
    const spans =
      q.CantMeses !== undefined || q.CantMonth !== undefined || q.CantYear !== undefined
        ? periodOf(q, now())
        : undefined;
    return lists.list(scoped, requestQuery(q, spans, 'A'));
  };

  fastify.get<{ Querystring: { IdEntidad?: string; IdPersona?: number; IdVehiculo?: number } }>(
    `${base}/requisitosacreditados`,
    {
      schema: {
        tags,
        summary: 'The requirements an accredited worker or vehicle of the requester’s company holds',
        querystring: objectOf({ IdEntidad: entity, IdPersona: id, IdVehiculo: id }, ['IdEntidad']),
        response: result('[{ IdRequisito, Requisito, Obligatorio, FechaVencimiento }]'),
      },
    },
    async (request) => {
      const kind = request.query.IdEntidad as 'T' | 'V';
      const holder = Number(kind === 'T' ? request.query.IdPersona : request.query.IdVehiculo);
      if (!holder)
        throw new ApiError('BAD_QUERY', { params: { parameter: kind === 'T' ? 'IdPersona' : 'IdVehiculo' } });
      return { result: await service.held(requesterOf(request.principal, kind), kind, holder) };
    },
  );

  fastify.post<{ Body: Query }>(
    `${base}/crear`,
    {
      schema: {
        tags,
        summary: 'Request the renewal of one requirement of an accredited worker or vehicle',
        description:
          'IdEntidad (T, V), IdPersona or IdVehiculo, IdRequisito (one the holder holds), Detalle: [{ IdDatoEvaluar, Valor }] (a JSON string or an array), Observacion. Made incomplete (I): attach files with /api/acreditacionsolicitud/UploadSolicitanteArchivo and send with cerrarsolicitud. Or multipart: the same fields, and a PDF per datum that takes a file, its field named by the datum (IdDatoEvaluar, or Archivo<IdDatoEvaluar>); a refused file leaves nothing made.',
        consumes: ['application/json', 'multipart/form-data'],
        body: {
          type: 'object',
          properties: {
            IdEntidad: entity,
            IdPersona: id,
            IdVehiculo: id,
            IdRequisito: id,
            Observacion: field.text(500),
          },
          required: ['IdEntidad', 'IdRequisito'],
        },
        response: result('{ IdSolicitud, EstadoAprobacion, SolicitudCompleta }'),
      },
      // A requester's only, with at most a file for each datum of the one requirement renewed.
      preValidation: acceptMultipart({
        allowed: (principal) => requesterOf(principal),
        files: RENEWAL_FILES,
      }),
    },
    async (request) => {
      const requester = requesterOf(request.principal, request.body.IdEntidad);
      // Every file checked before anything is made; then made and attached, or undone.
      const files = [];
      for (const [name, file] of Object.entries(uploadedFiles(request))) {
        const datum = /(\d+)$/.exec(name)?.[1];
        if (!datum)
          throw new ApiError('VALIDATION_FAILED', {
            fields: { [name]: { messageKey: 'accreditation.refusals.unknownDatum' } },
          });
        files.push({ datum, pdf: await checkPdf(db, registry, request.principal, { fields: {}, file }) });
      }
      const made = await service.create(requester, request.body);
      let complete = made.SolicitudCompleta;
      try {
        for (const { datum, pdf } of files)
          complete = (
            await requests.attach(requester, { IdSolicitud: made.IdSolicitud, IdDatoEvaluar: datum }, pdf)
          ).SolicitudCompleta;
      } catch (error) {
        await requests.remove(requester, made.IdSolicitud, 'A');
        throw error;
      }
      return { result: { ...made, SolicitudCompleta: complete } };
    },
  );

  fastify.get<{ Querystring: { IdSolicitud?: number } }>(
    `${base}/obtener`,
    {
      schema: {
        tags,
        summary: 'One renewal with its requirement lines (the requester’s or the authoriser’s view)',
        querystring: objectOf({ IdSolicitud: id }, ['IdSolicitud']),
        response: result('{ solicitud, detalle: [requester items, authoriser items, groups, choices] }'),
      },
    },
    async (request) => {
      const who = await viewer(request);
      const stored = await service.load(who, request.query.IdSolicitud);
      return {
        result: { solicitud: stored, detalle: await views.detail(who, stored.IdSolicitud) },
      };
    },
  );

  fastify.get<{ Querystring: { IdSolicitud?: number; IdFile?: number } }>(
    `${base}/downloadFileBase64`,
    {
      schema: {
        tags,
        summary: 'A renewal line’s file, base64 (IdFile: the line’s IdSecuencial)',
        querystring: objectOf({ IdSolicitud: id, IdFile: id }, ['IdSolicitud', 'IdFile']),
        response: result('{ file, name, type }'),
      },
    },
    async (request) => {
      const who = await viewer(request);
      const stored = await service.load(who, request.query.IdSolicitud);
      return { result: await views.download(who, stored.IdSolicitud, Number(request.query.IdFile)) };
    },
  );

  fastify.post<{ Body: Query }>(
    `${base}/actualizarautorizador`,
    {
      schema: {
        tags,
        summary: 'An authoriser evaluates a renewal: its lines with the approval machine, then the request',
        description:
          'As actualizarsolicitanteautorizador: Detalle [{ IdDetalle, EstadoAprobacion, Observacion }], Accion APROBAR, OBSERVAR, RECHAZAR or DEVOLVER. Approval replaces the kept value and its expiry.',
        body: {
          type: 'object',
          additionalProperties: true,
          properties: { IdSolicitud: id },
          required: ['IdSolicitud'],
        },
        response: result('{ IdSolicitud, EstadoAprobacion }'),
      },
    },
    async (request) => ({
      result: await service.evaluate(await authoriserOf(db, registry, request.principal), request.body),
    }),
  );

  fastify.post<{ Body: Query }>(
    `${base}/actualizarautorizadormasivo`,
    {
      schema: {
        tags,
        summary: 'An authoriser gives several renewals the same decision, all or nothing',
        body: objectOf(
          {
            Solicitudes: { type: 'array', items: id, maxItems: 500 },
            Accion: { type: 'string', enum: ['APROBAR', 'OBSERVAR', 'RECHAZAR'] },
            Observacion: field.text(500),
          },
          ['Solicitudes', 'Accion'],
        ),
        response: result('{ Solicitudes: [{ IdSolicitud, EstadoAprobacion }] }'),
      },
    },
    async (request) => ({
      result: await service.evaluateMany(await authoriserOf(db, registry, request.principal), request.body),
    }),
  );

  fastify.get<{ Querystring: Query }>(
    `${base}/filtrar`,
    {
      schema: {
        tags,
        summary: 'The renewals the session may see (grid list)',
        description: `Columns: ${REQUEST_COLUMNS.join(', ')}.`,
        querystring: listQuery,
        response: result('{ data, totalCount, totalPages }'),
      },
    },
    async (request) => ({ result: await listOf(request.query, request) }),
  );

  fastify.get<{ Querystring: Query }>(
    `${base}/filtrarcompaniadetalle`,
    {
      schema: {
        tags,
        summary: 'One contractor’s renewals',
        querystring: listQuery,
        response: result('{ data, totalCount, totalPages }'),
      },
    },
    async (request) => {
      if (request.query.IdCompaniaContratista === undefined)
        throw new ApiError('BAD_QUERY', { params: { parameter: 'IdCompaniaContratista' } });
      return { result: await listOf(request.query, request) };
    },
  );

  fastify.post<{ Body: Query }>(
    `${base}/exportarExcelAcreditacionRequisitoSolicitud`,
    {
      schema: {
        tags,
        summary: 'The renewals list as an Excel file inside result: { fileBase64, fileName }',
        body: objectOf({
          IdEntidad: entity,
          EstadoAprobacion: { type: 'string', enum: ['I', 'P', 'O', 'R', 'A'] },
          IdCompaniaContratista: id,
          filter: field.text(5000),
          Titulo: field.text(100),
          NombreArchivo: field.text(100),
        }),
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

  fastify.get(
    `${base}/cards`,
    {
      schema: {
        tags,
        summary:
          'Expiring soon, per kind: the company’s accredited holders’ requirement values expired and expiring within their notice days',
        response: result('[{ IdEntidad, VENCIDOS, POR_VENCER, detalle }]'),
      },
    },
    async (request) => ({ result: await service.cards(requesterOf(request.principal)) }),
  );

  fastify.delete<{ Querystring: { IdSolicitud?: number } }>(
    `${base}/eliminar`,
    {
      schema: {
        tags,
        summary: 'Delete an incomplete renewal',
        querystring: objectOf({ IdSolicitud: id }, ['IdSolicitud']),
        response: result('{ IdSolicitud }'),
      },
    },
    async (request) => {
      const requester = requesterOf(request.principal);
      await service.load(requester, request.query.IdSolicitud);
      return { result: await requests.remove(requester, request.query.IdSolicitud, 'A') };
    },
  );

  dashboardRoutes(fastify, { base, kind: 'A', what: 'requirement update' });
}
