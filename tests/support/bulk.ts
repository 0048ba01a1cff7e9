/** What the bulk request tests share: reading the template and filling it as a person would. */
import ExcelJS from 'exceljs';

export type CellInput = string | number | Date | null | { formula: string };

/** A downloaded template, opened: its data sheet's keys and each list column's texts. */
export async function openTemplate(base64: string) {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(Buffer.from(base64, 'base64') as unknown as ArrayBuffer);
  const data = workbook.worksheets[0];
  const keys: string[] = [];
  data.getRow(1).eachCell((cell, col) => {
    keys[col - 1] = String(cell.value);
  });
  const signature = keys.find((k) => k.startsWith('ACRBULK:'));
  const columnKeys = keys.filter((k) => !k.startsWith('ACRBULK:'));
  const lists = workbook.worksheets[2];
  const validations = (
    data as unknown as { dataValidations: { model: Record<string, ExcelJS.DataValidation> } }
  ).dataValidations.model;
  /** The texts a list column offers, read from the hidden lists sheet its validation names. */
  const choices = (key: string): string[] => {
    const index = columnKeys.indexOf(key);
    const letter = data.getColumn(index + 1).letter;
    // exceljs spreads a range's validation over its cells when it reads a workbook.
    const found = validations[`${letter}3`];
    if (found?.type !== 'list') return [];
    const m = /!\$([A-Z]+)\$1:\$[A-Z]+\$(\d+)/.exec(String(found.formulae?.[0]));
    if (!m) return [];
    return Array.from({ length: Number(m[2]) }, (_, i) => String(lists.getCell(`${m[1]}${i + 1}`).value));
  };
  /** A filled copy: one row per object, from row 3, by column key. */
  const fill = async (rows: Array<Record<string, CellInput>>): Promise<Buffer> => {
    rows.forEach((values, i) => {
      const row = data.getRow(3 + i);
      for (const [key, value] of Object.entries(values)) {
        const index = columnKeys.indexOf(key);
        if (index < 0) throw new Error(`no column ${key}`);
        row.getCell(index + 1).value = value as ExcelJS.CellValue;
      }
      row.commit();
    });
    return Buffer.from(await workbook.xlsx.writeBuffer());
  };
  return { workbook, data, lists, keys: columnKeys, signature, validations, choices, fill };
}

/** A UTC date as the spreadsheet holds it. */
export const excelDate = (iso: string) => new Date(`${iso}T00:00:00Z`);

/**
 * A valid value in every requirement datum's column (`D<id>`) of a template: a list's first
 * choice, a date column's `expiry`, else `text`.
 */
export function fillData(
  tpl: Awaited<ReturnType<typeof openTemplate>>,
  expiry: string,
  text: (key: string) => string,
): Record<string, CellInput> {
  const row: Record<string, CellInput> = {};
  for (const key of tpl.keys.filter((k) => /^D\d+$/.test(k))) {
    const choices = tpl.choices(key);
    if (choices.length) row[key] = choices[0];
    else if (tpl.data.getColumn(tpl.keys.indexOf(key) + 1).numFmt === 'dd/mm/yyyy')
      row[key] = excelDate(expiry);
    else row[key] = text(key);
  }
  return row;
}

/** The names the instructions sheet gives the zip's PDFs, without the holder: `-sctr-salud.pdf`. */
export function attachmentNames(tpl: Awaited<ReturnType<typeof openTemplate>>): string[] {
  const names: string[] = [];
  let listed = false;
  tpl.workbook.worksheets[1].eachRow((row) => {
    const [a, b] = [row.getCell(1).value, row.getCell(2).value].map((v) => (v === null ? '' : String(v)));
    if (a === 'Nombres de los PDF en el .zip') listed = true;
    else if (listed && b.startsWith('<documento>-')) names.push(b.replace('<documento>', ''));
  });
  return names;
}
