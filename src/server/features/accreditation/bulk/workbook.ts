/**
 * The bulk upload's workbook: the template written for a contract and profile (exceljs, as the
 * exports). An uploaded file is read back by `upload-reader.ts`.
 */
import ExcelJS from 'exceljs';
import type { Language } from '../../../../shared/constants.js';
import { t } from '../../../i18n.js';
import { FIRST_ROW } from '../../../services/upload-reader.js';
import type { BulkColumn } from './columns.js';

/**
 * The template's signature (hidden, after the last column of the keys' row): which contract and
 * profile, and for a requirement update the requirement.
 */
export const signature = (contract: number, profile: number, requirement?: number | null) =>
  `ACRBULK:${contract}:${profile}${requirement ? `:R${requirement}` : ''}`;

function letters(index: number): string {
  let out = '';
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26))
    out = String.fromCharCode(65 + ((n - 1) % 26)) + out;
  return out;
}

const HEADER_STYLE: Partial<ExcelJS.Style> = {
  font: { bold: true, color: { argb: 'FFFFFFFF' } },
  fill: { type: 'pattern', pattern: 'solid', fgColor: { argb: 'FF0D3B66' } },
  alignment: { wrapText: true, vertical: 'middle' },
};

/**
 * The template: sheet Datos (a hidden row of keys with the signature, the headers, then empty
 * rows with drop-down lists and date formats down to the row limit), sheet Instrucciones, and a
 * hidden sheet Listas holding each list's texts in the user's language.
 */
export async function templateWorkbook(
  columns: BulkColumn[],
  info: {
    contract: number;
    contractName: string;
    profile: number;
    profileName: string;
    entity: string;
    /** A visit's template: each row one visitor's visit. */
    visit?: boolean;
    /** A requirement update's requirement. */
    requirement?: { id: number; name: string };
  },
  /** The PDFs the attachments zip may hold: each requirement and its file's name. */
  attachments: Array<{ requirement: string; fileName: string }>,
  maxRows: number,
  language: Language,
): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  workbook.creator = 'Acreditación';
  const data = workbook.addWorksheet(t(language, 'bulk.sheets.data'), {
    views: [{ state: 'frozen', ySplit: 2 }],
  });
  const instructions = workbook.addWorksheet(t(language, 'bulk.sheets.instructions'));
  const lists = workbook.addWorksheet(t(language, 'bulk.sheets.lists'), { state: 'veryHidden' });
  const listsName = `'${lists.name}'`;
  // exceljs keeps a sheet's validations by address (a range covers its cells); its types omit the map.
  const validations = (
    data as unknown as { dataValidations: { add(range: string, v: ExcelJS.DataValidation): void } }
  ).dataValidations;

  const keys = data.getRow(1);
  columns.forEach((c, i) => {
    keys.getCell(i + 1).value = c.key;
  });
  keys.getCell(columns.length + 1).value = signature(info.contract, info.profile, info.requirement?.id);
  keys.hidden = true;
  const headers = data.getRow(2);
  columns.forEach((c, i) => {
    const cell = headers.getCell(i + 1);
    cell.value = c.required ? `${c.header} *` : c.header;
    cell.style = HEADER_STYLE;
  });
  headers.height = 32;
  const last = FIRST_ROW + maxRows - 1;
  let listColumn = 0;
  columns.forEach((c, i) => {
    const column = data.getColumn(i + 1);
    column.width = Math.min(40, Math.max(12, c.header.length + 4));
    const range = `${letters(i)}${FIRST_ROW}:${letters(i)}${last}`;
    if (c.kind === 'date') {
      column.numFmt = 'dd/mm/yyyy';
      validations.add(range, {
        type: 'date',
        operator: 'greaterThan',
        allowBlank: true,
        formulae: [new Date(Date.UTC(1900, 0, 1))],
        showErrorMessage: true,
      });
    } else if (c.kind === 'text') column.numFmt = '@';
    if (c.choices?.length) {
      const at = letters(listColumn++);
      c.choices.forEach((choice, row) => {
        lists.getCell(`${at}${row + 1}`).value = choice.label;
      });
      validations.add(range, {
        type: 'list',
        allowBlank: true,
        formulae: [`${listsName}!$${at}$1:$${at}$${c.choices.length}`],
        showErrorMessage: true,
      });
    }
  });
  data.getColumn(columns.length + 1).hidden = true;

  instructions.getColumn(1).width = 45;
  instructions.getColumn(2).width = attachments.length ? 44 : 14;
  instructions.getColumn(3).width = 12;
  instructions.addRow([t(language, 'bulk.instructions.title')]).font = { bold: true, size: 14 };
  instructions.addRow([]);
  instructions.addRow([t(language, 'bulk.instructions.contract'), info.contractName]);
  instructions.addRow([t(language, 'bulk.instructions.profile'), info.profileName]);
  instructions.addRow([t(language, 'bulk.instructions.entity'), info.entity]);
  if (info.requirement)
    instructions.addRow([t(language, 'bulk.instructions.requirementUpdate'), info.requirement.name]);
  instructions.addRow([]);
  const lines = info.requirement
    ? ['renewalLine1', 'line2', 'line3', 'line4', 'line5']
    : ['line1', ...(info.visit ? ['visitLine'] : []), 'line2', 'line3', 'line4', 'line5'];
  for (const line of lines)
    instructions.addRow([
      t(language, `bulk.instructions.${line}`, {
        entity: info.entity.toLocaleLowerCase(language),
        max: maxRows,
      }),
    ]);
  instructions.addRow([]);
  const head = instructions.addRow([
    t(language, 'bulk.instructions.column'),
    t(language, 'bulk.instructions.required'),
    t(language, 'bulk.instructions.kind'),
  ]);
  head.eachCell((cell) => {
    cell.style = HEADER_STYLE;
  });
  for (const c of columns)
    instructions.addRow([
      c.header,
      t(language, c.required ? 'bulk.instructions.yes' : 'bulk.instructions.no'),
      t(language, `bulk.instructions.kinds.${c.kind}`),
    ]);
  if (attachments.length) {
    instructions.addRow([]);
    instructions.addRow([t(language, 'bulk.instructions.fileNames')]).font = { bold: true };
    const fileHead = instructions.addRow([
      t(language, 'bulk.instructions.requirement'),
      t(language, 'bulk.instructions.fileName'),
    ]);
    fileHead.eachCell((cell) => {
      cell.style = HEADER_STYLE;
    });
    for (const a of attachments) instructions.addRow([a.requirement, a.fileName]);
  }
  return Buffer.from(await workbook.xlsx.writeBuffer());
}
