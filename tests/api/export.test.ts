import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { call, listUrl, type SignedIn } from '../support/app.js';
import { DIALECTS } from '../support/databases.js';
import { world } from '../support/world.js';

type Data = Record<string, unknown>;

async function workbook(bytes: Buffer): Promise<ExcelJS.Workbook> {
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(bytes as unknown as ArrayBuffer);
  return book;
}

/** A sheet's rows as arrays of cell values (row 1 is the header). */
function rowsOf(sheet: ExcelJS.Worksheet): unknown[][] {
  const rows: unknown[][] = [];
  sheet.eachRow({ includeEmpty: true }, (row) => {
    rows.push((row.values as unknown[]).slice(1));
  });
  return rows;
}

describe.each(DIALECTS)('Excel export on %s', (dialect) => {
  let admin: SignedIn;
  let requester: SignedIn;
  const download = async (who: SignedIn, url: string, language = 'es') => {
    const res = await w.app.inject({
      method: 'GET',
      url,
      headers: { authorization: `Bearer ${who.accessToken}`, 'accept-language': language },
    });
    return res;
  };
  const api = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object, who = admin) =>
    call(w.app, { method, url, payload, token: who.accessToken });

  const w = world(dialect, {
    users: { admin: 'ADMIN', requester: 'SOLICITANTE' },
    ready: async () => {
      admin = w.signedIn.admin;
      requester = w.signedIn.requester;
    },
  });

  it('streams the list as .xlsx: sheet data, headers in the user’s language, labels, texts and dates', async () => {
    const res = await download(admin, '/api/rest/person/export');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe(
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    );
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="person-\d{8}\.xlsx"/);
    const book = await workbook(res.rawPayload);
    expect(book.worksheets.map((s) => s.name)).toEqual(['data']);
    const rows = rowsOf(book.getWorksheet('data') as ExcelJS.Worksheet);
    expect(rows[0]).toEqual([
      'Tipo de documento',
      'Documento',
      'Apellidos',
      'Nombres',
      'Compañía',
      'Condición',
      'Fecha de inicio',
      'Inactivo',
    ]);
    const total = Number(
      (await api('GET', listUrl('person', { range: [0, 0] }))).headers['content-range']
        ?.toString()
        .split('/')[1],
    );
    expect(rows.length - 1).toBe(total);
    // The list's default order (surname), references by their labels, enums by their texts, dates as dates.
    const list = (await api('GET', listUrl('person', { range: [0, 2] }))).body as Data[];
    expect(rows.slice(1, 4).map((r) => r[1])).toEqual(list.map((p) => p.Documento));
    expect(rows[1][0]).toMatch(/^(PE DNI|CH RUN)$/);
    expect(String(rows[1][4])).toMatch(/S\.A\.C\.|SPA|LTDA|S\.R\.L\.|E\.I\.R\.L\.|S\.A\./);
    expect(['Trabajador', 'Cesado', 'Visita', 'Libre']).toContain(rows[1][5]);
    expect(rows[1][6]).toBeInstanceOf(Date);
    expect((rows[1][6] as Date).toISOString().slice(0, 10)).toBe(list[0].FechaInicio);
  });

  it('honours the list’s filter and sort, and writes English headers for an English user', async () => {
    const company = (await api('GET', listUrl('company', { range: [0, 99] }))).body.find(
      (c: Data) => c.Alias === 'SERMIPAC',
    );
    const query = `filter=${encodeURIComponent(JSON.stringify({ IdCompania: company.id }))}&sort=${encodeURIComponent('["Nombre","DESC"]')}`;
    const res = await download(admin, `/api/rest/person/export?${query}`, 'en');
    const rows = rowsOf((await workbook(res.rawPayload)).getWorksheet('data') as ExcelJS.Worksheet);
    expect(rows[0].slice(0, 4)).toEqual(['Document type', 'Document', 'Surnames', 'Names']);
    const list = (await api('GET', `/api/rest/person?${query}&range=${encodeURIComponent('[0,999]')}`))
      .body as Data[];
    expect(rows.slice(1).map((r) => r[1])).toEqual(list.map((p) => p.Documento));
    expect(new Set(rows.slice(1).map((r) => r[4]))).toEqual(new Set([company.Compania]));
  });

  it('fills every other row and keeps the header apart', async () => {
    const res = await download(admin, '/api/rest/country/export');
    const sheet = (await workbook(res.rawPayload)).getWorksheet('data') as ExcelJS.Worksheet;
    const fill = (row: number) =>
      (sheet.getRow(row).getCell(1).fill as ExcelJS.FillPattern | undefined)?.fgColor?.argb;
    expect(sheet.getRow(1).getCell(1).font?.bold).toBe(true);
    expect(fill(2)).toBeUndefined();
    expect(fill(3)).toBe('FFE8EEF4');
    expect(fill(4)).toBeUndefined();
    expect(fill(5)).toBe('FFE8EEF4');
  });

  it('neutralises text that a spreadsheet would run as a formula', async () => {
    const dangerous = ['=HYPERLINK("http://x","y")', '+SUM(A1:A9)', '-2+3', '@CMD'];
    for (const [i, Descripcion] of dangerous.entries()) {
      const res = await api('POST', '/api/rest/cost-centre', { Codigo: `FX-${i}`, Descripcion, Activo: 'S' });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
    }
    const res = await download(
      admin,
      `/api/rest/cost-centre/export?filter=${encodeURIComponent('{"q":"FX-"}')}&columns=all`,
    );
    const sheet = (await workbook(res.rawPayload)).getWorksheet('data') as ExcelJS.Worksheet;
    const cells: ExcelJS.Cell[] = [];
    sheet.eachRow((row) => row.eachCell((cell) => cells.push(cell)));
    expect(cells.some((cell) => cell.type === ExcelJS.ValueType.Formula)).toBe(false);
    const texts = cells.map((cell) => cell.value);
    for (const value of dangerous) expect(texts).toContain(`'${value.toUpperCase()}`);
    // The raw sheet holds them as plain inline text.
    const xml = res.rawPayload.toString('latin1');
    expect(xml).not.toContain('<f>');
  });

  it('exports only what the profile reaches, within its scope', async () => {
    expect((await download(requester, '/api/rest/holiday/export')).statusCode).toBe(403);
    const res = await download(requester, '/api/rest/person/export');
    expect(res.statusCode).toBe(200);
    const rows = rowsOf((await workbook(res.rawPayload)).getWorksheet('data') as ExcelJS.Worksheet);
    expect(new Set(rows.slice(1).map((r) => r[4]))).toEqual(new Set([requester.perfil.Compania]));
    expect(
      (await download(admin, '/api/rest/person/export?sort=%5B%22Nada%22%2C%22ASC%22%5D')).statusCode,
    ).toBe(400);
  });

  it('answers the company summary export contract with fileBase64 and fileName', async () => {
    const res = await api('POST', '/api/acreditacionsolicitud/exportarExcelCompaniaResumen', {
      IdCliente: admin.perfil.IdCliente,
      IdDivision: admin.perfil.IdDivision,
      IdUsuario: 'ADMIN',
      TipoOperacion: 'M',
      Titulo: 'Resumen por contratista',
      NombreArchivo: 'Resumen',
      Cabeceras: 'RUC|Contratista|Pendientes|Total',
      Columnas: 'Documento|CompaniaContratista|PENDIENTES|Total',
      OrderField: 'CompaniaContratista',
    });
    expect(res.status).toBe(200);
    expect(res.body.result.fileName).toMatch(/^Resumen \d{8}\.xlsx$/);
    const book = await workbook(Buffer.from(res.body.result.fileBase64, 'base64'));
    expect(book.title).toBe('Resumen por contratista');
    const rows = rowsOf(book.getWorksheet('data') as ExcelJS.Worksheet);
    expect(rows[0]).toEqual(['RUC', 'Contratista', 'Pendientes', 'Total']);
    const names = rows.slice(1).map((r) => String(r[1]));
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b, 'es')));
    expect(names).toContain('SERVICIOS MINEROS DEL PACÍFICO S.A.C.');
    for (const row of rows.slice(1)) expect(Number(row[3])).toBeGreaterThanOrEqual(Number(row[2]));

    // What a user typed as the title, the headers and the file name is neutralised and cleaned too.
    const hostile = await api('POST', '/api/acreditacionsolicitud/exportarExcelCompaniaResumen', {
      Titulo: '=HYPERLINK("http://x.example","clic")',
      NombreArchivo: '../../tmp/=resumen',
      Cabeceras: '=1+1|@SUMA(A1)|-2|+3',
      Columnas: 'Documento|CompaniaContratista|PENDIENTES|Total',
    });
    expect(hostile.status, JSON.stringify(hostile.body)).toBe(200);
    expect(hostile.body.result.fileName).toMatch(/^tmp-=resumen \d{8}\.xlsx$/);
    const hostileBook = await workbook(Buffer.from(hostile.body.result.fileBase64, 'base64'));
    expect(hostileBook.title).toBe(`'=HYPERLINK("http://x.example","clic")`);
    const heading = (hostileBook.getWorksheet('data') as ExcelJS.Worksheet).getRow(1);
    expect(heading.values).toEqual([undefined, "'=1+1", "'@SUMA(A1)", "'-2", "'+3"]);
    heading.eachCell((cell) => expect(cell.type).toBe(ExcelJS.ValueType.String));

    const unknown = await api('POST', '/api/acreditacionsolicitud/exportarExcelCompaniaResumen', {
      Columnas: 'Documento|Nada',
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors.Columnas.message).toBe('Unknown columns: Nada');
  });
});
