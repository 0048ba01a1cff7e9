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
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { pipeline, Readable, Transform } from 'node:stream';
import { createInflateRaw } from 'node:zlib';
import ExcelJS from 'exceljs';
import { ApiError } from '../../../errors.js';
import { FIRST_ROW } from './workbook.js';

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

interface ZipEntry {
  name: string;
  method: number;
  compressedSize: number;
  size: number;
  /** Where the entry's data starts in the file. */
  start: number;
}

/**
 * The zip's entries, from its central directory. A zip bomb is refused before anything is
 * inflated: the uncompressed sizes must add up to at most `limit` bytes (an entry too large for
 * 32 bits counts as too large), and no entry may inflate beyond the size it declares.
 */
async function zipEntries(path: string, limit: number): Promise<Map<string, ZipEntry>> {
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
    const count = tail.readUInt16LE(end + 10);
    const directorySize = tail.readUInt32LE(end + 12);
    const directoryOffset = tail.readUInt32LE(end + 16);
    if (directoryOffset + directorySize > size) throw refuse('bulk.errors.corrupt');
    const directory = Buffer.alloc(directorySize);
    await handle.read(directory, 0, directorySize, directoryOffset);
    const entries = new Map<string, ZipEntry>();
    const local = Buffer.alloc(30);
    let total = 0;
    let at = 0;
    for (let n = 0; n < count; n++) {
      if (at + 46 > directory.length || directory.readUInt32LE(at) !== 0x02014b50)
        throw refuse('bulk.errors.corrupt');
      const uncompressed = directory.readUInt32LE(at + 24);
      total += uncompressed === 0xffffffff ? Number.POSITIVE_INFINITY : uncompressed;
      if (total > limit) throw refuse('bulk.errors.tooLarge');
      const nameLength = directory.readUInt16LE(at + 28);
      const offset = directory.readUInt32LE(at + 42);
      const name = directory.toString('utf8', at + 46, at + 46 + nameLength);
      const { bytesRead } = await handle.read(local, 0, 30, offset);
      if (bytesRead < 30 || local.readUInt32LE(0) !== 0x04034b50) throw refuse('bulk.errors.corrupt');
      const entry: ZipEntry = {
        name,
        method: directory.readUInt16LE(at + 10),
        compressedSize: directory.readUInt32LE(at + 20),
        size: uncompressed,
        start: offset + 30 + local.readUInt16LE(26) + local.readUInt16LE(28),
      };
      if (entry.start + entry.compressedSize > size) throw refuse('bulk.errors.corrupt');
      entries.set(name.replace(/^\/+/, ''), entry);
      at += 46 + nameLength + directory.readUInt16LE(at + 30) + directory.readUInt16LE(at + 32);
    }
    return entries;
  } finally {
    await handle.close();
  }
}

/** An entry's inflated bytes as a stream that fails if they outgrow the size the directory declares. */
function entryStream(path: string, entry: ZipEntry): Readable {
  if (entry.method !== 0 && entry.method !== 8) throw refuse('bulk.errors.corrupt');
  if (entry.compressedSize === 0) return Readable.from([]);
  let seen = 0;
  const within = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      seen += chunk.length;
      done(seen > entry.size ? refuse('bulk.errors.tooLarge') : null, chunk);
    },
  });
  const raw = createReadStream(path, { start: entry.start, end: entry.start + entry.compressedSize - 1 });
  const done = () => {};
  return entry.method === 8 ? pipeline(raw, createInflateRaw(), within, done) : pipeline(raw, within, done);
}

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
      const stream = entryStream(this.path, entry);
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
  const entries = await zipEntries(path, inflatedLimit(maxRows));
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
