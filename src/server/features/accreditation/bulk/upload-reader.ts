/**
 * An uploaded workbook, read from disk a row at a time. The zip is opened by its central directory
 * and its entries are inflated one by one in the order the reader needs them (relationships,
 * workbook, shared strings, styles, then the first sheet), each into exceljs' own parsers.
 *
 * exceljs' stream reader is not used as a whole: it reads the zip front to back with unzipper,
 * whose entry stream ends as soon as the last bytes are parsed, even when entries it already
 * found are still waiting to be taken. Under load this dropped the last entries (a workbook with
 * no sheets list, read as damaged). It also parks sheets that come before the shared strings in
 * temporary files that stay behind when the reading stops early.
 */
import type { Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import { ApiError } from '../../../errors.js';
import { FIRST_ROW } from './workbook.js';
import { entryStream, headOf, isZip, type ZipEntry, type ZipRefusals, zipEntries } from './zip.js';

const refuse = (messageKey: string, params?: Record<string, string | number>) =>
  new ApiError('VALIDATION_FAILED', { messageKey, params, fields: { file: { messageKey, params } } });

/** A zip starts with PK\3\4; an encrypted workbook (or an old .xls) is an OLE compound file. */
async function checkKind(path: string): Promise<void> {
  const head = await headOf(path);
  if (head.length >= 8 && head.equals(Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1])))
    throw refuse('bulk.errors.encrypted');
  if (!isZip(head)) throw refuse('bulk.errors.notXlsx');
}

const refusals: ZipRefusals = {
  corrupt: () => refuse('bulk.errors.corrupt'),
  tooLarge: () => refuse('bulk.errors.tooLarge'),
};

/** The private parsers of exceljs' reader this one feeds, entry by entry. */
type ReaderEvent = { eventType: string; value: unknown };

interface ReaderParts {
  options: Partial<ExcelJS.stream.xlsx.WorkbookStreamReaderOptions>;
  workbookRels?: Array<{ Id: string; Target: string }>;
  model?: { sheets?: Array<{ rId: string }> };
  _parseRels(entry: Readable): Promise<void>;
  _parseWorkbook(entry: Readable): Promise<void>;
  _parseSharedStrings(entry: Readable): AsyncGenerator<ReaderEvent>;
  _parseStyles(entry: Readable): Promise<void>;
  _parseWorksheet(iterator: Readable, sheetNo: string): Generator<ReaderEvent>;
}

/** exceljs' stream reader, given its entries from the central directory instead of a front-to-back parse. */
class UploadReader extends ExcelJS.stream.xlsx.WorkbookReader {
  constructor(
    private readonly path: string,
    private readonly entries: Map<string, ZipEntry>,
    options: Partial<ExcelJS.stream.xlsx.WorkbookStreamReaderOptions>,
  ) {
    super(path, options);
  }

  override async *parse(): AsyncGenerator<ReaderEvent> {
    const parts = this as unknown as ReaderParts;
    const opened: Readable[] = [];
    const read = (name: string): Readable | null => {
      const entry = this.entries.get(name);
      if (!entry) return null;
      const stream = entryStream(this.path, entry, refusals);
      opened.push(stream);
      return stream;
    };
    try {
      const rels = read('xl/_rels/workbook.xml.rels');
      const workbook = read('xl/workbook.xml');
      if (!rels || !workbook) throw refuse('bulk.errors.corrupt');
      await parts._parseRels(rels);
      await parts._parseWorkbook(workbook);
      const strings = read('xl/sharedStrings.xml');
      if (strings) yield* parts._parseSharedStrings(strings);
      const styles = read('xl/styles.xml');
      if (styles) await parts._parseStyles(styles);
      for (const sheet of parts.model?.sheets ?? []) {
        const target = parts.workbookRels?.find((rel) => rel.Id === sheet.rId)?.Target ?? '';
        const name = target.startsWith('/') ? target.slice(1) : `xl/${target}`;
        const number = /^xl\/worksheets\/sheet(\d+)\.xml$/.exec(name)?.[1];
        const stream = number ? read(name) : null;
        if (number && stream) yield* parts._parseWorksheet(stream, number);
      }
    } finally {
      for (const stream of opened) stream.destroy();
    }
  }
}

/** What a workbook may hold once inflated: room for the row limit's rows, and never less than 64 MB. */
export const inflatedLimit = (maxRows: number) => Math.max(64 * 1024 * 1024, maxRows * 20 * 1024);

/** The longest text kept from a cell: longer than any field takes, so its check still refuses it. */
const CELL_TEXT_MAX = 2000;

/** A cell's value as read: text, a number, a date (ISO), or nothing. */
export type CellValue = string | number | null;

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

export interface ReadSheet {
  keys: string[];
  signature: string | null;
  /** Each data row's number in the sheet and its cells by key (blank rows left out). */
  rows: Array<{ row: number; cells: Record<string, CellValue> }>;
}

/**
 * Reads the first sheet of an uploaded workbook from disk as a stream, a row at a time: its keys
 * row, the signature beside it, and the data rows. A file that is not a zip, an encrypted one, a
 * damaged one, one that would inflate beyond what `maxRows` rows need (a zip bomb), a cell holding
 * a formula or more rows than `maxRows` is refused with its message.
 */
export async function readSheet(path: string, maxRows: number): Promise<ReadSheet> {
  await checkKind(path);
  const entries = await zipEntries(path, inflatedLimit(maxRows), refusals);
  const out: ReadSheet = { keys: [], signature: null, rows: [] };
  const reader = new UploadReader(path, entries, {
    sharedStrings: 'cache',
    hyperlinks: 'ignore',
    styles: 'cache',
    worksheets: 'emit',
    entries: 'ignore',
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
