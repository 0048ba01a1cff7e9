import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { HOLDER_COLUMN } from '../../../shared/accreditation.js';
import { ApiError } from '../../errors.js';
import { field, objectOf } from '../../routes/responses.js';
import { readOrigin } from '../../services/privacy.js';
import { requesterOf } from '../../services/requester.js';
import { idOf } from './engine/input.js';
import { id, kindCalls, result } from './kind-routes.js';
import { RENEWED_KINDS, type RenewedKind } from './kinds/renewal.js';
import { viewerOf } from './roles.js';
import { acceptMultipart, checkPdf, UPLOAD_LIMIT_BYTES, uploadedFiles } from './uploads.js';

/** The most files one renewal may carry: one for each datum of the requirement renewed. */
const RENEWAL_FILES = 10;
const entity = { type: 'string', enum: [...RENEWED_KINDS] };

/**
 * The requirement update (renewal) calls of spec section 7 (/api/acreditacionrequisitosolicitud/*),
 * answering inside `result`. Files are attached and the request is sent with the request calls
 * (/api/acreditacionsolicitud/UploadSolicitanteArchivo, cerrarsolicitud), as for a mobilisation.
 */
export default async function renewalRoutes(fastify: FastifyInstance): Promise<void> {
  const { database, registry } = fastify;
  const db = database.db;
  const services = fastify.requests;
  const { renewals: service, mobilisations: requests, engine, views } = services;
  const tags = ['accreditation'];
  const base = '/acreditacionrequisitosolicitud';
  await fastify.register(multipart, {
    limits: { fileSize: UPLOAD_LIMIT_BYTES, files: RENEWAL_FILES, fields: 20 },
  });

  const viewer = (request: FastifyRequest, kind?: unknown) => viewerOf(db, registry, request.principal, kind);

  fastify.get<{ Querystring: { IdEntidad: 'T' | 'V' | 'P' } }>(
    `${base}/acreditados`,
    {
      schema: {
        tags,
        summary: 'The accredited workers, vehicles or visitors of the requester’s company it may renew',
        description:
          'Active or suspended accreditations of the kind asked, of the requester’s company, in the session’s division.',
        querystring: objectOf({ IdEntidad: { type: 'string', enum: ['T', 'V', 'P'] } }, ['IdEntidad']),
        response: result(
          '[{ IdAcreditacion, IdPersona or IdVehiculo, Documento, Apellido, Nombre or Placa, NumeroContrato, FechaFin, Estado }]',
        ),
      },
    },
    async (request) => {
      const kind = request.query.IdEntidad;
      return { result: await service.holders(requesterOf(request.principal, kind), kind) };
    },
  );

  fastify.get<{
    Querystring: { IdEntidad?: string; IdPersona?: number; IdVehiculo?: number; IdCompania?: number };
  }>(
    `${base}/requisitosacreditados`,
    {
      schema: {
        tags,
        summary:
          'The requirements an accredited worker, vehicle or visitor of the requester’s company, or the company itself, holds',
        querystring: objectOf({ IdEntidad: entity, IdPersona: id, IdVehiculo: id, IdCompania: id }, [
          'IdEntidad',
        ]),
        response: result('[{ IdRequisito, Requisito, Obligatorio, FechaVencimiento }]'),
      },
    },
    async (request) => {
      const kind = request.query.IdEntidad as RenewedKind;
      const column = HOLDER_COLUMN[kind];
      const holder = Number(request.query[column]);
      if (!holder) throw new ApiError('BAD_QUERY', { params: { parameter: column } });
      return { result: await service.held(requesterOf(request.principal, kind), kind, holder) };
    },
  );

  fastify.post<{ Body: Record<string, unknown> }>(
    `${base}/crear`,
    {
      schema: {
        tags,
        summary:
          'Request the renewal of one requirement of an accredited worker, vehicle, visitor or company',
        description:
          'IdEntidad (T, V, P, E), IdPersona (a worker, or a visit’s visitor for P), IdVehiculo or IdCompania (the requester’s own, for E), IdRequisito (one the holder holds), Detalle: [{ IdDatoEvaluar, Valor }] (a JSON string or an array), Observacion. Made incomplete (I): attach files with /api/acreditacionsolicitud/UploadSolicitanteArchivo and send with cerrarsolicitud. Or multipart: the same fields, and a PDF per datum that takes a file, its field named by the datum (IdDatoEvaluar, or Archivo<IdDatoEvaluar>); a refused file leaves nothing made.',
        consumes: ['application/json', 'multipart/form-data'],
        body: {
          type: 'object',
          properties: {
            IdEntidad: entity,
            IdPersona: id,
            IdVehiculo: id,
            IdCompania: id,
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
        // A visit's renewal carries its one visitor, whose lines take the files.
        const [visitor] = files.length ? await engine.visitors(db, made.IdSolicitud as number) : [];
        for (const { datum, pdf } of files)
          complete = (
            await requests.attach(
              requester,
              {
                IdSolicitud: made.IdSolicitud,
                IdDatoEvaluar: datum,
                IdVisitaPersona: visitor?.IdVisitaPersona,
              },
              pdf,
            )
          ).SolicitudCompleta;
      } catch (error) {
        await engine.remove(requester, made.IdSolicitud, ['A']);
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
      const stored = await engine.load(db, who, idOf(request.query.IdSolicitud, 'IdSolicitud'), false, ['A']);
      return {
        result: {
          solicitud: stored,
          detalle: await views.detail(who, stored.IdSolicitud, readOrigin(request)),
        },
      };
    },
  );

  fastify.get<{ Querystring: { IdSolicitud?: number; IdFile?: number } }>(
    `${base}/downloadFileBase64`,
    {
      config: { repository: 'D' },
      schema: {
        tags,
        summary: 'A renewal line’s file, base64 (IdFile: the line’s IdSecuencial)',
        querystring: objectOf({ IdSolicitud: id, IdFile: id }, ['IdSolicitud', 'IdFile']),
        response: result('{ file, name, type }'),
      },
    },
    async (request) => {
      const who = await viewer(request);
      const stored = await engine.load(db, who, idOf(request.query.IdSolicitud, 'IdSolicitud'), false, ['A']);
      return {
        result: await views.download(
          who,
          stored.IdSolicitud,
          Number(request.query.IdFile),
          readOrigin(request),
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

  kindCalls(fastify, services, {
    base,
    kind: 'A',
    what: 'requirement update',
    list: { method: 'GET', path: 'filtrar', companyPath: 'filtrarcompaniadetalle' },
    exportPath: 'exportarExcelAcreditacionRequisitoSolicitud',
    evaluate: 'actualizarautorizador',
    evaluateMany: 'actualizarautorizadormasivo',
    remove: true,
    dashboard: true,
  });
}
