import type { FastifyReply } from 'fastify';
import { requestNumber } from '../../../shared/accreditation.js';
import type { Language } from '../../../shared/constants.js';
import type { Row } from '../../crud/types.js';
import { t } from '../../i18n.js';
import { columnMaker, type ExportColumn, sendWorkbookBase64, writeWorkbook } from '../../services/excel.js';

/** The requests list's columns, headers and statuses in the caller's language. */
export function requestColumns(language: Language): ExportColumn[] {
  const column = columnMaker(language, 'accreditation.columns');
  return [
    column('NumeroSolicitud', 'text', 12, (row) => requestNumber(row.IdSolicitud as number)),
    column('IdEntidad', 'text', 12, (row) => t(language, `accreditation.entities.${row.IdEntidad}`)),
    column('Nombres', 'text', 30),
    column('Documento', 'text', 14),
    column('CompaniaContratista', 'text', 30),
    column('NumeroContrato', 'text', 16),
    column('DescripcionPerfil', 'text', 24),
    column('FechaInicio', 'date', 14),
    column('FechaFin', 'date', 14),
    column('FechaSolicitud', 'datetime', 14),
    column('EstadoAprobacion', 'text', 12, (row) =>
      t(language, `enums.requestStatus.${row.EstadoAprobacion}`),
    ),
  ];
}

/**
 * exportarExcelSolicitudPersonas (and the other kinds' exports): every request the list's filters
 * select, streamed into the spec's { fileBase64, fileName } answer a batch at a time.
 */
export function sendRequestsWorkbook(
  reply: FastifyReply,
  batches: AsyncIterable<Row[]>,
  language: Language,
  options: { Titulo?: unknown; NombreArchivo?: unknown },
  /** The site's time zone, in which the request's instants are written. */
  timeZone?: string,
) {
  const title = typeof options.Titulo === 'string' && options.Titulo ? options.Titulo : undefined;
  const stamp = new Date().toISOString().slice(0, 10).replaceAll('-', '');
  const base = (
    typeof options.NombreArchivo === 'string' && options.NombreArchivo
      ? options.NombreArchivo
      : t(language, 'accreditation.requests')
  ).replace(/[\\/:*?"<>|]/g, '');
  return sendWorkbookBase64(reply, `${base} ${stamp}.xlsx`, (stream) =>
    writeWorkbook(stream, requestColumns(language), batches, 'data', title, timeZone),
  );
}
