import type { FastifyReply } from 'fastify';
import { requestNumber } from '../../../shared/accreditation.js';
import type { Language } from '../../../shared/constants.js';
import type { Row } from '../../crud/types.js';
import { t } from '../../i18n.js';
import { type ExportColumn, neutralise, sendWorkbookBase64, writeWorkbook } from '../../services/excel.js';

/** The requests list's columns, headers and statuses in the caller's language. */
export function requestColumns(language: Language): ExportColumn[] {
  const text = (key: string, width = 16, value?: (row: Row) => string | null): ExportColumn => ({
    header: t(language, `accreditation.columns.${key}`),
    kind: 'text',
    width,
    value: (row) => {
      const v = value ? value(row) : row[key];
      return v === null || v === undefined ? null : neutralise(String(v));
    },
  });
  const date = (key: string): ExportColumn => ({
    header: t(language, `accreditation.columns.${key}`),
    kind: key === 'FechaSolicitud' ? 'datetime' : 'date',
    width: 14,
    value: (row) => (row[key] as string | null) ?? null,
  });
  return [
    text('NumeroSolicitud', 12, (row) => requestNumber(row.IdSolicitud as number)),
    text('IdEntidad', 12, (row) => t(language, `accreditation.entities.${row.IdEntidad}`)),
    text('Nombres', 30),
    text('Documento', 14),
    text('CompaniaContratista', 30),
    text('NumeroContrato', 16),
    text('DescripcionPerfil', 24),
    date('FechaInicio'),
    date('FechaFin'),
    date('FechaSolicitud'),
    text('EstadoAprobacion', 12, (row) => t(language, `enums.requestStatus.${row.EstadoAprobacion}`)),
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
