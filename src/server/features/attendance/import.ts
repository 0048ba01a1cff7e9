import ExcelJS from 'exceljs';
import type { Language } from '../../../shared/constants.js';
import { isIsoDate } from '../../../shared/dates.js';
import type { FieldProblem } from '../../../shared/validation.js';
import type { CrudService } from '../../crud/service.js';
import type { Db } from '../../db/connection.js';
import { ApiError } from '../../errors.js';
import { t } from '../../i18n.js';
import type { Principal } from '../../principal.js';
import type { Registry } from '../../registry.js';
import { type CellValue, readSheet } from '../../services/upload-reader.js';
import type { AttendanceTables } from './compute.js';
import type { AttendanceOffice } from './office.js';

/** Most rows one justification file holds. */
export const IMPORT_MAX_ROWS = 5_000;
/** The file's columns, by the key its first row names them with (the template's). */
export const IMPORT_COLUMNS = ['Documento', 'Fecha', 'Tipo', 'Horas', 'Observacion'] as const;

type Row = Record<string, unknown>;

/** A date cell: an ISO date, or dd/mm/yyyy as typed. */
function dateOf(value: CellValue): string | undefined {
  if (value == null) return undefined;
  const text = String(value).trim();
  const dmy = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(text);
  const iso = dmy ? `${dmy[3]}-${dmy[2].padStart(2, '0')}-${dmy[1].padStart(2, '0')}` : text;
  return isIsoDate(iso) ? iso : undefined;
}

/** The template: keys on the first row (what the reader matches), headers in the user's language on the second. */
export async function importTemplate(language: Language): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('justificaciones');
  sheet.addRow([...IMPORT_COLUMNS]);
  sheet.addRow(IMPORT_COLUMNS.map((c) => t(language, `attendance.import.columns.${c}`)));
  sheet.getRow(1).hidden = true;
  sheet.getRow(2).font = { bold: true };
  sheet.columns.forEach((c, i) => {
    c.width = [14, 12, 8, 8, 40][i];
  });
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

/**
 * Imports a file of one justification for people of one company (spec section 5: "Justification
 * import requires company and justification"): every row checked as a supervisor's entry would be
 * (the person of the company by document, the date, the justification's rules, counting the file's
 * earlier rows), in one transaction: any row refused and nothing is written, the answer naming
 * each row's problem.
 */
export async function importJustifications(
  db: Db,
  crud: CrudService,
  registry: Registry,
  tables: AttendanceTables,
  office: AttendanceOffice,
  principal: Principal,
  input: { company?: number; justification?: number; path: string },
): Promise<{ importadas: number }> {
  if (!input.company || !input.justification)
    throw new ApiError('VALIDATION_FAILED', { messageKey: 'rules.justificationImport' });
  if (office.companyId !== undefined && office.companyId !== input.company) throw new ApiError('FORBIDDEN');
  const justification = await db
    .selectFrom(tables.justification)
    .select('IdJustificacion')
    .where('IdJustificacion', '=', input.justification)
    .where('IdCliente', '=', office.clientId)
    .executeTakeFirst();
  const company = await db
    .selectFrom(tables.company)
    .select('IdCompania')
    .where('IdCompania', '=', input.company)
    .executeTakeFirst();
  if (!justification || !company) throw new ApiError('NOT_FOUND');
  const sheet = await readSheet(input.path, IMPORT_MAX_ROWS, IMPORT_COLUMNS);
  if (!sheet.keys.includes('Documento') || !sheet.keys.includes('Fecha'))
    throw new ApiError('VALIDATION_FAILED', {
      messageKey: 'attendance.import.columnsMissing',
      fields: { file: { messageKey: 'attendance.import.columnsMissing' } },
    });
  if (!sheet.rows.length)
    throw new ApiError('VALIDATION_FAILED', {
      messageKey: 'attendance.import.empty',
      fields: { file: { messageKey: 'attendance.import.empty' } },
    });
  const documents = [...new Set(sheet.rows.map((r) => String(r.cells.Documento ?? '').trim()))];
  const people = (await db
    .selectFrom(tables.person)
    .select(['IdPersona', 'Documento'])
    .where('IdCliente', '=', office.clientId)
    .where('IdCompania', '=', input.company)
    .where('Documento', 'in', documents.length ? documents : [''])
    .execute()) as Row[];
  const personOf = new Map(people.map((p) => [String(p.Documento), Number(p.IdPersona)]));
  const entity = registry.require('person-justification');
  const problems: Record<string, FieldProblem> = {};
  const problem = (row: number, column: string, messageKey: string, params?: FieldProblem['params']) => {
    problems[`${row}.${column}`] = { messageKey, ...(params && { params }) };
  };
  await crud.transaction(async (trx) => {
    const within = crud.within(trx);
    for (const { row, cells } of sheet.rows) {
      const person = personOf.get(String(cells.Documento ?? '').trim());
      const date = dateOf(cells.Fecha);
      const kind = String(cells.Tipo ?? 'F')
        .trim()
        .toUpperCase();
      if (person === undefined) problem(row, 'Documento', 'attendance.import.personNotFound');
      if (!date) problem(row, 'Fecha', 'attendance.import.badDate');
      if (!['F', 'T', 'H'].includes(kind)) problem(row, 'Tipo', 'attendance.import.badKind');
      if (person === undefined || !date || !['F', 'T', 'H'].includes(kind)) continue;
      const hours = cells.Horas == null ? undefined : Number(cells.Horas);
      try {
        await within.create(
          entity,
          {
            IdPersona: person,
            IdJustificacion: input.justification,
            Fecha: date,
            Tipo: kind,
            ...(hours !== undefined && { Horas: hours }),
            ...(cells.Observacion != null && { Observacion: String(cells.Observacion) }),
          },
          principal,
          { set: { Origen: 'I' } },
        );
      } catch (error) {
        if (!(error instanceof ApiError) || error.status >= 500) throw error;
        const field = Object.entries(error.fields ?? {})[0];
        if (field) problem(row, field[0], field[1].messageKey, field[1].params);
        else problem(row, 'Documento', error.messageKey ?? 'errors.VALIDATION_FAILED', error.params);
      }
    }
    // Any row refused: nothing of the file is kept.
    if (Object.keys(problems).length)
      throw new ApiError('VALIDATION_FAILED', {
        messageKey: 'attendance.import.rowErrors',
        params: { count: Object.keys(problems).length },
        fields: problems,
      });
  });
  return { importadas: sheet.rows.length };
}
