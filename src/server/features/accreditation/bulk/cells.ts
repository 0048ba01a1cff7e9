import type { Language } from '../../../../shared/constants.js';
import { messageKeyOf } from '../../../../shared/errors.js';
import type { FieldProblem } from '../../../../shared/validation.js';
import type { Row } from '../../../crud/types.js';
import type { Db } from '../../../db/connection.js';
import { ApiError } from '../../../errors.js';
import { t } from '../../../i18n.js';
import type { Registry } from '../../../registry.js';
import type { CellValue } from '../../../services/upload-reader.js';
import type { BulkColumn } from './columns.js';

/** A row's problems by cell (its column's key), or '*' for the row. */
export type RowErrors = Record<string, FieldProblem>;

/** The cell a holder's field is read from. */
const HOLDER_CELL: Record<string, string> = { IdPersona: 'Documento', IdVehiculo: 'Placa' };

/** A row's cells as a request body, and the cells that could not be read. */
export function toBody(
  columns: BulkColumn[],
  cells: Record<string, CellValue>,
  base: Row,
): { body: Row; errors: RowErrors } {
  const body: Row = { ...base };
  const detail: Array<{ IdDatoEvaluar: number; Valor: string }> = [];
  const errors: RowErrors = {};
  for (const column of columns) {
    const raw = cells[column.key];
    if (raw === null || raw === undefined) continue;
    let value: string | number | undefined;
    if (column.choices) {
      const text = String(raw).trim().toLocaleUpperCase('es');
      const found = column.choices.find(
        (c) => c.label.toLocaleUpperCase('es') === text || String(c.value).toLocaleUpperCase('es') === text,
      );
      if (!found) {
        errors[column.key] = { messageKey: 'bulk.errors.unknownChoice' };
        continue;
      }
      value = found.value;
    } else if (column.kind === 'date') {
      const text = String(raw).trim();
      const dmy = /^(\d{1,2})[/-](\d{1,2})[/-](\d{4})$/.exec(text);
      value = dmy ? `${dmy[3]}-${dmy[2].padStart(2, '0')}-${dmy[1].padStart(2, '0')}` : text;
      if (typeof raw === 'number') {
        errors[column.key] = { messageKey: 'validation.format.date' };
        continue;
      }
    } else if (column.json === 'integer' || column.json === 'number') {
      const n = typeof raw === 'number' ? raw : Number(String(raw).trim().replace(',', '.'));
      value = Number.isFinite(n) ? n : String(raw);
    } else value = typeof raw === 'number' ? String(raw) : raw;
    if (column.datum) detail.push({ IdDatoEvaluar: column.datum, Valor: String(value) });
    else body[column.key] = value;
  }
  body.Detalle = JSON.stringify(detail);
  return { body, errors };
}

/** Where an error of the request service lands: the cell of its field, or the row. */
export function errorsOf(error: unknown, keys: Set<string>): RowErrors {
  if (!(error instanceof ApiError)) throw error;
  const out: RowErrors = {};
  const fields = (error.fields ?? {}) as Record<string, FieldProblem>;
  for (const [field, problem] of Object.entries(fields)) {
    // A visit's visitor is its row's: Visitantes.0.Documento is the row's Documento.
    const own = field.replace(/^Visitantes\.0\./, '');
    const key = own.startsWith('Detalle.') ? `D${own.slice(8)}` : (HOLDER_CELL[own] ?? own);
    out[keys.has(key) ? key : '*'] ??= problem;
  }
  if (!Object.keys(out).length)
    out['*'] = {
      messageKey: error.messageKey ?? messageKeyOf(error.code),
      params: error.params as FieldProblem['params'],
    };
  else if (error.code === 'DUPLICATE' && error.messageKey)
    out['*'] = { messageKey: error.messageKey, params: error.params as FieldProblem['params'] };
  return out;
}

/** A stored row as shown: its cells, its errors by column in words, its state. */
export function worded(row: Row, language: Language): Row {
  const errors = row.Errores ? (JSON.parse(String(row.Errores)) as RowErrors) : {};
  return {
    Fila: row.Fila,
    Documento: row.Documento,
    Estado: row.Estado,
    IdSolicitud: row.IdSolicitud ?? null,
    Datos: row.Datos ? JSON.parse(String(row.Datos)) : {},
    Errores: Object.fromEntries(
      Object.entries(errors).map(([key, p]) => [key, t(language, p.messageKey, p.params)]),
    ),
  };
}

export interface Counts {
  loaded: number;
  /** Rows the dry run has not checked yet. */
  toCheck: number;
  observed: number;
  processed: number;
  successful: number;
  toProcess: number;
}

/** Section 4's counts of an upload. */
export async function uploadCounts(
  db: Db,
  registry: Registry,
  upload: { IdCliente: number; IdCargaMasiva: number; Filas: number },
): Promise<Counts> {
  const rows = (await db
    .selectFrom(registry.require('bulk-upload-row').table)
    .select(['Estado', (eb) => eb.fn.countAll<number | string>().as('n')])
    .where('IdCliente', '=', upload.IdCliente)
    .where('IdCargaMasiva', '=', upload.IdCargaMasiva)
    .groupBy('Estado')
    .execute()) as Array<{ Estado: string; n: number | string }>;
  const n = (s: string) => Number(rows.find((r) => r.Estado === s)?.n ?? 0);
  return {
    loaded: upload.Filas,
    toCheck: n('P'),
    observed: n('E') + n('F'),
    processed: n('S') + n('F'),
    successful: n('S'),
    toProcess: n('V'),
  };
}
