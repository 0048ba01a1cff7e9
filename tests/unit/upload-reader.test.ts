import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import JSZip from 'jszip';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Attachments } from '../../src/server/features/accreditation/bulk/attachments.js';
import { readSheet } from '../../src/server/services/upload-reader.js';
import { widenedWorkbook, zipOf } from '../support/hostile-files.js';

const ROWS = 30;
const COLUMNS = ['Documento', 'Apellido', 'FechaInicio'];

/** A workbook laid out as the template: keys and signature, headers, then the rows (of crew `crew`). */
async function workbook(rows: number, crew = 0): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('Carga');
  sheet.addRow(['Documento', 'Apellido', 'FechaInicio', `ACRBULK:7:${3 + crew}`]);
  sheet.addRow(['Documento', 'Apellidos', 'Fecha de inicio']);
  for (let i = 0; i < rows; i++)
    sheet.addRow([
      `45${crew}0${String(i).padStart(4, '0')}`,
      `QUISPE ${crew > 0 ? `${crew}-` : ''}${i}`,
      new Date(Date.UTC(2026, 10, 1 + ((i + crew) % 28))),
    ]);
  book.addWorksheet('Listas').addRow(['Sí', 'No']);
  return Buffer.from(await book.xlsx.writeBuffer());
}

/** The same zip with its entries in another order. */
async function reordered(bytes: Buffer, first: (name: string) => number): Promise<Buffer> {
  const zip = await JSZip.loadAsync(bytes);
  const names = Object.keys(zip.files).sort((a, b) => first(a) - first(b));
  const out = new JSZip();
  for (const name of names) {
    const file = zip.file(name);
    if (file) out.file(name, await file.async('nodebuffer'));
  }
  return out.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' });
}

/** Sets the uncompressed size the central directory declares for one entry. */
function declare(bytes: Buffer, entry: string, size: number): Buffer {
  const out = Buffer.from(bytes);
  for (let at = out.length - 46; at >= 0; at--)
    if (out.readUInt32LE(at) === 0x02014b50) {
      const length = out.readUInt16LE(at + 28);
      if (out.toString('utf8', at + 46, at + 46 + length) === entry) {
        out.writeUInt32LE(size, at + 24);
        return out;
      }
    }
  throw new Error(`no entry ${entry}`);
}

let dir: string;
const save = async (name: string, bytes: Buffer) => {
  const path = join(dir, name);
  await writeFile(path, bytes);
  return path;
};
const refusal = (path: string, maxRows = 100) =>
  readSheet(path, maxRows, COLUMNS).then(
    () => 'read',
    (error: { messageKey?: string }) => error.messageKey,
  );

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'upload-reader-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('reading an uploaded workbook', () => {
  it('reads every row whatever the order of the zip’s entries, however many reads run at once', async () => {
    // Three crews, each in both orders of its zip's entries: as exceljs and Excel write it (the
    // sheets before the shared strings, the workbook last), and the workbook first.
    const files: Array<{ path: string; crew: number }> = [];
    for (const crew of [0, 1, 2]) {
      const bytes = await workbook(ROWS, crew);
      const layouts = {
        workbookLast: await reordered(bytes, (n) => (n === 'xl/workbook.xml' ? 1 : 0)),
        workbookFirst: await reordered(bytes, (n) => (n.includes('worksheets') ? 1 : 0)),
      };
      for (const [name, layout] of Object.entries(layouts))
        files.push({ path: await save(`${name}-${crew}.xlsx`, layout), crew });
    }
    // All six read at once, each opening its own entries, their reads interleaved at every chunk:
    // a read that lost rows or took another's would show another crew's signature or rows.
    for (let round = 0; round < 2; round++) {
      const reads = await Promise.all(files.map(({ path }) => readSheet(path, 100, COLUMNS)));
      reads.forEach((read, i) => {
        const crew = files[i].crew;
        expect(read.signature).toBe(`ACRBULK:7:${3 + crew}`);
        expect(read.keys).toEqual(['Documento', 'Apellido', 'FechaInicio']);
        expect(read.rows).toHaveLength(ROWS);
        expect(read.rows[0].cells.Documento).toBe(`45${crew}00000`);
        expect(read.rows[ROWS - 1]).toEqual({
          row: ROWS + 2,
          cells: {
            Documento: `45${crew}00029`,
            Apellido: `QUISPE ${crew > 0 ? `${crew}-` : ''}29`,
            FechaInicio: `2026-11-${String(2 + crew).padStart(2, '0')}`,
          },
        });
      });
    }
  });

  it('refuses an entry that inflates beyond the size its directory declares', async () => {
    const bytes = await workbook(ROWS);
    expect(await refusal(await save('honest.xlsx', bytes))).toBe('read');
    const lying = declare(bytes, 'xl/worksheets/sheet1.xml', 200);
    expect(await refusal(await save('lying.xlsx', lying))).toBe('bulk.errors.tooLarge');
  });

  it('refuses a zip whose entry points outside the file, and one without a workbook', async () => {
    const bytes = await workbook(ROWS);
    const zip = await JSZip.loadAsync(bytes);
    zip.remove('xl/workbook.xml');
    const headless = await zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' });
    expect(await refusal(await save('headless.xlsx', headless))).toBe('bulk.errors.corrupt');
    const cut = Buffer.from(bytes);
    for (let at = cut.length - 46; at >= 0; at--)
      if (cut.readUInt32LE(at) === 0x02014b50) {
        cut.writeUInt32LE(cut.length + 1000, at + 42);
        break;
      }
    expect(await refusal(await save('cut.xlsx', cut))).toBe('bulk.errors.corrupt');
  });

  it('leaves no temporary file behind when it stops at the row limit', async () => {
    const path = await save('many.xlsx', await reordered(await workbook(ROWS), () => 0));
    const before = new Set(await readdir(tmpdir()));
    for (let i = 0; i < 5; i++) expect(await refusal(path, 10)).toBe('bulk.errors.tooManyRows');
    const added = (await readdir(tmpdir())).filter((name) => !before.has(name) && name.startsWith('tmp-'));
    expect(added).toEqual([]);
  });

  it('keeps only the template’s columns, cuts a long cell, and holds the kept text to its budget', async () => {
    const values = (r: number) => ({ Documento: String(45_000_000 + r), Apellido: 'QUISPE' });
    // 300 rows of 100 extra cells, each under a key of its own, all pointing at 100 000 characters.
    const wide = widenedWorkbook({
      keys: COLUMNS,
      signature: 'ACRBULK:7:3',
      rows: 300,
      values,
      extra: 100,
      long: 100_000,
    });
    const read = await readSheet(await save('wide.xlsx', wide), 300, COLUMNS);
    expect(read.keys).toEqual(COLUMNS);
    expect(read.rows).toHaveLength(300);
    expect(read.rows[0].cells).toEqual({ Documento: '45000000', Apellido: 'QUISPE' });
    // A template column holding the long string keeps 2 000 characters of it (its check refuses it).
    const long = 'L'.repeat(100_000);
    const cut = widenedWorkbook({
      keys: COLUMNS,
      signature: 'ACRBULK:7:3',
      rows: 2,
      values: () => ({ Apellido: long }),
      extra: 0,
      long: 10,
    });
    const cutRead = await readSheet(await save('cut-cell.xlsx', cut), 300, COLUMNS);
    expect(cutRead.rows[0].cells.Apellido).toBe('L'.repeat(2000));
    // 600 rows of 2 000 kept characters are more than the budget of 600 rows of 3 columns (1 M).
    const heavy = widenedWorkbook({
      keys: COLUMNS,
      signature: 'ACRBULK:7:3',
      rows: 600,
      values: () => ({ Apellido: long }),
      extra: 0,
      long: 10,
    });
    expect(await refusal(await save('heavy.xlsx', heavy), 600)).toBe('bulk.errors.tooMuchText');
  });

  it('reads the template’s columns among columns a person inserted, and never the cells far past them', async () => {
    const book = new ExcelJS.Workbook();
    const sheet = book.addWorksheet('Carga');
    // Five columns of notes inserted before the template's, and a formula 200 columns further.
    const notes = ['', '', '', '', ''];
    const far = Array.from({ length: 200 }, () => '');
    sheet.addRow([...notes, ...COLUMNS, 'ACRBULK:7:3']);
    sheet.addRow([...notes, 'Documento', 'Apellidos', 'Fecha de inicio']);
    sheet.addRow(['nota', '', '', '', '', '45000001', 'QUISPE', new Date(Date.UTC(2026, 10, 2))]);
    const row = sheet.addRow([...notes, '45000002', 'MAMANI', null, null, ...far]);
    row.getCell(5 + COLUMNS.length + 1 + far.length).value = {
      formula: '1+1',
      result: 2,
    } as ExcelJS.CellValue;
    const path = await save('inserted.xlsx', Buffer.from(await book.xlsx.writeBuffer()));
    const read = await readSheet(path, 10, COLUMNS);
    expect(read.keys.filter(Boolean)).toEqual(COLUMNS);
    expect(read.signature).toBe('ACRBULK:7:3');
    expect(read.rows.map((r) => r.cells)).toEqual([
      { Documento: '45000001', Apellido: 'QUISPE', FechaInicio: '2026-11-02' },
      { Documento: '45000002', Apellido: 'MAMANI' },
    ]);
    // The same formula within the template's columns is refused, as before.
    row.getCell(5 + COLUMNS.length).value = { formula: '1+1', result: 2 } as ExcelJS.CellValue;
    const near = await save('formula.xlsx', Buffer.from(await book.xlsx.writeBuffer()));
    expect(await refusal(near)).toBe('bulk.errors.formula');
  });

  it('refuses shared strings beyond their bound before reading them', async () => {
    // 9 M characters of shared strings are beyond the 8 MB a workbook of 100 rows may hold.
    const strings = widenedWorkbook({
      keys: COLUMNS,
      signature: 'ACRBULK:7:3',
      rows: 1,
      values: () => ({ Documento: '45000000' }),
      extra: 1,
      long: 9_000_000,
    });
    expect(await refusal(await save('strings.xlsx', strings))).toBe('bulk.errors.tooLarge');
  });
});

describe('reading an attachments zip', () => {
  const pdfOf = (bytes: number) => Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(bytes)]);
  const slots = [{ datum: 1, name: 'sctr', requirement: 'SCTR' }];

  it('refuses many names pointing at one entry (25 of 8 MB, within the size bound), before inflating anything', async () => {
    const aliases = Array.from({ length: 25 }, (_, i) => ({ name: `${45_000_000 + i}.pdf`, of: 'big.pdf' }));
    const path = await save(
      'aliases.zip',
      zipOf([{ name: 'big.pdf', data: pdfOf(8 * 1024 * 1024) }], aliases),
    );
    await expect(Attachments.open(path, slots)).rejects.toMatchObject({
      messageKey: 'bulk.errors.attachmentsCorrupt',
    });
  });

  it('refuses a zip that would inflate to more than 32 times its size (and 256 MB)', async () => {
    // Forty PDFs of the same bytes (deflated once by zipOf).
    const data = pdfOf(7 * 1024 * 1024);
    const parts = Array.from({ length: 40 }, (_, i) => ({ name: `${45_000_000 + i}.pdf`, data }));
    const path = await save('dense.zip', zipOf(parts));
    await expect(Attachments.open(path, slots)).rejects.toMatchObject({
      messageKey: 'bulk.errors.attachmentsTooLarge',
    });
    // The same PDFs, fewer of them, are read, each once.
    const fewer = await save('fewer.zip', zipOf(parts.slice(0, 3)));
    const attachments = await Attachments.open(fewer, slots);
    const kept: number[] = [];
    const keep = async (bytes: Buffer) => String(kept.push(bytes.length));
    expect(await attachments.forHolder('45000000', 10 * 1024 * 1024, keep)).toHaveLength(1);
    expect(kept).toEqual([7 * 1024 * 1024 + 9]);
  });
});
