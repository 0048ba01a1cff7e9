import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from '../../errors.js';
import { field, INT32, objectOf, resultResponses } from '../../routes/responses.js';
import { DemobilisationService } from './demobilisation.js';
import { entityParam, REQUEST_COLUMNS, RequestLists, requestQuery } from './lists.js';
import { Notices } from './notices.js';
import { RequestService } from './requests.js';
import { authoriserOf, requesterOf, viewerOf } from './roles.js';

type Query = Record<string, unknown>;
const result = (description: string) => resultResponses(description, [400, 401, 403, 404, 409]);
const id = field.id();
const ids = { type: 'array', items: id, maxItems: 500 };
const kind = { type: 'string', enum: ['E', 'C'] };
const evaluation = {
  Accion: { type: 'string', enum: ['APROBAR', 'OBSERVAR', 'RECHAZAR'] },
  Observacion: field.text(500),
  MotivoRechazo: field.text(500),
};

/**
 * Contract extension (TipoSolicitud E) and contract change (C) of accredited workers and vehicles
 * (spec section 2, /ampliarcontrato and /cambiocontrato), under /api/acreditacioncontrato: the
 * requester files them (one or several, all or nothing), the authoriser approves, observes or
 * rejects them like a demobilisation; approval moves the accreditation's end, or its contract and
 * end. The spec names no calls for them; these follow the demobilisation's.
 */
export default async function contractRoutes(fastify: FastifyInstance): Promise<void> {
  const { database, registry, crud } = fastify;
  const db = database.db;
  const now = () => fastify.auth.now();
  const notices = new Notices(db, registry, fastify.notifier, fastify.log);
  const requests = new RequestService(database, registry, crud, fastify.files, notices, now);
  const services = {
    E: new DemobilisationService(database, registry, crud, requests, notices, now, 'E'),
    C: new DemobilisationService(database, registry, crud, requests, notices, now, 'C'),
  };
  const lists = new RequestLists(database, registry);
  const tags = ['accreditation'];
  const base = '/acreditacioncontrato';
  const serviceOf = (value: unknown) => {
    if (value !== 'E' && value !== 'C')
      throw new ApiError('VALIDATION_FAILED', { fields: { Tipo: { messageKey: 'validation.enum' } } });
    return services[value];
  };
  const viewer = (request: FastifyRequest, entity?: unknown) =>
    viewerOf(db, registry, request.principal, entity);
  const body = (extra: Record<string, unknown>, required: string[]) =>
    objectOf(
      {
        IdEntidad: { type: 'string', enum: ['T', 'V'] },
        Acreditaciones: ids,
        IdAcreditacion: id,
        FechaFin: field.text(10),
        Observacion: field.text(500),
        ...extra,
      },
      required,
    );

  fastify.post<{ Body: Query }>(
    `${base}/ampliar`,
    {
      schema: {
        tags,
        summary: 'Extend the accreditation of one or several workers or vehicles (contract extension)',
        description:
          'Acreditaciones, FechaFin: later than the current end, today or later, within the contract. Sent at once (P).',
        body: body({}, ['FechaFin']),
        response: result('{ Solicitudes: [{ IdSolicitud, IdAcreditacion, EstadoAprobacion }] }'),
      },
    },
    async (request) => ({
      result: await services.E.createContractRequest(
        requesterOf(request.principal, request.body.IdEntidad),
        request.body,
      ),
    }),
  );

  fastify.post<{ Body: Query }>(
    `${base}/cambiar`,
    {
      schema: {
        tags,
        summary:
          'Move the accreditation of one or several workers or vehicles to another contract (contract change)',
        description:
          'Acreditaciones, IdContrato (another active contract of the company), FechaFin within it. Sent at once (P).',
        body: body({ IdContrato: id }, ['IdContrato', 'FechaFin']),
        response: result('{ Solicitudes: [{ IdSolicitud, IdAcreditacion, EstadoAprobacion }] }'),
      },
    },
    async (request) => ({
      result: await services.C.createContractRequest(
        requesterOf(request.principal, request.body.IdEntidad),
        request.body,
      ),
    }),
  );

  fastify.get<{ Querystring: { Tipo?: string; IdSolicitud?: number } }>(
    `${base}/obtener`,
    {
      schema: {
        tags,
        summary: 'One contract extension or change with its history',
        querystring: objectOf({ Tipo: kind, IdSolicitud: id }, ['Tipo', 'IdSolicitud']),
        response: result('The request, acreditacion and historial'),
      },
    },
    async (request) => ({
      result: await serviceOf(request.query.Tipo).read(await viewer(request), request.query.IdSolicitud),
    }),
  );

  fastify.post<{ Body: Query }>(
    `${base}/actualizarautorizador`,
    {
      schema: {
        tags,
        summary: 'An authoriser approves, observes or rejects one contract extension or change',
        body: objectOf({ Tipo: kind, IdSolicitud: id, ...evaluation }, ['Tipo', 'IdSolicitud', 'Accion']),
        response: result('{ IdSolicitud, EstadoAprobacion }'),
      },
    },
    async (request) => ({
      result: await serviceOf(request.body.Tipo).evaluate(
        await authoriserOf(db, registry, request.principal),
        request.body,
      ),
    }),
  );

  fastify.post<{ Body: Query }>(
    `${base}/actualizarautorizadormasivo`,
    {
      schema: {
        tags,
        summary:
          'An authoriser gives several contract extensions or changes the same decision, all or nothing',
        body: objectOf({ Tipo: kind, Solicitudes: ids, ...evaluation }, ['Tipo', 'Solicitudes', 'Accion']),
        response: result('{ Solicitudes: [{ IdSolicitud, EstadoAprobacion }] }'),
      },
    },
    async (request) => ({
      result: await serviceOf(request.body.Tipo).evaluateMany(
        await authoriserOf(db, registry, request.principal),
        request.body,
      ),
    }),
  );

  fastify.get<{ Querystring: Query }>(
    `${base}/filtrar`,
    {
      schema: {
        tags,
        summary: 'The contract extensions or changes the session may see (grid list)',
        description: `Columns: ${REQUEST_COLUMNS.join(', ')}.`,
        querystring: objectOf(
          {
            Tipo: kind,
            skip: field.integer(0, INT32.max),
            take: field.integer(1, 1000),
            IdEntidad: { type: 'string', enum: ['T', 'V'] },
            EstadoAprobacion: { type: 'string', enum: ['P', 'O', 'R', 'A'] },
          },
          ['Tipo'],
        ),
        response: result('{ data, totalCount, totalPages }'),
      },
    },
    async (request) => {
      const q = request.query;
      serviceOf(q.Tipo);
      const who = await viewer(request, entityParam(q.IdEntidad));
      return {
        result: await lists.list(
          { ...who, entities: who.entities.filter((e) => e !== 'P') },
          requestQuery(q, undefined, q.Tipo as never),
        ),
      };
    },
  );
}
