import type { FastifyInstance } from 'fastify';
import { stayText, zoneOffset } from '../../../shared/dates.js';
import { t } from '../../i18n.js';
import { SESSION_DIVISION } from '../../plugins/repository.js';
import { field, INT32, resultResponses } from '../../routes/responses.js';
import { type ExportColumn, workbookBase64 } from '../../services/excel.js';
import { divisionTimeZone, divisionToday } from '../../site.js';
import { Headcount, headcountScope } from './headcount.js';
import { blockedByRequirements } from './requirement-report.js';

const BASE = '/acreditacionsolicitud';
const result = (description: string) => resultResponses(description, [400, 401, 403]);

/** The headcount calls of spec section 7, at the requester dashboard's paths. */
export default async function headcountRoutes(fastify: FastifyInstance): Promise<void> {
  const headcount = new Headcount(fastify.database.db);
  fastify.get<{ Querystring: Record<string, unknown> }>(
    `${BASE}/dashboarddotacion`,
    {
      schema: {
        tags: ['access'],
        summary: 'Headcount dashboard: [summary, worker rows, vehicle rows, visit rows, groups]',
        description:
          'Present: the last allowed marking in the division is an entry; absent: accredited today and not present. ' +
          'A contractor sees its company’s, the client’s security office the whole division. Groups follow the ' +
          'division’s headcount mode (by contract, by organisational unit, none). With CantYear and CantMonth ' +
          '(comma-separated months, the latest counts), as of the end of that month: accredited that day, present ' +
          'when the last allowed marking before it ended was an entry; a month not ended yet is today’s headcount.',
        querystring: {
          type: 'object',
          properties: {
            IdDivision: SESSION_DIVISION,
            CantMeses: field.integer(1, 120),
            CantYear: field.text(10, {
              description: 'A year from 2000 to 2100 (refused otherwise with its message).',
            }),
            CantMonth: field.text(40, {
              description: 'Comma-separated months (1–12) of CantYear: the latest counts.',
            }),
          },
        },
        response: result('Positional arrays of spec section 7'),
      },
    },
    async (request) => ({
      result: await headcount.dashboard(headcountScope(request.principal), request.language, request.query),
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
            CantYear: field.text(10, {
              description: 'A year from 2000 to 2100 (refused otherwise with its message).',
            }),
            CantMonth: field.text(40, {
              description: 'As the dashboard: the headcount as of that month’s end.',
            }),
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
  fastify.get(
    '/acceso/evacuacion/fuera',
    {
      schema: {
        tags: ['access'],
        summary: 'The roll call’s people away from the site in the company’s care now (on a bus on the road)',
        description: 'A contractor sees its company’s; the client’s security office the whole division.',
        response: result('rows'),
      },
    },
    async (request) => {
      const scope = headcountScope(request.principal);
      const rows = await Promise.all(fastify.whereabouts.map((w) => w.away(fastify.database.db, scope)));
      return { result: rows.flat() };
    },
  );
  fastify.get<{ Querystring: { IdZona?: number; formato?: 'xlsx' } }>(
    '/acceso/evacuacion',
    {
      schema: {
        tags: ['access'],
        summary:
          'Evacuation roll call: everyone inside now, in a zone (and the zones inside it) or the division',
        description:
          'Longest on site first. `formato=xlsx` answers { fileBase64, fileName } instead of the rows. ' +
          'A contractor sees its company’s; the client’s security office the whole division.',
        querystring: {
          type: 'object',
          properties: { IdZona: field.id(), formato: { type: 'string', enum: ['xlsx'] } },
        },
        response: result('rows, or { fileBase64, fileName }'),
      },
    },
    async (request) => {
      const rows = await headcount.rollCall(headcountScope(request.principal), request.query.IdZona);
      if (request.query.formato !== 'xlsx') return { result: rows };
      const language = request.language;
      const text = (key: string, width: number): ExportColumn => ({
        header: t(language, `headcount.columns.${key}`),
        kind: 'text',
        width,
        value: (row) => (row[key] as string | null) ?? null,
      });
      const columns: ExportColumn[] = [
        text('Documento', 14),
        text('NombreCompleto', 30),
        text('Placa', 10),
        text('Compania', 30),
        text('Zona', 24),
        {
          header: t(language, 'headcount.columns.FechaMarca'),
          kind: 'datetime',
          width: 18,
          value: (row) => (row.FechaMarca as string) ?? null,
        },
        {
          header: t(language, 'headcount.columns.Permanencia'),
          kind: 'text',
          width: 14,
          // Hours and minutes, as the screen writes it.
          value: (row) => (typeof row.Permanencia === 'number' ? stayText(row.Permanencia) : null),
        },
      ];
      const title = t(language, 'headcount.rollCall');
      const zone = await divisionTimeZone(
        fastify.database.db,
        fastify.registry,
        request.principal.divisionId,
      );
      // The site's date and time, as its clocks read them, not UTC's.
      const now = fastify.auth.now();
      const stamp = new Date(now + zoneOffset(zone, now)).toISOString().slice(0, 16).replace(/[-:T]/g, '');
      return {
        result: {
          fileBase64: await workbookBase64(columns, rows, title, zone),
          fileName: `${title} ${stamp}.xlsx`,
        },
      };
    },
  );

  fastify.get<{ Querystring: { IdEntidad?: 'T' | 'V'; formato?: 'xlsx' } }>(
    '/acceso/requisitosvencidos',
    {
      schema: {
        tags: ['access'],
        summary:
          'Requirement report: who the gate turns away for an expired mandatory requirement, and which',
        description:
          'One row per accredited holder (active or suspended) of the division and expired mandatory requirement not covered by an exoneration today, longest expired first. `formato=xlsx` answers { fileBase64, fileName }. A contractor sees its company’s; the client’s security office the whole division.',
        querystring: {
          type: 'object',
          properties: {
            IdEntidad: { type: 'string', enum: ['T', 'V'] },
            formato: { type: 'string', enum: ['xlsx'] },
          },
        },
        response: result('rows, or { fileBase64, fileName }'),
      },
    },
    async (request) => {
      const scope = headcountScope(request.principal);
      const today = await divisionToday(
        fastify.database.db,
        fastify.registry,
        scope.divisionId,
        fastify.auth.now(),
      );
      const rows = await blockedByRequirements(
        fastify.database.db,
        fastify.registry,
        scope,
        today,
        request.query.IdEntidad,
      );
      if (request.query.formato !== 'xlsx') return { result: rows };
      const language = request.language;
      const column = (key: string, kind: ExportColumn['kind'], width: number): ExportColumn => ({
        header: t(language, `requirementReport.columns.${key}`),
        kind,
        width,
        value: (row) => (row[key] as string | number | null) ?? null,
      });
      const title = t(language, 'requirementReport.title');
      const stamp = new Date().toISOString().slice(0, 16).replace(/[-:T]/g, '');
      return {
        result: {
          fileBase64: await workbookBase64(
            [
              column('Documento', 'text', 14),
              column('NombreCompleto', 'text', 30),
              column('Placa', 'text', 10),
              column('Compania', 'text', 30),
              column('NumeroContrato', 'text', 16),
              column('Requisito', 'text', 30),
              column('FechaVencimiento', 'date', 14),
              column('DiasVencido', 'number', 12),
            ],
            rows,
            title,
          ),
          fileName: `${title} ${stamp}.xlsx`,
        },
      };
    },
  );
}
