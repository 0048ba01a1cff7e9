import type { FastifyInstance } from 'fastify';
import { field, INT32, resultResponses } from '../../routes/responses.js';
import { Headcount, headcountScope } from './headcount.js';

const BASE = '/acreditacionsolicitud';
const result = (description: string) => resultResponses(description, [400, 401, 403]);

/** The headcount calls of spec section 7, at the requester dashboard's paths. */
export default async function headcountRoutes(fastify: FastifyInstance): Promise<void> {
  const headcount = new Headcount(fastify.database.db);
  fastify.get(
    `${BASE}/dashboarddotacion`,
    {
      schema: {
        tags: ['access'],
        summary: 'Headcount dashboard: [summary, worker rows, vehicle rows, visit rows, groups]',
        description:
          'Present: the last allowed marking in the division is an entry; absent: accredited today and not present. ' +
          'A contractor sees its company’s, the client’s security office the whole division. Groups follow the ' +
          'division’s headcount mode (by contract, by organisational unit, none).',
        querystring: {
          type: 'object',
          properties: {
            IdDivision: field.id({ description: 'Ignored: the division is the session’s.' }),
            CantMeses: field.integer(1, 120),
            CantYear: field.integer(2000, 2100),
            CantMonth: field.text(40),
          },
        },
        response: result('Positional arrays of spec section 7'),
      },
    },
    async (request) => ({
      result: await headcount.dashboard(headcountScope(request.principal), request.language),
    }),
  );
  fastify.get<{ Querystring: Record<string, unknown> }>(
    `${BASE}/dashboarddotaciondetalle`,
    {
      schema: {
        tags: ['access'],
        summary: 'Headcount list: present (P) or absent (A) workers (T), vehicles (V) or visits (P)',
        description:
          'Grid list call: filter ([field, "contains", text] joined by "and"), sort ([{ selector, desc }]), skip, ' +
          'take (15 by default), requireTotalCount. Answers { data, totalCount }.',
        querystring: {
          type: 'object',
          properties: {
            IdDivision: field.id(),
            TipoConsulta: { type: 'string', enum: ['P', 'A'] },
            TipoEntidad: { type: 'string', enum: ['T', 'V', 'P'] },
            skip: field.integer(0, INT32.max),
            take: field.integer(1, 1000),
            sort: field.text(500),
            filter: field.text(5000),
            searchExpr: field.text(500),
            searchValue: field.text(100),
            requireTotalCount: { type: 'boolean' },
          },
        },
        response: result('{ data, totalCount }'),
      },
    },
    async (request) => ({
      result: await headcount.detail(headcountScope(request.principal), request.query),
    }),
  );
}
