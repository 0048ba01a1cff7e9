import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ENTITY_CODES } from '../../../../shared/accreditation.js';
import type { Language } from '../../../../shared/constants.js';
import type { Row } from '../../../crud/types.js';
import { ApiError } from '../../../errors.js';
import { t } from '../../../i18n.js';
import { SESSION_DIVISION } from '../../../plugins/repository.js';
import { field, objectOf, resultResponses } from '../../../routes/responses.js';
import { columnMaker, type ExportColumn, sendWorkbook, writeWorkbook } from '../../../services/excel.js';
import { screenScope } from '../roles.js';
import { efficiency } from './efficiency.js';

type Query = Record<string, unknown>;

/** The console's efficiency report (spec section 2, /reporte): a profile reaches it through its menu. */
export const REPORT_ROUTE = '/reporte/eficiencia';

const ask = {
  Anio: field.integer(2000, 2100),
  MesDesde: field.integer(1, 12),
  MesHasta: field.integer(1, 12),
  TipoSolicitud: { type: 'string', enum: ['M', 'D', 'A', 'E', 'C'] },
  IdEntidad: { type: 'string', enum: [...ENTITY_CODES] },
  IdDivision: SESSION_DIVISION,
};
const VIEWS = ['meses', 'autorizadores', 'requisitos'] as const;

/**
 * The efficiency-of-approval report: GET /api/reporte/eficiencia (and the same figures at the
 * spec's dashboardseguridad), and its Excel workbook, a view a sheet. The client's profiles
 * whose menu holds the report reach it; a year and a month range of it, never more.
 */
export default async function reportRoutes(fastify: FastifyInstance): Promise<void> {
  const { database, registry } = fastify;
  const tags = ['accreditation'];
  const askOf = (request: FastifyRequest, q: Query) => {
    const scope = screenScope(request.principal, REPORT_ROUTE);
    const year = q.Anio === undefined ? new Date(fastify.auth.now()).getUTCFullYear() : Number(q.Anio);
    const from = q.MesDesde === undefined ? 1 : Number(q.MesDesde);
    const to = q.MesHasta === undefined ? 12 : Number(q.MesHasta);
    if (from > to)
      throw new ApiError('VALIDATION_FAILED', {
        fields: { MesHasta: { messageKey: 'reports.refusals.monthRange' } },
      });
    return {
      clientId: scope.clientId,
      divisionId: scope.divisionId,
      year,
      from,
      to,
      kind: q.TipoSolicitud as string | undefined,
      entity: q.IdEntidad as string | undefined,
    };
  };
  const schema = (summary: string) => ({
    tags,
    summary,
    description:
      'Anio (this year by default), MesDesde and MesHasta (1–12, one year at most), optionally TipoSolicitud and IdEntidad. Answers meses [{ Mes, Solicitudes, Decisiones, Aprobadas, Observadas, Rechazadas, Devueltas, Porcentaje…, PromedioHoras, MaximoHoras }], total, autorizadores and requisitos (slowest first). Attention counts from the sending to the decision, and from a correction back to the next decision.',
    querystring: objectOf(ask),
    response: resultResponses('The report', [400, 401, 403]),
  });

  for (const path of ['/reporte/eficiencia', '/acreditacionsolicitud/dashboardseguridad'])
    fastify.get<{ Querystring: Query }>(
      path,
      {
        schema: schema(
          'The efficiency of approval: requests a month, outcomes, attention times, per authoriser and requirement',
        ),
      },
      async (request) => ({ result: await efficiency(database, registry, askOf(request, request.query)) }),
    );

  fastify.get<{ Querystring: Query }>(
    '/reporte/eficiencia/excel',
    {
      schema: {
        ...schema(
          'The efficiency report as an .xlsx workbook: one view (Vista: meses, autorizadores, requisitos)',
        ),
        querystring: objectOf({ ...ask, Vista: { type: 'string', enum: [...VIEWS] } }),
        response: { 200: { description: 'The .xlsx file', type: 'string', format: 'binary' } },
      },
    },
    async (request, reply) => {
      const asked = askOf(request, request.query);
      const view = (request.query.Vista as (typeof VIEWS)[number] | undefined) ?? 'meses';
      const report = await efficiency(database, registry, asked);
      const rows = (view === 'meses'
        ? [...report.meses, { Mes: t(request.language, 'reports.total'), ...report.total }]
        : view === 'autorizadores'
          ? report.autorizadores
          : report.requisitos) as unknown as Row[];
      const name = `${t(request.language, `reports.files.${view}`)} ${asked.year}`;
      return sendWorkbook(reply, `eficiencia-${view}-${asked.year}.xlsx`, `${name}.xlsx`, (stream) =>
        writeWorkbook(
          stream,
          columnsOf(view, request.language),
          (async function* () {
            yield rows;
          })(),
          'data',
          name,
        ),
      );
    },
  );
}

/** A view's columns, headers in the caller's language. */
function columnsOf(view: (typeof VIEWS)[number], language: Language): ExportColumn[] {
  const column = columnMaker(language, 'reports.columns');
  const text = (key: string, width: number) => column(key, 'text', width);
  const number = (key: string) => column(key, 'number', 13);
  const first =
    view === 'meses'
      ? [text('Mes', 12), number('Solicitudes')]
      : view === 'autorizadores'
        ? [text('IdUsuario', 14), text('Nombre', 30)]
        : [text('Requisito', 36)];
  return [
    ...first,
    ...[
      'Decisiones',
      'Aprobadas',
      'Observadas',
      'Rechazadas',
      'Devueltas',
      'PorcentajeAprobadas',
      'PorcentajeObservadas',
      'PorcentajeRechazadas',
      'PromedioHoras',
      'MaximoHoras',
    ].map(number),
  ];
}
