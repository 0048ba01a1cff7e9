import { requestNumber } from '../../../shared/accreditation.js';
import type { Language } from '../../../shared/constants.js';
import type { Row } from '../../crud/types.js';
import { t } from '../../i18n.js';
import { type ExportColumn, neutralise, workbookBase64 } from '../../services/excel.js';

/** exportarExcelSolicitudPersonas: the requests list, headers and statuses in the caller's language. */
export async function requestsWorkbook(
  rows: Row[],
  language: Language,
  options: { Titulo?: unknown; NombreArchivo?: unknown },
  /** The site's time zone, in which the request's instants are written. */
  timeZone?: string,
) {
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
  const columns: ExportColumn[] = [
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
  const title = typeof options.Titulo === 'string' && options.Titulo ? options.Titulo : undefined;
  const stamp = new Date().toISOString().slice(0, 10).replaceAll('-', '');
  const base = (
    typeof options.NombreArchivo === 'string' && options.NombreArchivo
      ? options.NombreArchivo
      : t(language, 'accreditation.requests')
  ).replace(/[\\/:*?"<>|]/g, '');
  return {
    fileBase64: await workbookBase64(columns, rows, title, timeZone),
    fileName: `${base} ${stamp}.xlsx`,
  };
}
