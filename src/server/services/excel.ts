/**
 * Excel export of any list (spec section 7): written on the server with exceljs' streaming writer
 * straight into the response, a page of rows at a time, so memory stays flat whatever the size.
 * Sheet "data", headers in the user's language, alternating row fill, references shown by their
 * labels, enums by their texts, dates as dates; text that a spreadsheet would take for a formula
 * (starting with =, +, -, @, tab or carriage return) is neutralised with a leading apostrophe.
 */
import { once } from 'node:events';
import { PassThrough, type Writable } from 'node:stream';
import ExcelJS from 'exceljs';
import type { FastifyReply } from 'fastify';
import type { Language } from '../../shared/constants.js';
import { zoneOffset } from '../../shared/dates.js';
import type { PropertySchema } from '../../shared/schema/types.js';
import type { ListQuery } from '../crud/list-query.js';
import type { CrudService } from '../crud/service.js';
import type { Row } from '../crud/types.js';
import type { Db } from '../db/connection.js';
import { t } from '../i18n.js';
import type { Principal } from '../principal.js';
import type { Entity, Registry } from '../registry.js';

/** Rows read from the database per query while exporting. */
export const EXPORT_BATCH = 500;
/** The most rows one export writes. */
export const EXPORT_MAX_ROWS = 1_000_000;

export type ColumnKind = 'text' | 'number' | 'date' | 'datetime';

export interface ExportColumn {
  /** The entity property shown, when the column shows one. */
  field?: string;
  header: string;
  kind: ColumnKind;
  width: number;
  /** The cell's value: text, a number, an ISO date or instant (by kind), or null for none. */
  value(row: Row): string | number | null;
}

/**
 * A maker of a report's columns headed in the caller's language (`<prefix>.<key>`): each shows its
 * row's `key`, or what `value` makes of the row; text neutralised against formulas, a number as a
 * number, a date or an instant as its ISO text; nothing as an empty cell.
 */
export function columnMaker(language: Language, prefix: string) {
  return (
    key: string,
    kind: ColumnKind,
    width: number,
    value: (row: Row) => unknown = (row) => row[key],
  ): ExportColumn => ({
    header: t(language, `${prefix}.${key}`),
    kind,
    width,
    value: (row) => {
      const v = value(row);
      if (v === null || v === undefined) return null;
      return kind === 'text' ? neutralise(String(v)) : kind === 'number' ? Number(v) : (v as string);
    },
  });
}

const FORMULA_START = /^[=+\-@\t\r]/;

/** Text a spreadsheet would read as a formula gets a leading apostrophe, so it stays text. */
export function neutralise(value: string): string {
  return FORMULA_START.test(value) ? `'${value}` : value;
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are no part of a name
const NAME_UNSAFE = /[\u0000-\u001f\u007f:*?"<>|]/g;

/**
 * A file name that may carry what a user typed, as a download may carry it: no folder (a slash of
 * either kind becomes a dash), no ".." part, no character a file system refuses, no dots or spaces
 * at its ends, at most `max` characters; `fallback` when nothing is left.
 */
export function safeFileName(name: string, fallback: string, max = 100): string {
  const clean = name
    .replace(/[\\/]+/g, '-')
    .replace(/\.{2,}/g, '.')
    .replace(NAME_UNSAFE, '')
    .replace(/^[.\s-]+|[.\s]+$/g, '')
    .slice(0, max)
    .trim();
  return clean || fallback;
}

const HEADER_STYLE: Partial<ExcelJS.Style> = {
  font: { bold: true, color: { argb: 'FFFFFFFF' } },
  fill: { type: 'pattern', pattern: 'solid', fgColor: { argb: 'FF0D3B66' } },
};
const EVEN_FILL: ExcelJS.Fill = { type: 'pattern', pattern: 'solid', fgColor: { argb: 'FFE8EEF4' } };
const DATE_FORMAT = 'dd/mm/yyyy';
const DATE_TIME_FORMAT = 'dd/mm/yyyy hh:mm:ss';

/** Characters XML 1.0 cannot carry, and those it must escape. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: these are the characters to remove
const XML_INVALID = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g;
const XML_SPECIAL = /[&<>"]/g;
const XML_ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };

// biome-ignore lint/suspicious/noControlCharactersInRegex: what needs escaping or removing
const XML_ANY = /[&<>"\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/;

function xmlText(value: string): string {
  if (!XML_ANY.test(value)) return value;
  return value.replace(XML_INVALID, '').replace(XML_SPECIAL, (c) => XML_ENTITIES[c]);
}

/** A column's letters: 0 → A, 26 → AA. */
function columnLetters(index: number): string {
  let out = '';
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26))
    out = String.fromCharCode(65 + ((n - 1) % 26)) + out;
  return out;
}

/**
 * Days since 1899-12-30, the spreadsheet's date serial, of an ISO date, or of an instant as the
 * clocks of `timeZone` read it (the site's: a spreadsheet has no time zones, so its times are
 * written as the screens show them).
 */
export function dateSerial(iso: string, timeZone?: string): number | null {
  if (iso.length === 10) {
    const ms = Date.UTC(Number(iso.slice(0, 4)), Number(iso.slice(5, 7)) - 1, Number(iso.slice(8, 10)));
    return Number.isNaN(ms) ? null : ms / 86_400_000 + 25569;
  }
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) return null;
  return (ms + (timeZone ? zoneOffset(timeZone, ms) : 0)) / 86_400_000 + 25569;
}

/**
 * Streams a workbook with one sheet named "data" into `stream`; resolves with the rows written.
 * The workbook, its styles, the header and the zip are exceljs' streaming writer's; the data rows
 * are rendered straight into the sheet's stream (the same XML exceljs writes for inline strings,
 * numbers and dates, with the style ids exceljs registered), a batch at a time: building an
 * object per cell costs more than all the rest. The writer waits for `stream` to drain between
 * batches, so a slow reader holds the export back instead of filling memory.
 */
export async function writeWorkbook(
  stream: Writable,
  columns: ExportColumn[],
  batches: AsyncIterable<Row[]>,
  sheetName = 'data',
  title?: string,
  /** The site's time zone, in which its instants are written. */
  timeZone?: string,
): Promise<number> {
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({
    stream,
    useStyles: true,
    useSharedStrings: false,
    zip: { zlib: { level: 1 } },
  });
  // A title and headers may carry what a user typed: neutralised as the cells are.
  if (title) workbook.title = neutralise(title);
  const sheet = workbook.addWorksheet(sheetName, { views: [{ state: 'frozen', ySplit: 1 }] });
  sheet.columns = columns.map((c, i) => ({ key: String(i), width: c.width }));
  const last = columnLetters(Math.max(columns.length - 1, 0));
  sheet.autoFilter = `A1:${last}1`;
  const header = sheet.addRow(columns.map((c) => neutralise(c.header)));
  header.eachCell((cell) => {
    cell.style = HEADER_STYLE;
  });
  header.commit();

  // The style ids of odd and even rows, registered once with the workbook's styles.
  const styles = (workbook as unknown as { styles: { addStyleModel(model: object, type: number): number } })
    .styles;
  const id = (style: Partial<ExcelJS.Style>, type: number) => styles.addStyleModel(style, type);
  const { ValueType } = ExcelJS;
  const ids = [false, true].map((even) => {
    const fill = even ? { fill: EVEN_FILL } : {};
    return {
      text: id({ ...fill }, ValueType.String),
      number: id({ ...fill }, ValueType.Number),
      date: id({ ...fill, numFmt: DATE_FORMAT }, ValueType.Date),
      time: id({ ...fill, numFmt: DATE_TIME_FORMAT }, ValueType.Date),
    };
  });
  const letters = columns.map((_, i) => columnLetters(i));
  const out = (sheet as unknown as { stream: { write(text: string): unknown } }).stream;

  let count = 0;
  let number = 2;
  const iterator = batches[Symbol.asyncIterator]();
  let next = await iterator.next();
  while (!next.done) {
    const rows = next.value;
    let xml = '';
    for (const row of rows) {
      const s = ids[count % 2];
      xml += `<row r="${number}" spans="1:${columns.length}">`;
      for (let i = 0; i < columns.length; i++) {
        const { kind } = columns[i];
        const value = columns[i].value(row);
        const cell = `<c r="${letters[i]}${number}" s="`;
        const serial =
          typeof value === 'string' && (kind === 'date' || kind === 'datetime')
            ? dateSerial(value, timeZone)
            : null;
        if (value === null || value === '') {
          xml += `${cell}${s.text}"/>`;
        } else if (typeof value === 'number') {
          xml += `${cell}${s.number}"><v>${value}</v></c>`;
        } else if (serial !== null) {
          xml += `${cell}${kind === 'date' ? s.date : s.time}"><v>${serial}</v></c>`;
        } else {
          const text = xmlText(value);
          const space = text.trim() === text ? '' : ' xml:space="preserve"';
          xml += `${cell}${s.text}" t="inlineStr"><is><t${space}>${text}</t></is></c>`;
        }
      }
      xml += '</row>';
      count++;
      number++;
    }
    out.write(xml);
    // Read the next page while the compressor works on this one, then wait for the compressor to
    // take in what was written and for the reader to keep up, so memory stays flat. (The zip's
    // streams are readable-stream 2 streams: their state is in _writableState.)
    const following = iterator.next();
    const zipEntry = (out as { pipes?: Writable[] }).pipes?.[0];
    const state = (zipEntry as { _writableState?: { needDrain?: boolean } } | undefined)?._writableState;
    const drained = Promise.all([
      zipEntry && state?.needDrain ? once(zipEntry, 'drain') : undefined,
      stream.writableNeedDrain ? once(stream, 'drain') : undefined,
    ]);
    [next] = await Promise.all([following, drained]);
    // A synchronous database never yields: let the zip, the compressor and the socket run.
    await new Promise((resolve) => setImmediate(resolve));
  }
  sheet.commit();
  await workbook.commit();
  return count;
}

/** Width of a column from its header and kind of content. */
function widthOf(header: string, kind: ColumnKind): number {
  const base = kind === 'date' ? 12 : kind === 'datetime' ? 19 : kind === 'number' ? 10 : 24;
  return Math.min(Math.max(base, header.length + 2), 60);
}

/**
 * The columns of an entity's export: the list's own columns (or every field but secrets with
 * `all`), each turned into what a reader expects: labels, texts and dates.
 */
export function exportColumns(entity: Entity, language: Language, all = false): ExportColumn[] {
  const props = entity.schema.properties;
  const fields = all
    ? [...entity.list, ...Object.keys(props).filter((f) => !entity.list.includes(f))]
    : entity.list;
  return fields
    .filter((f) => !entity.secrets.includes(f) && !entity.images.includes(f))
    .map((field) => {
      const prop = props[field];
      const header = t(language, `resources.${entity.name}.fields.${field}`);
      return { field, ...columnOf(prop, field, header, language) };
    });
}

function columnOf(
  prop: PropertySchema,
  field: string,
  header: string,
  language: Language,
): Omit<ExportColumn, 'field'> {
  const width = (kind: ColumnKind) => widthOf(header, kind);
  if (prop['x-ref']) {
    const key = labelKey(field);
    return {
      header,
      kind: 'text',
      width: width('text'),
      value: (row) => {
        const label = row[key];
        if (Array.isArray(label)) return text(label.join(', '));
        return typeof label === 'string' && label ? text(label) : text(row[field]);
      },
    };
  }
  if (prop.enum) {
    const labels = new Map(prop.enum.map((v) => [String(v), t(language, `enums.${prop['x-enum']}.${v}`)]));
    return {
      header,
      kind: 'text',
      width: width('text'),
      value: (row) => {
        const value = row[field];
        return value === null || value === undefined ? null : text(labels.get(String(value)) ?? value);
      },
    };
  }
  if (prop.format === 'date' || prop.format === 'date-time') {
    const kind = prop.format === 'date' ? 'date' : 'datetime';
    return {
      header,
      kind,
      width: width(kind),
      value: (row) => (typeof row[field] === 'string' ? (row[field] as string) : null),
    };
  }
  if (prop.type === 'integer' || prop.type === 'number') {
    return {
      header,
      kind: 'number',
      width: width('number'),
      value: (row) => (typeof row[field] === 'number' ? (row[field] as number) : null),
    };
  }
  return { header, kind: 'text', width: width('text'), value: (row) => text(row[field]) };
}

/** A value as cell text, neutralised; null for none. */
function text(value: unknown): string | null {
  if (value === null || value === undefined || value === '') return null;
  return neutralise(String(value));
}

/** Where a reference's label travels in an export row. */
const labelKey = (field: string) => `${field}__label`;

/**
 * The rows of an export, a batch at a time, in the list's order and within its filters and the
 * caller's scope. Pages follow each other by key (after the last row's sort value and key), not
 * by offset, so every page costs the same: first the rows with a sort value, then those without
 * (rows with equal values follow the key in the sort's direction). References are shown by their
 * records' labels, read once per referenced record and kept for the rest of the export.
 */
export async function* exportBatches(
  db: Db,
  registry: Registry,
  crud: CrudService,
  entity: Entity,
  query: ListQuery,
  principal: Principal,
  fields: string[] = Object.keys(entity.schema.properties),
): AsyncGenerator<Row[]> {
  const wanted = new Set(fields);
  // A private reference's target is not read for its readers: the stored key is what they see.
  const refs = entity.references.filter((r) => wanted.has(r.field) && !r.private);
  const key = entity.primaryKey;
  const sort = query.sort.field;
  const direction = query.sort.order === 'DESC' ? 'desc' : 'asc';
  // Only the columns the export shows, with the key and the sort field the pages need.
  const columns = [
    ...new Set([key, sort, ...fields.filter((f) => !refs.some((r) => r.many && r.field === f))]),
  ];
  const labels = new Labels(db);
  let phase: 'valued' | 'empty' = sort === key ? 'empty' : 'valued';
  let last: Row | undefined;
  for (let written = 0; written < EXPORT_MAX_ROWS; ) {
    const { page } = crud.listBuilders(
      entity,
      { ...query, offset: 0, limit: EXPORT_BATCH },
      principal,
      columns,
    );
    let qb = page.clearOrderBy();
    if (phase === 'valued') {
      qb = qb.where(sort, 'is not', null).orderBy(sort, direction).orderBy(key, direction);
      const after = last;
      if (after)
        qb = qb.where((eb) =>
          eb(eb.refTuple(sort, key), direction === 'asc' ? '>' : '<', eb.tuple(after[sort], after[key])),
        );
    } else {
      if (sort !== key) qb = qb.where(sort, 'is', null);
      qb = qb.orderBy(key, sort === key ? direction : 'asc');
      if (last) qb = qb.where(key, sort === key && direction === 'desc' ? '<' : '>', last[key]);
    }
    const rows = (await qb.execute()) as Row[];
    for (const ref of refs) {
      const target = registry.require(ref.target);
      if (ref.many) {
        const owners = rows.map((r) => r[key]);
        const links = owners.length
          ? ((await db
              .selectFrom(ref.many.table)
              .select([`${ref.many.owner} as owner`, `${ref.many.value} as value`])
              .where(ref.many.owner, 'in', owners)
              .execute()) as Array<{ owner: unknown; value: unknown }>)
          : [];
        const names = await labels.of(
          target,
          links.map((l) => l.value),
        );
        const byOwner = new Map<unknown, string[]>();
        for (const { owner, value } of links)
          byOwner.set(owner, [...(byOwner.get(owner) ?? []), names.get(value) ?? String(value)]);
        for (const row of rows) row[labelKey(ref.field)] = (byOwner.get(row[key]) ?? []).sort();
      } else {
        const names = await labels.of(
          target,
          rows.map((r) => r[ref.field]),
        );
        for (const row of rows) {
          const value = row[ref.field];
          if (value !== null && value !== undefined) row[labelKey(ref.field)] = names.get(value);
        }
      }
    }
    if (rows.length) {
      written += rows.length;
      last = rows[rows.length - 1];
      yield rows;
    }
    if (rows.length < EXPORT_BATCH) {
      if (phase === 'empty') return;
      phase = 'empty';
      last = undefined;
    }
  }
}

/** The labels (x-label fields joined by a space) of referenced records, read as they are first met. */
class Labels {
  private readonly known = new Map<string, Map<unknown, string>>();

  constructor(private readonly db: Db) {}

  async of(target: Entity, ids: unknown[]): Promise<Map<unknown, string>> {
    let known = this.known.get(target.name);
    if (!known) {
      known = new Map();
      this.known.set(target.name, known);
    }
    const missing = [...new Set(ids.filter((id) => id !== null && id !== undefined && !known.has(id)))];
    for (let i = 0; i < missing.length; i += 500) {
      const rows = (await this.db
        .selectFrom(target.table)
        .select([target.primaryKey, ...target.label])
        .where(target.primaryKey, 'in', missing.slice(i, i + 500))
        .execute()) as Row[];
      for (const row of rows) {
        const parts = target.label
          .map((f) => row[f])
          .filter((v) => v !== null && v !== undefined && v !== '');
        known.set(row[target.primaryKey], parts.join(' '));
      }
    }
    return known;
  }
}

/** A whole small workbook in memory, base64 (the spec's { fileBase64, fileName } exports). */
export async function workbookBase64(
  columns: ExportColumn[],
  rows: Row[],
  title?: string,
  timeZone?: string,
): Promise<string> {
  const chunks: Buffer[] = [];
  const sink = new PassThrough();
  sink.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise((resolve) => sink.on('end', resolve));
  await writeWorkbook(
    sink,
    columns,
    (async function* () {
      yield rows;
    })(),
    'data',
    title,
    timeZone,
  );
  await done;
  return Buffer.concat(chunks).toString('base64');
}

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** An .xlsx answer's headers: its type, and its file name (`ascii` for old clients, `name` in full). */
export function xlsxReply(reply: FastifyReply, ascii: string, typed: string): FastifyReply {
  const name = safeFileName(typed, 'export.xlsx', 150);
  return reply
    .type(XLSX)
    .header(
      'content-disposition',
      `attachment; filename="${safeFileName(ascii, 'export.xlsx', 150).replace(/[^\w.-]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(name)}`,
    );
}

/**
 * Streams a workbook as the answer: the headers, then what `write` writes into the stream; a
 * failure half-way is logged and cuts the stream (the client sees a broken download, never a
 * workbook silently short).
 */
export function sendWorkbook(
  reply: FastifyReply,
  ascii: string,
  name: string,
  write: (stream: PassThrough) => Promise<unknown>,
) {
  const stream = new PassThrough();
  xlsxReply(reply, ascii, name);
  write(stream).catch((error: unknown) => {
    reply.log.error({ err: error }, 'export failed');
    stream.destroy(error as Error);
  });
  return reply.send(stream);
}

/**
 * Streams a workbook inside the spec's JSON answer, { result: { fileName, fileBase64 } }: the
 * workbook is base64-encoded as `write` writes it (three bytes to four characters, the remainder
 * carried to the next chunk), so a list of any length is exported without holding it whole. A
 * failure half-way is logged and cuts the answer (the client sees broken JSON, never a short file).
 */
export function sendWorkbookBase64(
  reply: FastifyReply,
  fileName: string,
  write: (stream: PassThrough) => Promise<unknown>,
) {
  const workbook = new PassThrough();
  const answer = new PassThrough();
  let carry = Buffer.alloc(0);
  answer.write(`{"result":{"fileName":${JSON.stringify(fileName)},"fileBase64":"`);
  workbook.on('data', (chunk: Buffer) => {
    const bytes = carry.length ? Buffer.concat([carry, chunk]) : chunk;
    const whole = bytes.length - (bytes.length % 3);
    carry = Buffer.from(bytes.subarray(whole));
    if (whole && !answer.write(bytes.subarray(0, whole).toString('base64'))) {
      workbook.pause();
      answer.once('drain', () => workbook.resume());
    }
  });
  workbook.on('end', () => answer.end(`${carry.toString('base64')}"}}`));
  // The workbook's writer ends its stream once the file is whole.
  write(workbook).catch((error: unknown) => {
    reply.log.error({ err: error }, 'export failed');
    answer.destroy(error as Error);
  });
  return reply.type('application/json; charset=utf-8').send(answer);
}
