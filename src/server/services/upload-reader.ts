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
import { type Readable, Transform } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import ExcelJS from 'exceljs';
import { ApiError } from '../errors.js';
import { entryStream, headOf, isZip, type ZipEntry, type ZipRefusals, zipEntries } from './zip.js';

/** The first row of data in an uploaded workbook (row 1: the hidden keys or a title; row 2: the headers). */
export const FIRST_ROW = 3;

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

/** How many columns past the template's own a sheet's cells are read in (columns a person inserted). */
export const EXTRA_COLUMNS = 32;

const CELL = /<c\b[^>]*?\br="([A-Z]{1,3})\d+"[^>]*?(?:\/>|>[\s\S]*?<\/c>)/g;

const columnNumber = (letters: string) => {
  let n = 0;
  for (const letter of letters) n = n * 26 + letter.charCodeAt(0) - 64;
  return n;
};

/**
 * A sheet's XML with the cells past column `last` left out, whole rows at a time, before exceljs
 * makes an object of each: no column there is read, and a workbook of many rows of extra cells
 * would otherwise cost their objects (millions, the garbage of which the collector takes its time
 * over).
 */
class CellCut extends Transform {
  private readonly decoder = new StringDecoder('utf8');
  private carry = '';

  constructor(private readonly last: number) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: () => void): void {
    const text = this.carry + this.decoder.write(chunk);
    const end = text.lastIndexOf('</row>');
    if (end < 0) this.carry = text;
    else {
      this.carry = text.slice(end + 6);
      this.push(this.cut(text.slice(0, end + 6)));
    }
    done();
  }

  override _flush(done: () => void): void {
    this.push(this.cut(this.carry + this.decoder.end()));
    done();
  }

  private cut(xml: string): string {
    return xml.replace(CELL, (cell, letters: string) => (columnNumber(letters) > this.last ? '' : cell));
  }
}

/** exceljs' stream reader, given its entries from the central directory instead of a front-to-back parse. */
class UploadReader extends ExcelJS.stream.xlsx.WorkbookReader {
  constructor(
    private readonly path: string,
    private readonly entries: Map<string, ZipEntry>,
    private readonly budget: ReadBudget,
    /** The last column whose cells are read. */
    private readonly lastColumn: number,
    options: Partial<ExcelJS.stream.xlsx.WorkbookStreamReaderOptions>,
  ) {
    super(path, options);
  }

  override async *parse(): AsyncGenerator<ReaderEvent> {
    const parts = this as unknown as ReaderParts;
    const opened: Readable[] = [];
    // Each part is inflated once, and no more than its own bound allows (the sheet streams).
    const read = (name: string, limit: number): Readable | null => {
      const entry = this.entries.get(name);
      if (!entry) return null;
      if (entry.size > limit) throw refuse('bulk.errors.tooLarge');
      const stream = entryStream(this.path, entry, refusals);
      opened.push(stream);
      return stream;
    };
    try {
      const rels = read('xl/_rels/workbook.xml.rels', PART_LIMIT);
      const workbook = read('xl/workbook.xml', PART_LIMIT);
      if (!rels || !workbook) throw refuse('bulk.errors.corrupt');
      await parts._parseRels(rels);
      await parts._parseWorkbook(workbook);
      const strings = read('xl/sharedStrings.xml', this.budget.sharedStrings);
      if (strings) yield* parts._parseSharedStrings(strings);
      const styles = read('xl/styles.xml', PART_LIMIT);
      if (styles) await parts._parseStyles(styles);
      for (const sheet of parts.model?.sheets ?? []) {
        const target = parts.workbookRels?.find((rel) => rel.Id === sheet.rId)?.Target ?? '';
        const name = target.startsWith('/') ? target.slice(1) : `xl/${target}`;
        const number = /^xl\/worksheets\/sheet(\d+)\.xml$/.exec(name)?.[1];
        const stream = number ? read(name, this.budget.sheet) : null;
        if (!number || !stream) continue;
        const cut = stream.pipe(new CellCut(this.lastColumn));
        opened.push(cut);
        stream.once('error', (error) => cut.destroy(error));
        yield* parts._parseWorksheet(cut, number);
      }
    } finally {
      for (const stream of opened) stream.destroy();
    }
  }
}

/** The most a workbook's small parts (its sheets list, relationships, styles) may inflate to. */
const PART_LIMIT = 4 * 1024 * 1024;

/**
 * What reading one uploaded workbook may cost, whatever the file claims (docs/accreditation.md, "Bulk
 * uploads"). Only the parts the reader needs are inflated, each once and within its own bound:
 * the sheet is read as a stream and never held (room for `maxRows` rows of 8 KB, 64 MB at
 * least); the shared strings are held while reading (2 KB a row, 8 MB at least); the rest 4 MB
 * each. Of the sheet only the template's own columns are kept, each cell's text cut at
 * CELL_TEXT_MAX characters, and all the text kept for an upload at most `kept` characters (100 a
 * cell on average, 16 M at most): a file beyond any bound is refused as too large.
 */
export interface ReadBudget {
  sheet: number;
  sharedStrings: number;
  kept: number;
}

export const readBudget = (maxRows: number, columns: number): ReadBudget => ({
  sheet: Math.max(64 * 1024 * 1024, maxRows * 8 * 1024),
  sharedStrings: Math.max(8 * 1024 * 1024, maxRows * 2 * 1024),
  kept: Math.min(16 * 1024 * 1024, Math.max(1024 * 1024, maxRows * Math.max(columns, 1) * 100)),
});

/** What a workbook may hold once inflated, all parts together: the sheet, the strings, and the rest. */
export const inflatedLimit = (maxRows: number) => {
  const budget = readBudget(maxRows, 0);
  return budget.sheet + budget.sharedStrings + 4 * PART_LIMIT;
};

/** The longest text kept from a cell: longer than any field takes, so its check still refuses it. */
const CELL_TEXT_MAX = 2000;

/**
 * A text as kept: cut at CELL_TEXT_MAX characters and copied, so that a cell never holds on to
 * the long string it was cut from (a slice would keep it alive).
 */
function kept(text: string): string {
  if (text.length <= CELL_TEXT_MAX) return text;
  return Buffer.from(text.slice(0, CELL_TEXT_MAX), 'utf8').toString('utf8');
}

/** A cell's value as read: text, a number, a date (ISO), or nothing. */
export type CellValue = string | number | null;

function cellValue(value: ExcelJS.CellValue): CellValue {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.toISOString().slice(0, 10);
  if (typeof value === 'number') return value;
  if (typeof value === 'boolean') return value ? 'S' : 'N';
  if (typeof value === 'string') return value.trim() === '' ? null : kept(value);
  if (typeof value === 'object' && 'richText' in value) {
    let text = '';
    for (const run of value.richText) {
      text += run.text;
      if (text.length > CELL_TEXT_MAX) break;
    }
    return kept(text) || null;
  }
  if (typeof value === 'object' && 'text' in value) return kept(String(value.text));
  if (typeof value === 'object' && 'error' in value) return null;
  return kept(String(value));
}

export interface ReadSheet {
  keys: string[];
  signature: string | null;
  /** Each data row's number in the sheet and its cells by key (blank rows left out). */
  rows: Array<{ row: number; cells: Record<string, CellValue> }>;
}

/**
 * Reads the first sheet of an uploaded workbook from disk as a stream, a row at a time: its keys
 * row, the signature beside it, and the data rows, keeping only the columns whose key is one of
 * `columns` (the template's own; a column is read once, by its first key; no cell past
 * `columns.length + EXTRA_COLUMNS` is read at all). A file that is not a
 * zip, an encrypted one, a damaged one, one beyond its reading budget (a zip bomb, more text than
 * `maxRows` rows of these columns take), a cell holding a formula or more rows than `maxRows` is
 * refused with its message.
 */
export async function readSheet(
  path: string,
  maxRows: number,
  columns: readonly string[],
): Promise<ReadSheet> {
  await checkKind(path);
  const budget = readBudget(maxRows, columns.length);
  const entries = await zipEntries(path, inflatedLimit(maxRows), refusals);
  // Every part the reader may inflate, within its bound, before any is (others are never inflated).
  for (const [name, entry] of entries) {
    const limit = /^xl\/worksheets\/[^/]+\.xml$/.test(name)
      ? budget.sheet
      : name === 'xl/sharedStrings.xml'
        ? budget.sharedStrings
        : ['xl/workbook.xml', 'xl/_rels/workbook.xml.rels', 'xl/styles.xml'].includes(name)
          ? PART_LIMIT
          : Number.POSITIVE_INFINITY;
    if (entry.size > limit) throw refuse('bulk.errors.tooLarge');
  }
  const out: ReadSheet = { keys: [], signature: null, rows: [] };
  const wanted = new Set(columns);
  const reader = new UploadReader(path, entries, budget, columns.length + EXTRA_COLUMNS, {
    sharedStrings: 'cache',
    hyperlinks: 'ignore',
    styles: 'cache',
    worksheets: 'emit',
    entries: 'ignore',
  });
  let sheets = 0;
  let held = 0;
  try {
    for await (const sheet of reader) {
      if (sheets++ > 0) break;
      for await (const row of sheet as AsyncIterable<ExcelJS.Row>) {
        if (row.number === 1) {
          row.eachCell({ includeEmpty: false }, (cell, col) => {
            const v = cellValue(cell.value);
            if (typeof v === 'string' && v.startsWith('ACRBULK:')) out.signature = v;
            else if (typeof v === 'string' && wanted.delete(v)) out.keys[col - 1] = v;
          });
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
          if (v === null) return;
          held += typeof v === 'string' ? v.length : 8;
          if (held > budget.kept)
            throw refuse('bulk.errors.tooMuchText', { max: Math.round(budget.kept / 1024 / 1024) });
          cells[key] = v;
          any = true;
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
