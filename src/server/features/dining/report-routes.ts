import type { FastifyInstance } from 'fastify';
import { daysBetween } from '../../../shared/dates.js';
import { ApiError } from '../../errors.js';
import { t } from '../../i18n.js';
import { field, INT32, objectOf, resultResponses } from '../../routes/responses.js';
import { type ExportColumn, sendWorkbook, writeWorkbook } from '../../services/excel.js';
import { clientCurrency } from '../../site.js';
import { type DiningTables, diningTables } from './loader.js';
import { DINING_ROUTES, type DiningOffice, diningOffice } from './office.js';
import { consumptionReport, REPORT_MAX_DAYS, type ReportQuery, reportBatches } from './report.js';

const date = { type: 'string', format: 'date', maxLength: 10 };
const result = (description: string) => resultResponses(description, [400, 401, 403, 404, 409]);

/**
 * The consumption report (/comedor/reporte): served meals within the filters with their totals and
 * cost split, meals per day and service, and the same as a streamed workbook. A contractor sees
 * its company's meals only.
 */
export default async function diningReportRoutes(fastify: FastifyInstance): Promise<void> {
  const { db } = fastify.database;
  const tables: DiningTables = diningTables(fastify.registry);

  const reportQuery = {
    Documento: field.text(20, { minLength: 1 }),
    desde: date,
    hasta: date,
    IdComedor: field.id(),
    IdServicio: field.id(),
    IdCompania: field.id(),
    IdPersona: field.id(),
  };
  /** A person named by document: the client's person of that document (none: a person no meal can match). */
  const byDocument = async (
    office: DiningOffice,
    q: ReportQuery & { Documento?: string },
  ): Promise<ReportQuery> => {
    const { Documento, ...rest } = q;
    if (Documento === undefined) return rest;
    const person = await db
      .selectFrom(tables.person)
      .select('IdPersona')
      .where('IdCliente', '=', office.clientId)
      .where('Documento', '=', Documento.trim().toUpperCase())
      .executeTakeFirst();
    return { ...rest, IdPersona: person ? Number(person.IdPersona) : 0 };
  };
  const checkRange = (q: ReportQuery) => {
    if (q.hasta < q.desde)
      throw new ApiError('VALIDATION_FAILED', { fields: { hasta: { messageKey: 'dining.reportRange' } } });
    if (daysBetween(q.desde, q.hasta) >= REPORT_MAX_DAYS)
      throw new ApiError('VALIDATION_FAILED', {
        fields: { hasta: { messageKey: 'dining.reportTooLong', params: { days: REPORT_MAX_DAYS } } },
      });
  };

  fastify.get<{ Querystring: ReportQuery & { Documento?: string; skip?: number; take?: number } }>(
    '/comedor/reporte',
    {
      schema: {
        tags: ['dining'],
        summary:
          'The consumption report: served meals within the filters, their totals and cost split, meals per day and service',
        description:
          'Amounts in cents; moneda is the client’s currency they are shown in (its symbol and decimals). A contractor sees its company’s meals only. Totals are over every row the filters keep, not the page.',
        querystring: objectOf(
          { ...reportQuery, skip: field.integer(0, INT32.max), take: field.integer(1, 200) },
          ['desde', 'hasta'],
        ),
        response: result(
          '{ data, totalCount, totales, porDia, moneda: { IdMoneda, Simbolo, Decimales } | null }',
        ),
      },
    },
    async (request) => {
      const office = diningOffice(request.principal, DINING_ROUTES.report);
      const { skip = 0, take = 25, ...q } = request.query;
      checkRange(q);
      return {
        result: {
          ...(await consumptionReport(db, tables, office, await byDocument(office, q), { skip, take })),
          moneda: (await clientCurrency(db, fastify.registry, office.clientId)) ?? null,
        },
      };
    },
  );

  fastify.get<{ Querystring: ReportQuery & { Documento?: string } }>(
    '/comedor/reporte/excel',
    {
      schema: {
        tags: ['dining'],
        summary:
          'The consumption report as an Excel workbook, streamed (every row, oldest first, a totals row last)',
        querystring: objectOf(reportQuery, ['desde', 'hasta']),
        response: { 200: { description: 'The .xlsx file', type: 'string', format: 'binary' } },
      },
    },
    async (request, reply) => {
      const office = diningOffice(request.principal, DINING_ROUTES.report);
      const q = await byDocument(office, request.query);
      checkRange(q);
      const language = request.language;
      // Amounts in the client's currency: its code beside their headers, rounded to its decimals.
      const currency = await clientCurrency(db, fastify.registry, office.clientId);
      const decimals = currency?.Decimales ?? 2;
      const h = (key: string, cents = false) =>
        `${t(language, `dining.report.${key}`)}${cents && currency ? ` (${currency.IdMoneda})` : ''}`;
      const column = (
        key: string,
        kind: ExportColumn['kind'],
        width: number,
        cents = false,
      ): ExportColumn => ({
        header: h(key, cents),
        kind,
        width,
        value: (row) => {
          const v = row[key];
          if (v == null) return null;
          return cents ? Number((Number(v) / 100).toFixed(decimals)) : (v as string | number);
        },
      });
      const columns = [
        column('Fecha', 'date', 12),
        column('Hora', 'text', 10),
        column('Comedor', 'text', 30),
        column('Servicio', 'text', 20),
        column('Documento', 'text', 14),
        column('Nombres', 'text', 34),
        column('Compania', 'text', 34),
        column('Categoria', 'text', 16),
        column('ImporteTotal', 'number', 12, true),
        column('ImporteCompania', 'number', 14, true),
        column('ImporteTrabajador', 'number', 14, true),
        column('Origen', 'text', 8),
        column('Observacion', 'text', 30),
      ];
      // The totals row is summed from the very rows written, in cents.
      const totals = { consumos: 0, importe: 0, compania: 0, trabajador: 0 };
      async function* withTotals() {
        for await (const rows of reportBatches(db, tables, office, q)) {
          for (const r of rows) {
            totals.consumos++;
            totals.importe += r.ImporteTotal;
            totals.compania += r.ImporteCompania;
            totals.trabajador += r.ImporteTrabajador;
          }
          yield rows.map((r) => ({ ...r, Origen: t(language, `enums.markingOrigin.${r.Origen}`) }));
        }
        yield [
          {
            Fecha: null,
            Nombres: `${h('total')}: ${totals.consumos}`,
            ImporteTotal: totals.importe,
            ImporteCompania: totals.compania,
            ImporteTrabajador: totals.trabajador,
          },
        ];
      }
      return sendWorkbook(
        reply,
        `consumos-${q.desde}-${q.hasta}.xlsx`,
        `${h('fileName')} ${q.desde} ${q.hasta}.xlsx`,
        (stream) =>
          writeWorkbook(stream, columns, withTotals(), 'data', `${h('title')} ${q.desde} – ${q.hasta}`),
      );
    },
  );
}
