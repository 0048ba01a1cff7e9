/**
 * The bulk upload's workbook: the template written for a contract and profile (exceljs, as the
 * exports), and an uploaded file read back with exceljs' streaming reader, a row at a time.
 */
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import ExcelJS from 'exceljs';
import type { Language } from '../../../../shared/constants.js';
import { ApiError } from '../../../errors.js';
import { t } from '../../../i18n.js';
import type { BulkColumn } from './columns.js';

/** The template's signature (hidden, after the last column of the keys' row): which contract and profile. */
export const signature = (contract: number, profile: number) => `ACRBULK:${contract}:${profile}`;
/** The first data row (row 1: the hidden keys; row 2: the headers). */
export const FIRST_ROW = 3;

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
  info: { contract: number; contractName: string; profile: number; profileName: string; entity: string },
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
  keys.getCell(columns.length + 1).value = signature(info.contract, info.profile);
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
  instructions.getColumn(2).width = 14;
  instructions.getColumn(3).width = 12;
  instructions.addRow([t(language, 'bulk.instructions.title')]).font = { bold: true, size: 14 };
  instructions.addRow([]);
  instructions.addRow([t(language, 'bulk.instructions.contract'), info.contractName]);
  instructions.addRow([t(language, 'bulk.instructions.profile'), info.profileName]);
  instructions.addRow([t(language, 'bulk.instructions.entity'), info.entity]);
  instructions.addRow([]);
  for (const line of ['line1', 'line2', 'line3', 'line4', 'line5'])
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
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

/** A cell's value as read: text, a number, a date (ISO), or nothing. */
export type CellValue = string | number | null;

export interface ReadSheet {
  keys: string[];
  signature: string | null;
  /** Each data row's number in the sheet and its cells by key (blank rows left out). */
  rows: Array<{ row: number; cells: Record<string, CellValue> }>;
}

const refuse = (messageKey: string, params?: Record<string, string | number>) =>
  new ApiError('VALIDATION_FAILED', { messageKey, params, fields: { file: { messageKey, params } } });

/** A zip starts with PK\3\4; an encrypted workbook (or an old .xls) is an OLE compound file. */
async function checkKind(path: string): Promise<void> {
  const handle = await open(path, 'r');
  try {
    const head = Buffer.alloc(8);
    const { bytesRead } = await handle.read(head, 0, 8, 0);
    if (bytesRead >= 8 && head.equals(Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1])))
      throw refuse('bulk.errors.encrypted');
    if (bytesRead < 4 || head.readUInt32LE(0) !== 0x04034b50) throw refuse('bulk.errors.notXlsx');
  } finally {
    await handle.close();
  }
}

/**
 * A zip bomb is refused before anything is inflated: the central directory's uncompressed sizes
 * must add up to at most `limit` bytes (an entry too large for 32 bits counts as too large).
 */
async function checkZipSizes(path: string, limit: number): Promise<void> {
  const handle = await open(path, 'r');
  try {
    const { size } = await handle.stat();
    const tailLength = Math.min(size, 65_557);
    const tail = Buffer.alloc(tailLength);
    await handle.read(tail, 0, tailLength, size - tailLength);
    let end = -1;
    for (let i = tailLength - 22; i >= 0; i--)
      if (tail.readUInt32LE(i) === 0x06054b50) {
        end = i;
        break;
      }
    if (end < 0) throw refuse('bulk.errors.corrupt');
    const entries = tail.readUInt16LE(end + 10);
    const directorySize = tail.readUInt32LE(end + 12);
    const directoryOffset = tail.readUInt32LE(end + 16);
    if (directoryOffset + directorySize > size) throw refuse('bulk.errors.corrupt');
    const directory = Buffer.alloc(directorySize);
    await handle.read(directory, 0, directorySize, directoryOffset);
    let total = 0;
    let at = 0;
    for (let n = 0; n < entries; n++) {
      if (at + 46 > directory.length || directory.readUInt32LE(at) !== 0x02014b50)
        throw refuse('bulk.errors.corrupt');
      const uncompressed = directory.readUInt32LE(at + 24);
      total += uncompressed === 0xffffffff ? Number.POSITIVE_INFINITY : uncompressed;
      if (total > limit) throw refuse('bulk.errors.tooLarge');
      at +=
        46 +
        directory.readUInt16LE(at + 28) +
        directory.readUInt16LE(at + 30) +
        directory.readUInt16LE(at + 32);
    }
  } finally {
    await handle.close();
  }
}

/** What a workbook may hold once inflated: room for the row limit's rows, and never less than 64 MB. */
export const inflatedLimit = (maxRows: number) => Math.max(64 * 1024 * 1024, maxRows * 20 * 1024);

/** The longest text kept from a cell: longer than any field takes, so its check still refuses it. */
const CELL_TEXT_MAX = 2000;

function cellValue(value: ExcelJS.CellValue): CellValue {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.toISOString().slice(0, 10);
  if (typeof value === 'number') return value;
  if (typeof value === 'boolean') return value ? 'S' : 'N';
  if (typeof value === 'string') return value.trim() === '' ? null : value.slice(0, CELL_TEXT_MAX);
  if (typeof value === 'object' && 'richText' in value)
    return (
      value.richText
        .map((r) => r.text)
        .join('')
        .slice(0, CELL_TEXT_MAX) || null
    );
  if (typeof value === 'object' && 'text' in value) return String(value.text);
  if (typeof value === 'object' && 'error' in value) return null;
  return String(value);
}

/**
 * Reads the first sheet of an uploaded workbook from disk as a stream, a row at a time: its keys
 * row, the signature beside it, and the data rows. A file that is not a zip, an encrypted one, a
 * damaged one, one that would inflate beyond what `maxRows` rows need (a zip bomb), a cell holding
 * a formula or more rows than `maxRows` is refused with its message.
 */
export async function readSheet(path: string, maxRows: number): Promise<ReadSheet> {
  await checkKind(path);
  await checkZipSizes(path, inflatedLimit(maxRows));
  const out: ReadSheet = { keys: [], signature: null, rows: [] };
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(createReadStream(path), {
    sharedStrings: 'cache',
    hyperlinks: 'ignore',
    styles: 'cache',
    worksheets: 'emit',
    entries: 'emit',
  });
  let sheets = 0;
  try {
    for await (const sheet of reader) {
      if (sheets++ > 0) break;
      for await (const row of sheet as AsyncIterable<ExcelJS.Row>) {
        if (row.number === 1) {
          const values = row.values as ExcelJS.CellValue[];
          for (let i = 1; i < values.length; i++) {
            const v = cellValue(values[i]);
            if (typeof v === 'string' && v.startsWith('ACRBULK:')) out.signature = v;
            else out.keys[i - 1] = v === null ? '' : String(v);
          }
          continue;
        }
        if (row.number < FIRST_ROW) continue;
        const cells: Record<string, CellValue> = {};
        let any = false;
        row.eachCell({ includeEmpty: false }, (cell, col) => {
          if (cell.type === ExcelJS.ValueType.Formula || (cell as { formula?: string }).formula)
            throw refuse('bulk.errors.formula', { cell: cell.address });
          const key = out.keys[col - 1];
          if (!key) return;
          const v = cellValue(cell.value);
          if (v !== null) {
            cells[key] = v;
            any = true;
          }
        });
        if (!any) continue;
        if (out.rows.length >= maxRows) throw refuse('bulk.errors.tooManyRows', { max: maxRows });
        out.rows.push({ row: row.number, cells });
      }
    }
  } catch (error) {
    if (error instanceof ApiError) throw error;
    throw refuse('bulk.errors.corrupt');
  }
  if (!sheets) throw refuse('bulk.errors.corrupt');
  return out;
}
