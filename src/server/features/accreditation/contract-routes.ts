import type { FastifyInstance, FastifyRequest } from 'fastify';
import { field, objectOf } from '../../routes/responses.js';
import { requesterOf } from '../../services/requester.js';
import { id, kindCalls, result } from './kind-routes.js';
import { viewerOf } from './roles.js';

type Query = Record<string, unknown>;
const ids = { type: 'array', items: id, maxItems: 500 };
const kind = { type: 'string', enum: ['E', 'C'] };

/**
 * Contract extension (TipoSolicitud E) and contract change (C) of accredited workers and vehicles
 * (spec section 2, /ampliarcontrato and /cambiocontrato), under /api/acreditacioncontrato: the
 * requester files them (one or several, all or nothing), the authoriser approves, observes or
 * rejects them like a demobilisation; approval moves the accreditation's end, or its contract and
 * end. The spec names no calls for them; these follow the demobilisation's.
 */
export default async function contractRoutes(fastify: FastifyInstance): Promise<void> {
  const { database, registry } = fastify;
  const db = database.db;
  const services = fastify.requests;
  const { changes } = services;
  const tags = ['accreditation'];
  const base = '/acreditacioncontrato';
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
      result: await changes.changeContract(
        requesterOf(request.principal, request.body.IdEntidad),
        request.body,
        'E',
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
      result: await changes.changeContract(
        requesterOf(request.principal, request.body.IdEntidad),
        request.body,
        'C',
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
      result: await changes.read(await viewer(request), request.query.IdSolicitud, [
        request.query.Tipo as 'E' | 'C',
      ]),
    }),
  );

  kindCalls(fastify, services, {
    base,
    kind: 'Tipo',
    what: 'contract extension or change',
    statuses: ['P', 'O', 'R', 'A'],
    list: { method: 'GET', path: 'filtrar' },
    evaluate: 'actualizarautorizador',
    evaluateMany: 'actualizarautorizadormasivo',
  });
}
