import type { FastifyInstance } from 'fastify';
import type { DashboardKind } from '../../../shared/request-kinds.js';
import { SESSION_DIVISION } from '../../plugins/repository.js';
import { field, objectOf, resultResponses } from '../../routes/responses.js';
import { requesterOf } from '../../services/requester.js';
import { Dashboards } from './dashboards.js';
import { periodOf } from './period.js';
import { authoriserOf } from './roles.js';

/** The dashboards' period of spec section 7: months back, or a year and some of its months. */
export const PERIOD = {
  IdDivision: SESSION_DIVISION,
  CantMeses: field.integer(1, 120),
  CantYear: field.integer(2000, 2100),
  CantMonth: field.text(40, { description: 'Comma-separated months (1–12) of CantYear.' }),
};

/**
 * `<base>/dashboard` and `<base>/dashboardAutorizador` for one kind of request (mobilisation,
 * demobilisation, requirement update): the requester's and the authoriser's counts, answered as
 * the positional arrays of spec section 7.
 */
export function dashboardRoutes(
  fastify: FastifyInstance,
  { base, kind, what }: { base: string; kind: DashboardKind; what: string },
): void {
  const { database, registry } = fastify;
  const dashboards = new Dashboards(database.db, registry, () => fastify.auth.now());
  const response = resultResponses('Positional arrays of spec section 7', [400, 401, 403, 404, 409]);
  fastify.get<{ Querystring: Record<string, unknown> }>(
    `${base}/dashboard`,
    {
      schema: {
        tags: ['accreditation'],
        summary: `The requester’s ${what} dashboard: [summary, worker rows, vehicle rows, visit rows]`,
        querystring: objectOf(PERIOD),
        response,
      },
    },
    async (request) => ({
      result: await dashboards.requester(
        requesterOf(request.principal),
        periodOf(request.query, fastify.auth.now()),
        request.language,
        kind,
      ),
    }),
  );
  fastify.get<{ Querystring: Record<string, unknown> }>(
    `${base}/dashboardAutorizador`,
    {
      schema: {
        tags: ['accreditation'],
        summary: `The authoriser’s ${what} dashboard: [summary, worker rows, vehicle rows, visit rows]`,
        querystring: objectOf({ IdDivision: PERIOD.IdDivision, CantMeses: PERIOD.CantMeses }),
        response,
      },
    },
    async (request) => ({
      result: await dashboards.authoriser(
        await authoriserOf(database.db, registry, request.principal),
        periodOf(request.query, fastify.auth.now()),
        request.language,
        kind,
      ),
    }),
  );
}
