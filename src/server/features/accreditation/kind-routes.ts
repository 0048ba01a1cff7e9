import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type EntityCode, requestNumber } from '../../../shared/accreditation.js';
import type { Language } from '../../../shared/constants.js';
import type { DashboardKind } from '../../../shared/request-kinds.js';
import { ApiError } from '../../errors.js';
import { t } from '../../i18n.js';
import { field, INT32, objectOf, resultResponses } from '../../routes/responses.js';
import { requesterOf } from '../../services/requester.js';
import { divisionTimeZone } from '../../site.js';
import { dashboardRoutes, PERIOD } from './dashboard-routes.js';
import { selectionOf } from './engine/input.js';
import { sendRequestsWorkbook } from './export.js';
import { entityParam, REQUEST_COLUMNS, type RequestLists, requestQuery } from './lists.js';
import { periodOf } from './period.js';
import type { RequestServices } from './request-services.js';
import { authoriserOf, viewerOf } from './roles.js';

type Query = Record<string, unknown>;
export const result = (description: string) => resultResponses(description, [400, 401, 403, 404, 409]);
export const id = field.id();
const ids = { type: 'array', items: id, maxItems: 500 };
const tags = ['accreditation'];

/** The calls of one kind of request, at its spec paths (spec section 7); each is optional. */
export interface KindCalls {
  base: string;
  /** The kind the calls handle (its code), or `Tipo`: the pair a `Tipo` field chooses between (extension and change). */
  kind: string;
  /** What the kind is called in the API's documentation. */
  what: string;
  /** The statuses the list filters by. */
  statuses?: readonly string[];
  /** The grid list: GET with a query string, or POST with a body. */
  list?: { method: 'GET' | 'POST'; path: string; companyPath?: string };
  /** The list exported to Excel (every row, streamed). */
  exportPath?: string;
  /** An authoriser's evaluation of one request, and of several. */
  evaluate?: string;
  evaluateMany?: string;
  /** DELETE <base>/eliminar. */
  remove?: boolean;
  /** <base>/dashboard and dashboardAutorizador: the spec's three dashboards' kinds only (M, D, A). */
  dashboard?: boolean;
}

/**
 * Registers the calls every kind of request shares (list, export, evaluation, removal,
 * dashboards), with what differs between kinds (paths, methods, entities, answers) as data.
 */
export function kindCalls(
  fastify: FastifyInstance,
  services: RequestServices & { lists: RequestLists },
  calls: KindCalls,
): void {
  const { database, registry } = fastify;
  const db = database.db;
  const { base, what } = calls;
  const tipo = calls.kind === 'Tipo' ? { Tipo: { type: 'string', enum: ['E', 'C'] } } : {};
  const required = calls.kind === 'Tipo' ? ['Tipo'] : [];
  // The kind's module (E's for the pair: E and C concern the same holders, carry no lines).
  const module = services.engine.kind(calls.kind === 'Tipo' ? 'E' : calls.kind);
  // The holders the kind concerns (a visit's refused for a demobilisation).
  const concerned = module.holders;
  const entity = { type: 'string', enum: [...concerned] };
  const status = { type: 'string', enum: [...(calls.statuses ?? ['I', 'P', 'O', 'R', 'A'])] };
  const filters = {
    ...tipo,
    skip: field.integer(0, INT32.max),
    take: field.integer(1, 1000),
    sort: field.text(500),
    filter: field.text(5000),
    IdEntidad: entity,
    EstadoAprobacion: status,
    IdCompaniaContratista: id,
    IdContrato: id,
    ...PERIOD,
  };
  /** The kind a call is about: the calls' own, or the one its Tipo names. */
  const kindOf = (q: Query): string => {
    if (calls.kind !== 'Tipo') return calls.kind;
    if (q.Tipo !== 'E' && q.Tipo !== 'C')
      throw new ApiError('VALIDATION_FAILED', { fields: { Tipo: { messageKey: 'validation.enum' } } });
    return q.Tipo;
  };
  const queryOf = async (q: Query, request: FastifyRequest) => {
    if (q.IdEntidad !== undefined && !concerned.includes(q.IdEntidad as EntityCode))
      throw new ApiError('FORBIDDEN');
    const kind = kindOf(q);
    const who = await viewerOf(db, registry, request.principal, entityParam(q.IdEntidad));
    const scoped = { ...who, entities: who.entities.filter((e) => concerned.includes(e)) };
    const spans =
      q.CantMeses !== undefined || q.CantMonth !== undefined || q.CantYear !== undefined
        ? periodOf(q, fastify.auth.now())
        : undefined;
    return { who: scoped, query: requestQuery(q, spans, kind) };
  };
  const paramsOf = (request: FastifyRequest) =>
    ((calls.list?.method === 'POST' ? request.body : request.query) ?? {}) as Query;

  if (calls.list) {
    const { method, path, companyPath } = calls.list;
    const schema =
      method === 'GET' ? { querystring: objectOf(filters, required) } : { body: objectOf(filters, required) };
    for (const [route, forCompany] of [
      [path, false],
      ...(companyPath ? [[companyPath, true] as const] : []),
    ] as const)
      fastify.route<{ Querystring: Query; Body: Query }>({
        method,
        url: `${base}/${route}`,
        schema: {
          tags,
          summary: forCompany ? `One contractor’s ${what}s` : `The ${what}s the session may see (grid list)`,
          description: `Columns: ${REQUEST_COLUMNS.join(', ')}. filter triples: IdEntidad, EstadoAprobacion, IdCompania, IdContrato (=) and Nombres, Documento (contains).`,
          ...schema,
          response: result('{ data, totalCount, totalPages }'),
        },
        handler: async (request) => {
          const q = paramsOf(request);
          if (forCompany && q.IdCompaniaContratista === undefined)
            throw new ApiError('BAD_QUERY', { params: { parameter: 'IdCompaniaContratista' } });
          const { who, query } = await queryOf(q, request);
          return { result: await services.lists.list(who, query) };
        },
      });
  }

  if (calls.exportPath)
    fastify.post<{ Body: Query }>(
      `${base}/${calls.exportPath}`,
      {
        schema: {
          tags,
          summary: `The ${what}s list as an Excel file inside result: { fileBase64, fileName }`,
          description:
            'Every row the list’s filters select (no cap), newest request first, written as the workbook streams out.',
          body: objectOf({ ...filters, Titulo: field.text(100), NombreArchivo: field.text(100) }, required),
          response: result('{ fileBase64, fileName }'),
        },
      },
      async (request, reply) => {
        const q = request.body ?? {};
        const { who, query } = await queryOf({ ...q, skip: 0 }, request);
        const timeZone = await divisionTimeZone(db, registry, request.principal.divisionId);
        return sendRequestsWorkbook(reply, services.lists.batches(who, query), request.language, q, timeZone);
      },
    );

  const evaluation = {
    ...tipo,
    Accion: { type: 'string', enum: ['APROBAR', 'OBSERVAR', 'RECHAZAR', 'DEVOLVER'] },
    Observacion: field.text(500),
    MotivoRechazo: field.text(500),
  };
  const lined = module.lines;
  if (calls.evaluate)
    fastify.post<{ Body: Query }>(
      `${base}/${calls.evaluate}`,
      {
        schema: {
          tags,
          summary: `An authoriser’s evaluation of a pending ${what}`,
          description: lined
            ? 'Detalle: [{ IdDetalle, EstadoAprobacion (P, A, R, O), Observacion, Valor (authoriser-type requirements) }], each change asked of the approval machine; Accion: APROBAR, OBSERVAR, RECHAZAR or DEVOLVER, asked of the request machine; Observacion (the note), MotivoRechazo and IndisciplinaRechazo (S/N) for a rejection, with IdIndisciplina (the kind of the client’s catalogue) to record it against the worker until its sanction ends. Approval grants (or renews) in the same transaction.'
            : 'Accion: APROBAR, OBSERVAR or RECHAZAR (observing and rejecting need Observacion or MotivoRechazo). Approval ends, extends or moves the accreditation in the same transaction, and revokes what hangs on an ended one (answered as revocados).',
          body: lined
            ? {
                type: 'object',
                properties: {
                  ...evaluation,
                  IdSolicitud: id,
                  IndisciplinaRechazo: field.flag,
                  IdIndisciplina: id,
                  Detalle: {
                    type: 'array',
                    maxItems: 2000,
                    items: objectOf({
                      IdDetalle: id,
                      EstadoAprobacion: { type: 'string', enum: ['P', 'A', 'R', 'O'] },
                      Observacion: field.text(500),
                      Valor: field.text(1000),
                    }),
                  },
                },
                required: ['IdSolicitud'],
              }
            : objectOf({ ...evaluation, IdSolicitud: id }, [...required, 'IdSolicitud', 'Accion']),
          response: result(
            lined ? '{ IdSolicitud, EstadoAprobacion }' : '{ IdSolicitud, EstadoAprobacion, revocados }',
          ),
        },
      },
      async (request) => {
        const kind = kindOf(request.body);
        const authoriser = await authoriserOf(db, registry, request.principal);
        const done = await services.decisions.evaluate(authoriser, request.body, [kind], !lined);
        const { IdSolicitud, EstadoAprobacion } = done.request;
        return {
          result: lined
            ? await services.engine.summary(IdSolicitud)
            : { IdSolicitud, EstadoAprobacion, revocados: done.revoked },
        };
      },
    );

  if (calls.evaluateMany)
    fastify.post<{ Body: Query }>(
      `${base}/${calls.evaluateMany}`,
      {
        schema: {
          tags,
          summary: `An authoriser gives several ${what}s the same decision, all or nothing`,
          description:
            'Solicitudes: the request ids; Accion APROBAR (with every pending line the authoriser may), OBSERVAR or RECHAZAR (with Observacion or MotivoRechazo). If any is refused nothing is kept, and errors names each refused row as Solicitudes.<index>.',
          body: objectOf({ ...evaluation, Solicitudes: ids }, [...required, 'Solicitudes', 'Accion']),
          response: result('{ Solicitudes: [{ IdSolicitud, EstadoAprobacion, revocados }] }'),
        },
      },
      async (request) => {
        const authoriser = await authoriserOf(db, registry, request.principal);
        const done = await services.decisions.evaluateMany(authoriser, request.body, [kindOf(request.body)]);
        return {
          result: {
            Solicitudes: done.map((d) => ({
              IdSolicitud: d.request.IdSolicitud,
              EstadoAprobacion: d.request.EstadoAprobacion,
              revocados: d.revoked,
            })),
          },
        };
      },
    );

  if (calls.remove)
    fastify.delete<{ Querystring: { IdSolicitud?: number } }>(
      `${base}/eliminar`,
      {
        schema: {
          tags,
          summary: `Delete an incomplete ${what} (a sent or answered one stays)`,
          querystring: objectOf({ IdSolicitud: id }, ['IdSolicitud']),
          response: result('{ IdSolicitud }'),
        },
      },
      async (request) => ({
        result: await services.engine.remove(requesterOf(request.principal), request.query.IdSolicitud, [
          kindOf(request.query),
        ]),
      }),
    );

  if (calls.remove)
    fastify.post<{ Body: Query }>(
      `${base}/eliminarmasivo`,
      {
        schema: {
          tags,
          summary: `Delete several of the requester’s ${what}s at once`,
          description:
            'Solicitudes: the request ids. The incomplete ones are deleted in one transaction; each other one (sent, answered, not the requester’s) is kept and named in Rechazadas with its reason (messageKey, and message in the caller’s language), and message says "Some records could not be deleted" with each one. None deleted: a refusal naming each row as Solicitudes.<index>.',
          body: objectOf({ ...tipo, Solicitudes: ids }, [...required, 'Solicitudes']),
          response: result(
            '{ Eliminadas: [IdSolicitud], Rechazadas: [{ IdSolicitud, messageKey, message }], message? }',
          ),
        },
      },
      async (request) => {
        const done = await services.engine.removeMany(
          requesterOf(request.principal),
          selectionOf(request.body.Solicitudes, 'Solicitudes'),
          [kindOf(request.body)],
        );
        return { result: refusalsSaid(done, request.language) };
      },
    );

  if (calls.dashboard) dashboardRoutes(fastify, { base, kind: calls.kind as DashboardKind, what });
}

/** A bulk delete's answer with each kept request's reason said, and "Some records could not be deleted" naming them. */
function refusalsSaid(
  done: { Eliminadas: number[]; Rechazadas: Array<{ IdSolicitud: number; messageKey: string }> },
  language: Language,
) {
  const Rechazadas = done.Rechazadas.map((r) => ({ ...r, message: t(language, r.messageKey) }));
  if (!Rechazadas.length) return { ...done, Rechazadas };
  const list = Rechazadas.map((r) => `${requestNumber(r.IdSolicitud)} (${r.message})`).join(', ');
  return { ...done, Rechazadas, message: t(language, 'accreditation.refusals.someNotDeleted', { list }) };
}
