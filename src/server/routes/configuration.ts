import { PassThrough } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from '../errors.js';
import { resourceName, t } from '../i18n.js';
import type { Principal } from '../principal.js';
import type { Row } from '../services/crud.js';
import { type ExportColumn, neutralise, writeWorkbook } from '../services/excel.js';
import type { ListQuery } from '../services/list-query.js';
import { resultResponses } from './responses.js';

const result = (description: string) => resultResponses(description, [400, 401, 403, 409]);

/** The profile may write the resource (its menus grant it). */
function canWrite(resource: string) {
  return async (request: FastifyRequest) => {
    if (request.principal.grants?.resources.get(resource) !== 'write') throw new ApiError('FORBIDDEN');
  };
}

function canRead(resource: string) {
  return async (request: FastifyRequest) => {
    if (!request.principal.grants?.resources.get(resource)) throw new ApiError('FORBIDDEN');
  };
}

const WEEK = [1, 2, 3, 4, 5, 6, 7];

interface CopyDayBody {
  IdHorario?: number;
  DiaOrigen?: number;
  Dias?: number[];
  Reemplazar?: boolean;
}

interface SummaryBody {
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
  'Total',
]);

/**
 * Actions of the configuration screens beyond the generic CRUD: copying a schedule's Monday to
 * other days (spec section 3 Access), and the company summary with its Excel export contract
 * (spec section 7: fileBase64 and fileName).
 */
export default async function configurationRoutes(fastify: FastifyInstance): Promise<void> {
  const { registry } = fastify;

  fastify.post<{ Body: CopyDayBody }>(
    '/AccesoHorario/copiarDia',
    {
      preHandler: canWrite('schedule-interval'),
      schema: {
        tags: ['access'],
        summary: 'Copy the intervals of one day of a schedule (Monday by default) to other days',
        description:
          'Without Reemplazar, target days that already have intervals answer 409 (rules.intervalsExistReplace); ' +
          'with Reemplazar true their intervals are deleted first. All in one transaction, each write audited.',
        body: {
          type: 'object',
          properties: {
            IdHorario: { type: 'integer' },
            DiaOrigen: { type: 'integer', minimum: 1, maximum: 7 },
            Dias: { type: 'array', items: { type: 'integer', minimum: 1, maximum: 7 } },
            Reemplazar: { type: 'boolean' },
          },
          required: ['IdHorario'],
        },
        response: result('{ copied, days }'),
      },
    },
    async (request) => {
      const { IdHorario, DiaOrigen = 1, Reemplazar = false } = request.body;
      const days = [...new Set((request.body.Dias ?? []).filter((d) => WEEK.includes(d) && d !== DiaOrigen))];
      if (!days.length) throw new ApiError('BUSINESS_RULE', { messageKey: 'rules.selectDay' });
      const schedule = registry.require('schedule');
      const intervals = registry.require('schedule-interval');
      const principal = request.principal;
      await fastify.crud.getOne(schedule, Number(IdHorario), principal);
      const list = (filters: ListQuery['filters']) =>
        fastify.crud.list(
          intervals,
          { sort: { field: 'HoraInicio', order: 'ASC' }, offset: 0, limit: 1000, filters },
          principal,
        );
      const source = (
        await list([
          { field: 'IdHorario', values: [Number(IdHorario)] },
          { field: 'Dia', values: [DiaOrigen] },
        ])
      ).records;
      const existing = (
        await list([
          { field: 'IdHorario', values: [Number(IdHorario)] },
          { field: 'Dia', values: days },
        ])
      ).records;
      if (existing.length && !Reemplazar)
        throw new ApiError('CONFIRMATION_REQUIRED', {
          messageKey: 'rules.intervalsExistReplace',
          params: { days: [...new Set(existing.map((r) => r.Dia as number))].join(',') },
        });
      return fastify.database.db.transaction().execute(async (trx) => {
        const crud = fastify.crud.within(trx);
        for (const record of existing) await crud.remove(intervals, record.id as number, principal);
        let copied = 0;
        for (const day of days) {
          for (const { HoraInicio, HoraFin, Activo } of source) {
            await crud.create(intervals, { IdHorario, Dia: day, HoraInicio, HoraFin, Activo }, principal);
            copied++;
          }
        }
        return { result: { copied, days } };
      });
    },
  );

  const summaryRows = async (principal: Principal, body: SummaryBody): Promise<Row[]> => {
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
    const like = (value: string) => `%${value.toLocaleUpperCase('es').replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    if (body.CompaniaContratista) qb = qb.where('c.Compania', 'like', like(body.CompaniaContratista));
    if (body.Documento) qb = qb.where('c.Documento', 'like', like(body.Documento));
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
        Total: 0,
      };
      row.Total = (row.Trabajadores as number) + (row.Visitas as number) + (row.Vehiculos as number);
      return row;
    });
  };

  const summaryBody = {
    type: 'object',
    properties: {
      IdCliente: { type: 'integer' },
      IdDivision: { type: 'integer' },
      IdUsuario: { type: 'string' },
      IdCompaniaMandante: { type: 'integer' },
      IdCompaniaContratista: { type: 'integer' },
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

  fastify.get<{ Querystring: SummaryBody & { skip?: string; take?: string } }>(
    '/acreditacionsolicitud/filtrarcompaniaresumen',
    {
      preHandler: canRead('company'),
      schema: {
        tags: ['administration'],
        summary:
          'The contractor companies of the session’s client with their figures in its division (grid list)',
        querystring: { type: 'object', additionalProperties: true },
        response: result('{ data, totalCount, totalPages }'),
      },
    },
    async (request) => {
      const rows = await summaryRows(request.principal, request.query);
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
      preHandler: canRead('company'),
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
      const key = order as SummaryColumn;
      rows.sort((a, b) =>
        NUMERIC.has(key)
          ? Number(a[key]) - Number(b[key])
          : String(a[key]).localeCompare(String(b[key]), 'es'),
      );
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
      const chunks: Buffer[] = [];
      const sink = new PassThrough();
      sink.on('data', (chunk: Buffer) => chunks.push(chunk));
      const done = new Promise((resolve) => sink.on('end', resolve));
      await writeWorkbook(
        sink,
        columns,
        (async function* () {
          yield rows;
        })(),
        'data',
        body.Titulo,
      );
      await done;
      const stamp = new Date().toISOString().slice(0, 10).replaceAll('-', '');
      const base = (body.NombreArchivo || resourceName(language, 'company', true)).replace(
        /[\\/:*?"<>|]/g,
        '',
      );
      return {
        result: { fileBase64: Buffer.concat(chunks).toString('base64'), fileName: `${base} ${stamp}.xlsx` },
      };
    },
  );
}
