/**
 * Hand-made hostile files for the upload calls, written byte by byte (a spreadsheet program would
 * never write them): a workbook whose rows carry many extra cells that all point at one long
 * shared string, and a zip whose many names point at one large entry.
 */
import { crc32, deflateRawSync } from 'node:zlib';

interface ZipPart {
  name: string;
  data: Buffer;
}

/**
 * A zip of `parts` (deflated at `level`, 9 unless told), with `aliases`: more names in the
 * directory for a part's data.
 */
export function zipOf(
  parts: ZipPart[],
  aliases: Array<{ name: string; of: string }> = [],
  level = 9,
): Buffer {
  const locals: Buffer[] = [];
  const directory: Buffer[] = [];
  const written = new Map<string, { offset: number; crc: number; size: number; deflated: number }>();
  let offset = 0;
  const central = (name: string, at: { offset: number; crc: number; size: number; deflated: number }) => {
    const nameBytes = Buffer.from(name);
    const head = Buffer.alloc(46);
    head.writeUInt32LE(0x02014b50, 0);
    head.writeUInt16LE(20, 4);
    head.writeUInt16LE(20, 6);
    head.writeUInt16LE(8, 10);
    head.writeUInt32LE(at.crc, 16);
    head.writeUInt32LE(at.deflated, 20);
    head.writeUInt32LE(at.size, 24);
    head.writeUInt16LE(nameBytes.length, 28);
    head.writeUInt32LE(at.offset, 42);
    directory.push(head, nameBytes);
  };
  // Parts that share their data (the same Buffer) are deflated once.
  const packed = new Map<Buffer, { deflated: Buffer; crc: number }>();
  for (const part of parts) {
    const nameBytes = Buffer.from(part.name);
    let pack = packed.get(part.data);
    if (!pack) {
      pack = { deflated: deflateRawSync(part.data, { level }), crc: crc32(part.data) };
      packed.set(part.data, pack);
    }
    const { deflated } = pack;
    const at = { offset, crc: pack.crc, size: part.data.length, deflated: deflated.length };
    const head = Buffer.alloc(30);
    head.writeUInt32LE(0x04034b50, 0);
    head.writeUInt16LE(20, 4);
    head.writeUInt16LE(8, 8);
    head.writeUInt32LE(at.crc, 14);
    head.writeUInt32LE(at.deflated, 18);
    head.writeUInt32LE(at.size, 22);
    head.writeUInt16LE(nameBytes.length, 26);
    locals.push(head, nameBytes, deflated);
    offset += 30 + nameBytes.length + deflated.length;
    written.set(part.name, at);
    central(part.name, at);
  }
  for (const alias of aliases) {
    const at = written.get(alias.of);
    if (!at) throw new Error(`no part ${alias.of}`);
    central(alias.name, at);
  }
  const directoryBytes = Buffer.concat(directory);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  const count = parts.length + aliases.length;
  end.writeUInt16LE(Math.min(count, 0xffff), 8);
  end.writeUInt16LE(Math.min(count, 0xffff), 10);
  end.writeUInt32LE(directoryBytes.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directoryBytes, end]);
}

const xmlText = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

function column(index: number): string {
  let out = '';
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26))
    out = String.fromCharCode(65 + ((n - 1) % 26)) + out;
  return out;
}

/**
 * A workbook with the template's keys row (the template's `keys` and `signature`), then `rows`
 * data rows each holding `values(row)` under the template's keys and `extra` more cells, every one
 * of which (in the keys row too, each under a key of its own) points at one shared string of
 * `long` characters.
 */
export function widenedWorkbook(input: {
  keys: string[];
  signature: string;
  rows: number;
  values: (row: number) => Record<string, string>;
  extra: number;
  long: number;
  /** How hard its parts are deflated (9 unless told: a sheet of millions of cells takes seconds at 9). */
  level?: number;
}): Buffer {
  const strings: string[] = ['X'.repeat(input.long)];
  const indexOf = new Map<string, number>();
  const shared = (text: string) => {
    let at = indexOf.get(text);
    if (at === undefined) {
      at = strings.push(text) - 1;
      indexOf.set(text, at);
    }
    return at;
  };
  const width = input.keys.length + 1;
  const cell = (ref: string, index: number) => `<c r="${ref}" t="s"><v>${index}</v></c>`;
  const extras = (row: number) =>
    Array.from({ length: input.extra }, (_, i) => cell(`${column(width + i)}${row}`, 0)).join('');
  const sheet: string[] = [
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>',
    '<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>',
  ];
  // The keys row: the template's keys, its signature, then a key of their own for the extra cells.
  sheet.push(
    `<row r="1">${input.keys.map((k, i) => cell(`${column(i)}1`, shared(k))).join('')}${cell(`${column(input.keys.length)}1`, shared(input.signature))}${Array.from({ length: input.extra }, (_, i) => cell(`${column(width + i)}1`, shared(`EXTRA${i}`))).join('')}</row>`,
  );
  for (let r = 0; r < input.rows; r++) {
    const row = r + 3;
    const values = input.values(r);
    const own = input.keys
      .map((k, i) => (values[k] === undefined ? '' : cell(`${column(i)}${row}`, shared(values[k]))))
      .join('');
    sheet.push(`<row r="${row}">${own}${extras(row)}</row>`);
  }
  sheet.push('</sheetData></worksheet>');
  const stringsXml = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="${strings.length}" uniqueCount="${strings.length}">${strings.map((s) => `<si><t>${xmlText(s)}</t></si>`).join('')}</sst>`;
  return zipOf(
    [
      {
        name: '[Content_Types].xml',
        data: Buffer.from(
          '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="xml" ContentType="application/xml"/></Types>',
        ),
      },
      {
        name: 'xl/workbook.xml',
        data: Buffer.from(
          '<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Datos" sheetId="1" r:id="rId1"/></sheets></workbook>',
        ),
      },
      {
        name: 'xl/_rels/workbook.xml.rels',
        data: Buffer.from(
          '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings" Target="sharedStrings.xml"/></Relationships>',
        ),
      },
      { name: 'xl/sharedStrings.xml', data: Buffer.from(stringsXml) },
      { name: 'xl/worksheets/sheet1.xml', data: Buffer.from(sheet.join('')) },
    ],
    [],
    input.level ?? 9,
  );
}
