import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { holdsContract } from '../../../shared/accreditation.js';
import { ApiError } from '../../errors.js';
import { field, objectOf } from '../../routes/responses.js';
import { requesterOf } from '../../services/requester.js';
import { id, kindCalls, result } from './kind-routes.js';
import { entityParam } from './lists.js';
import { viewerOf } from './roles.js';
import { acceptMultipart, checkPdf, UPLOAD_LIMIT_BYTES, uploadedFiles } from './uploads.js';

type Query = Record<string, unknown>;
const entity = { type: 'string', enum: ['T', 'V'] };
const ids = { type: 'array', items: id, maxItems: 500 };

/**
 * The demobilisation calls of spec section 7 (/api/acreditaciondesmovilizacion/*), answering
 * inside `result`: the requester's (candidates, make, list, export, dashboard, delete) and the
 * authoriser's (read, evaluate one or many, dashboard).
 */
export default async function demobilisationRoutes(fastify: FastifyInstance): Promise<void> {
  const { database, registry } = fastify;
  const db = database.db;
  const services = fastify.requests;
  const { changes } = services;
  const tags = ['accreditation'];
  const base = '/acreditaciondesmovilizacion';
  await fastify.register(multipart, { limits: { fileSize: UPLOAD_LIMIT_BYTES, files: 1, fields: 20 } });

  /** Demobilisation is for workers and vehicles (spec section 2): a visit's kind is refused. */
  const kindOf = (value: unknown) => {
    if (value === 'P') throw new ApiError('FORBIDDEN');
    return entityParam(value);
  };
  const viewer = (request: FastifyRequest, kind?: unknown) => viewerOf(db, registry, request.principal, kind);

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
          Entidades: who.entities.filter(holdsContract),
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
      const rows = await changes.candidates(requester, kind, contract);
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
      return { result: await changes.demobilise(requester, request.body ?? {}, attachment) };
    },
  );

  fastify.get<{ Querystring: { IdSolicitud?: number } }>(
    `${base}/downloadFileBase64`,
    {
      config: { repository: 'D' },
      schema: {
        tags,
        summary: 'The file a demobilisation carries, base64',
        querystring: objectOf({ IdSolicitud: id }, ['IdSolicitud']),
        response: result('{ file, name, type }'),
      },
    },
    async (request) => {
      const stored = await changes.read(await viewer(request), request.query.IdSolicitud, ['D']);
      const bytes = stored.ClaveArchivo ? await fastify.files.get(String(stored.ClaveArchivo)) : undefined;
      if (!bytes) throw new ApiError('NOT_FOUND', { messageKey: 'ACCREDITATION.REQUEST.NOTFILE' });
      return {
        result: { file: bytes.toString('base64'), name: stored.NombreArchivo, type: stored.TipoArchivo },
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
    async (request) => ({
      result: await changes.read(await viewer(request), request.query.IdSolicitud, ['D']),
    }),
  );

  kindCalls(fastify, services, {
    base,
    kind: 'D',
    what: 'demobilisation',
    statuses: ['P', 'O', 'R', 'A'],
    list: { method: 'POST', path: 'FiltrarSolicitante' },
    exportPath: 'exportarExcelSolicitante',
    evaluate: 'actualizarautorizador',
    evaluateMany: 'actualizarautorizadormasivo',
    remove: true,
    dashboard: true,
  });
}
