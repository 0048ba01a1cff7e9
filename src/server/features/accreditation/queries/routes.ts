import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ENTITY_CODES, holdsContract } from '../../../../shared/accreditation.js';
import type { Language } from '../../../../shared/constants.js';
import { addDays, zoneOffset } from '../../../../shared/dates.js';
import { ApiError } from '../../../errors.js';
import { t } from '../../../i18n.js';
import { field, INT32, objectOf, resultResponses } from '../../../routes/responses.js';
import { columnMaker, type ExportColumn, sendWorkbook, writeWorkbook } from '../../../services/excel.js';
import type { Requester } from '../../../services/requester.js';
import { divisionTimeZone, divisionToday } from '../../../site.js';
import { requestColumns } from '../export.js';
import { RequestLists, requestQuery } from '../lists.js';
import { type Authoriser, screenScope } from '../roles.js';
import { type StatusFilters, StatusQuery } from './status.js';

type Query = Record<string, unknown>;

/** The console's query screens (spec section 2, /consultas): a profile reaches a query through its menu. */
export const QUERY_ROUTES = {
  M: '/consultas/movilizaciones',
  D: '/consultas/desmovilizaciones',
  status: '/consultas/estado',
} as const;

const result = (description: string) => resultResponses(description, [400, 401, 403, 404]);
const excel = { 200: { description: 'The .xlsx file', type: 'string', format: 'binary' } };
const id = field.id();
const date = field.text(10, { pattern: '^\\d{4}-\\d{2}-\\d{2}$' });
const page = { skip: field.integer(0, INT32.max), take: field.integer(1, 1000) };
const requestFilters = {
  Tipo: { type: 'string', enum: ['M', 'D'] },
  IdEntidad: { type: 'string', enum: [...ENTITY_CODES] },
  EstadoAprobacion: { type: 'string', enum: ['I', 'P', 'O', 'R', 'A'] },
  IdCompania: id,
  IdContrato: id,
  FechaDesde: date,
  FechaHasta: date,
  filter: field.text(5000),
  sort: field.text(500),
};
const statusFilters = {
  IdEntidad: { type: 'string', enum: ['T', 'V'] },
  IdCompania: id,
  IdContrato: id,
  Estado: { type: 'string', enum: ['A', 'S', 'T'] },
  FechaDesde: date,
  FechaHasta: date,
  Presente: field.flag,
  Texto: field.text(100),
};

/** A date range the caller gave, checked: from before to. */
function rangeOf(q: Query): { from?: string; to?: string } {
  const from = typeof q.FechaDesde === 'string' ? q.FechaDesde : undefined;
  const to = typeof q.FechaHasta === 'string' ? q.FechaHasta : undefined;
  if (from && to && from > to)
    throw new ApiError('VALIDATION_FAILED', {
      fields: { FechaHasta: { messageKey: 'queries.refusals.rangeBackwards' } },
    });
  return { from, to };
}

/**
 * The queries a client runs the site with (/consultas): its mobilisations and demobilisations
 * (the requests of a kind, by company, contract, status and dates), and the current status of its
 * accredited people and vehicles; each list also as an Excel workbook streamed, every row.
 * A contractor's profile sees its company only; the client's, its division.
 */
export default async function queryRoutes(fastify: FastifyInstance): Promise<void> {
  const { database, registry } = fastify;
  const lists = new RequestLists(database, registry);
  const status = new StatusQuery(database, registry);
  const tags = ['accreditation'];
  const base = '/consulta';

  /** The requests query: who (the scope as a list's viewer) and the list query with its dates. */
  const requestsOf = async (request: FastifyRequest, q: Query) => {
    const kind = q.Tipo === 'D' ? 'D' : 'M';
    const scope = screenScope(request.principal, QUERY_ROUTES[kind]);
    const entities = kind === 'D' ? ENTITY_CODES.filter(holdsContract) : [...ENTITY_CODES];
    const who = (
      scope.companyId !== undefined
        ? { principal: request.principal, companyId: scope.companyId, entities }
        : { principal: request.principal, rows: [], entities }
    ) as Requester | Authoriser;
    const { from, to } = rangeOf(q);
    // The dates are the site's days: from its midnight to the next one's.
    const zone = await divisionTimeZone(database.db, registry, scope.divisionId);
    const instant = (day: string) => {
      const utc = Date.parse(`${day}T00:00:00Z`);
      return new Date(utc - zoneOffset(zone, utc)).toISOString();
    };
    const spans =
      from || to
        ? [{ from: from ? instant(from) : '0000', to: to ? instant(addDays(to, 1)) : '9999' }]
        : undefined;
    return { who, query: requestQuery(q, spans, kind), zone };
  };

  fastify.get<{ Querystring: Query }>(
    `${base}/solicitudes`,
    {
      schema: {
        tags,
        summary:
          'Mobilisations (Tipo M) or demobilisations (Tipo D) of the division, by company, contract, status and request dates',
        querystring: objectOf({ ...requestFilters, ...page }),
        response: result('{ data, totalCount, totalPages }'),
      },
    },
    async (request) => {
      const { who, query } = await requestsOf(request, request.query);
      return { result: await lists.list(who, query) };
    },
  );

  fastify.get<{ Querystring: Query }>(
    `${base}/solicitudes/excel`,
    {
      schema: {
        tags,
        summary:
          'The mobilisations or demobilisations query as an .xlsx workbook, streamed: every row, newest first',
        querystring: objectOf(requestFilters),
        response: excel,
      },
    },
    async (request, reply) => {
      const { who, query, zone } = await requestsOf(request, { ...request.query, skip: 0 });
      const name = t(
        request.language,
        `queries.files.${query.kind === 'D' ? 'demobilisations' : 'mobilisations'}`,
      );
      const stamp = new Date(fastify.auth.now()).toISOString().slice(0, 10);
      return sendWorkbook(reply, `consulta-${stamp}.xlsx`, `${name} ${stamp}.xlsx`, (stream) =>
        writeWorkbook(
          stream,
          requestColumns(request.language),
          lists.batches(who, query),
          'data',
          name,
          zone,
        ),
      );
    },
  );

  /** The status query: the scope, the filters and the site's today. */
  const statusOf = async (request: FastifyRequest, q: Query) => {
    const scope = screenScope(request.principal, QUERY_ROUTES.status);
    const { from, to } = rangeOf(q);
    const filters: StatusFilters = {
      entity: q.IdEntidad === 'V' ? 'V' : 'T',
      company: q.IdCompania === undefined ? undefined : Number(q.IdCompania),
      contract: q.IdContrato === undefined ? undefined : Number(q.IdContrato),
      state: q.Estado as StatusFilters['state'],
      present: q.Presente as StatusFilters['present'],
      text:
        typeof q.Texto === 'string' && q.Texto.trim() ? q.Texto.trim().toLocaleUpperCase('es') : undefined,
      from,
      to,
    };
    const [today, zone] = await Promise.all([
      divisionToday(database.db, registry, scope.divisionId, fastify.auth.now()),
      divisionTimeZone(database.db, registry, scope.divisionId),
    ]);
    return { scope, filters, today, zone };
  };

  fastify.get<{ Querystring: Query }>(
    `${base}/estado`,
    {
      schema: {
        tags,
        summary:
          'The current status of accredited people (T) or vehicles (V): where, since and until when, the requirement expiring next, present now',
        querystring: objectOf({ ...statusFilters, ...page }),
        response: result('{ data, totalCount, totalPages }'),
      },
    },
    async (request) => {
      const { scope, filters, today } = await statusOf(request, request.query);
      const skip = Number(request.query.skip ?? 0);
      const take = Number(request.query.take ?? 20);
      return { result: await status.page(scope, filters, today, skip, take) };
    },
  );

  fastify.get<{ Querystring: Query }>(
    `${base}/estado/excel`,
    {
      schema: {
        tags,
        summary: 'The current-status query as an .xlsx workbook, streamed: every row',
        querystring: objectOf(statusFilters),
        response: excel,
      },
    },
    async (request, reply) => {
      const { scope, filters, today, zone } = await statusOf(request, request.query);
      const name = t(request.language, `queries.files.status${filters.entity}`);
      return sendWorkbook(reply, `estado-${today}.xlsx`, `${name} ${today}.xlsx`, (stream) =>
        writeWorkbook(
          stream,
          statusColumns(request.language),
          status.batches(scope, filters, today),
          'data',
          name,
          zone,
        ),
      );
    },
  );
}

/** The status query's columns, headers and states in the caller's language. */
function statusColumns(language: Language): ExportColumn[] {
  const column = columnMaker(language, 'queries.columns');
  return [
    column('Documento', 'text', 14),
    column('Nombres', 'text', 32),
    column('CompaniaContratista', 'text', 30),
    column('NumeroContrato', 'text', 16),
    column('FechaInicio', 'date', 13),
    column('FechaFin', 'date', 13),
    column('Estado', 'text', 12, (row) => t(language, `queries.states.${row.Estado}`)),
    column('ProximoRequisito', 'text', 28),
    column('ProximoVencimiento', 'date', 13),
    column('Presente', 'text', 10, (row) =>
      t(language, row.Presente === 'S' ? 'queries.present' : 'queries.absent'),
    ),
    column('Desde', 'datetime', 18),
  ];
}
