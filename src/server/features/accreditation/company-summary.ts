import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { ENTITY_CODES } from '../../../shared/accreditation.js';
import { containsPattern, likeEscaped } from '../../crud/filters.js';
import type { Row } from '../../crud/types.js';
import { ApiError, badQuery } from '../../errors.js';
import { resourceName, t } from '../../i18n.js';
import type { Principal } from '../../principal.js';
import { requireGrant } from '../../routes/guards.js';
import { field, INT32, resultResponses } from '../../routes/responses.js';
import { type ExportColumn, neutralise, safeFileName, workbookBase64 } from '../../services/excel.js';

const result = (description: string) => resultResponses(description, [400, 401, 403]);

interface SummaryBody {
  IdEntidad?: string;
  IdCompaniaContratista?: number;
  CompaniaContratista?: string;
  Documento?: string;
  Titulo?: string;
  NombreArchivo?: string;
  Cabeceras?: string;
  Columnas?: string;
  OrderField?: string;
}

/** The columns of the company summary, by the ids a caller names them with. */
const SUMMARY_COLUMNS = [
  'IdCompaniaContratista',
  'IdCompaniaMandante',
  'Documento',
  'CompaniaContratista',
  'Contratos',
  'Trabajadores',
  'Visitas',
  'Vehiculos',
  'PENDIENTES',
  'OBSERVADOS',
  'Total',
] as const;
type SummaryColumn = (typeof SUMMARY_COLUMNS)[number];
const NUMERIC = new Set<SummaryColumn>([
  'IdCompaniaContratista',
  'IdCompaniaMandante',
  'Contratos',
  'Trabajadores',
  'Visitas',
  'Vehiculos',
  'PENDIENTES',
  'OBSERVADOS',
  'Total',
]);

/**
 * The rows in the grid's order ([{ selector, desc }] on a summary column), by company name when
 * none is given; an unknown column is a 400.
 */
function sortRows(rows: Row[], sort: string | undefined): Row[] {
  if (!sort) return rows;
  let first: { selector?: unknown; desc?: unknown } | undefined;
  try {
    const parsed = JSON.parse(sort) as unknown;
    first = (Array.isArray(parsed) ? parsed[0] : parsed) as typeof first;
  } catch {
    throw badQuery('sort', 'query.invalidJson');
  }
  if (!first?.selector) return rows;
  const key = String(first.selector) as SummaryColumn;
  if (!SUMMARY_COLUMNS.includes(key)) throw badQuery('sort', 'query.sortField', { field: key.slice(0, 40) });
  const direction = first.desc === true ? -1 : 1;
  return rows.sort(
    (a, b) =>
      direction *
      (NUMERIC.has(key)
        ? Number(a[key]) - Number(b[key])
        : String(a[key]).localeCompare(String(b[key]), 'es')),
  );
}

/**
 * The company summary of spec section 7 (filtrarcompaniaresumen) with its Excel export contract
 * (exportarExcelCompaniaResumen: fileBase64 and fileName).
 */
export default async function companySummaryRoutes(fastify: FastifyInstance): Promise<void> {
  const { registry } = fastify;
  /** The rows of the summary; the requests counted are of one type (M mobilisation, A requirement update). */
  const summaryRows = async (
    principal: Principal,
    body: SummaryBody,
    kind: 'M' | 'A' = 'M',
  ): Promise<Row[]> => {
    const db = fastify.database.db;
    const company = registry.require('company');
    const clientId = principal.clientId;
    const divisionId = principal.divisionId;
    if (clientId === undefined || divisionId === undefined) throw new ApiError('FORBIDDEN');
    let qb = db
      .selectFrom(`${company.table} as c`)
      .select(['c.IdCompania', 'c.Documento', 'c.Compania'])
      .where('c.IdCliente', '=', clientId)
      .where('c.Contratista', '=', 'S');
    if (principal.companyId !== undefined) qb = qb.where('c.IdCompania', '=', principal.companyId);
    if (body.IdCompaniaContratista) qb = qb.where('c.IdCompania', '=', Number(body.IdCompaniaContratista));
    const contains = (column: string, value: string) =>
      likeEscaped(sql.ref(column), containsPattern(value.toLocaleUpperCase('es')));
    if (body.CompaniaContratista) qb = qb.where(contains('c.Compania', body.CompaniaContratista));
    if (body.Documento) qb = qb.where(contains('c.Documento', body.Documento));
    const companies = (await qb.orderBy('c.Compania').execute()) as Array<{
      IdCompania: number;
      Documento: string;
      Compania: string;
    }>;
    const count = async (resource: string, companyField: string, where: Array<[string, unknown]>) => {
      const entity = registry.get(resource);
      const out = new Map<number, number>();
      if (!entity) return out;
      let q = db
        .selectFrom(entity.table)
        .select([companyField, (eb) => eb.fn.countAll().as('n')])
        .where('IdCliente', '=', clientId);
      for (const [field, value] of where) q = q.where(field, '=', value);
      const rows = (await q.groupBy(companyField).execute()) as Array<Record<string, number>>;
      for (const row of rows) out.set(Number(row[companyField]), Number(row.n));
      return out;
    };
    const contracts = await count('contract', 'IdCompaniaContratista', [
      ['IdDivision', divisionId],
      ['Activo', 'S'],
    ]);
    const workers = await count('person', 'IdCompania', [
      ['Condicion', 'T'],
      ['Inactivo', 'N'],
    ]);
    const visitors = await count('person', 'IdCompania', [
      ['Condicion', 'V'],
      ['Inactivo', 'N'],
    ]);
    const vehicles = await count('vehicle', 'IdCompania', [['Estado', 'A']]);
    // The requests of the division from their counters: pending, observed and all (an
    // authoriser's, from the sending on).
    let byStatus = db
      .selectFrom(registry.require('request-count').table)
      .select(['IdCompania', 'EstadoAprobacion', (eb) => eb.fn.sum('Cantidad').as('n')])
      .where('IdCliente', '=', clientId)
      .where('IdDivision', '=', divisionId)
      .where('TipoSolicitud', '=', kind);
    if (body.IdEntidad) byStatus = byStatus.where('IdEntidad', '=', body.IdEntidad);
    if (principal.companyId !== undefined) byStatus = byStatus.where('IdCompania', '=', principal.companyId);
    else byStatus = byStatus.where('EstadoAprobacion', '<>', 'I');
    const counted = (await byStatus.groupBy(['IdCompania', 'EstadoAprobacion']).execute()) as Array<{
      IdCompania: number;
      EstadoAprobacion: string;
      n: number | string;
    }>;
    const requestsOf = (company: number, status?: string) =>
      counted
        .filter((c) => c.IdCompania === company && (status === undefined || c.EstadoAprobacion === status))
        .reduce((sum, c) => sum + Number(c.n), 0);
    const client = (await db
      .selectFrom(company.table)
      .select('IdCompania')
      .where('IdCliente', '=', clientId)
      .where('Contratista', '=', 'N')
      .orderBy('IdCompania')
      .executeTakeFirst()) as { IdCompania: number } | undefined;
    return companies.map((c) => {
      const row: Record<SummaryColumn, unknown> = {
        IdCompaniaContratista: c.IdCompania,
        IdCompaniaMandante: client?.IdCompania ?? null,
        Documento: c.Documento,
        CompaniaContratista: c.Compania,
        Contratos: contracts.get(c.IdCompania) ?? 0,
        Trabajadores: workers.get(c.IdCompania) ?? 0,
        Visitas: visitors.get(c.IdCompania) ?? 0,
        Vehiculos: vehicles.get(c.IdCompania) ?? 0,
        PENDIENTES: requestsOf(c.IdCompania, 'P'),
        OBSERVADOS: requestsOf(c.IdCompania, 'O'),
        Total: requestsOf(c.IdCompania),
      };
      return row;
    });
  };

  const summaryBody = {
    type: 'object',
    properties: {
      IdCliente: field.id(),
      IdDivision: field.id(),
      IdUsuario: field.text(20),
      IdCompaniaMandante: field.id(),
      IdCompaniaContratista: field.id(),
      IdEntidad: { type: 'string', enum: [...ENTITY_CODES] },
      CompaniaContratista: { type: 'string', maxLength: 200 },
      Documento: { type: 'string', maxLength: 20 },
      TipoOperacion: { type: 'string', maxLength: 1 },
      Titulo: { type: 'string', maxLength: 100 },
      NombreArchivo: { type: 'string', maxLength: 100 },
      Cabeceras: { type: 'string', maxLength: 2000 },
      Columnas: { type: 'string', maxLength: 2000 },
      OrderField: { type: 'string', maxLength: 60 },
    },
  };

  for (const [path, kind, what] of [
    ['/acreditacionsolicitud/filtrarcompaniaresumen', 'M', 'mobilisation'],
    ['/acreditacionrequisitosolicitud/filtrarcompaniaresumen', 'A', 'requirement update'],
  ] as const)
    fastify.get<{ Querystring: SummaryBody & { skip?: string; take?: string; sort?: string } }>(
      path,
      {
        preHandler: requireGrant('company'),
        schema: {
          tags: ['administration'],
          summary: `The contractor companies of the session’s client with their figures in its division and their ${what} requests (grid list)`,
          querystring: {
            type: 'object',
            properties: {
              ...summaryBody.properties,
              skip: field.integer(0, INT32.max),
              take: field.integer(1, 1000),
              requireTotalCount: { type: 'boolean' },
              sort: { type: 'string', maxLength: 200, description: 'The grid sort: [{ selector, desc }]' },
            },
          },
          response: result('{ data, totalCount, totalPages }'),
        },
      },
      async (request) => {
        const rows = sortRows(await summaryRows(request.principal, request.query, kind), request.query.sort);
        const skip = Math.max(Number(request.query.skip) || 0, 0);
        const take = Math.min(Math.max(Number(request.query.take) || 10, 1), 1000);
        return {
          result: {
            data: rows.slice(skip, skip + take),
            totalCount: rows.length,
            totalPages: Math.ceil(rows.length / take),
          },
        };
      },
    );

  fastify.post<{ Body: SummaryBody }>(
    '/acreditacionsolicitud/exportarExcelCompaniaResumen',
    {
      preHandler: requireGrant('company'),
      schema: {
        tags: ['administration'],
        summary: 'The company summary as an Excel file inside result: { fileBase64, fileName }',
        description:
          `Cabeceras and Columnas are pipe-separated lists of equal length; column ids: ${SUMMARY_COLUMNS.join(', ')}. ` +
          'OrderField sorts the rows (a column id). Client, division and company come from the token.',
        body: summaryBody,
        response: result('{ fileBase64, fileName }'),
      },
    },
    async (request) => {
      const body = request.body;
      const language = request.language;
      const ids = (body.Columnas ?? SUMMARY_COLUMNS.join('|')).split('|').map((s) => s.trim());
      const unknown = ids.filter((id) => !SUMMARY_COLUMNS.includes(id as SummaryColumn));
      if (unknown.length)
        throw new ApiError('BAD_REQUEST', {
          detail: `unknown columns ${unknown.join(', ')}`,
          fields: {
            Columnas: { messageKey: 'validation.unknownColumns', params: { columns: unknown.join(', ') } },
          },
        });
      const headers = body.Cabeceras
        ? body.Cabeceras.split('|').map((s) => s.trim())
        : ids.map((id) => t(language, `summary.columns.${id}`));
      if (headers.length !== ids.length)
        throw new ApiError('BAD_REQUEST', {
          fields: { Cabeceras: { messageKey: 'validation.headersMismatch', params: { count: ids.length } } },
        });
      const order = body.OrderField ?? 'CompaniaContratista';
      if (!SUMMARY_COLUMNS.includes(order as SummaryColumn))
        throw new ApiError('BAD_REQUEST', { fields: { OrderField: { messageKey: 'validation.enum' } } });
      const rows = await summaryRows(request.principal, body);
      sortRows(rows, JSON.stringify([{ selector: order }]));
      const columns: ExportColumn[] = ids.map((id, i) => ({
        header: headers[i],
        kind: NUMERIC.has(id as SummaryColumn) ? 'number' : 'text',
        width: Math.max(12, headers[i].length + 2),
        value: (row) => {
          const value = row[id];
          if (value === null || value === undefined) return null;
          return typeof value === 'number' ? value : neutralise(String(value));
        },
      }));
      const fileBase64 = await workbookBase64(columns, rows, body.Titulo);
      const stamp = new Date().toISOString().slice(0, 10).replaceAll('-', '');
      const fallback = resourceName(language, 'company', true);
      const base = safeFileName(body.NombreArchivo || fallback, fallback);
      return {
        result: { fileBase64, fileName: `${base} ${stamp}.xlsx` },
      };
    },
  );
}
