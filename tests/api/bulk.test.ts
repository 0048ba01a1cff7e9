import ExcelJS from 'exceljs';
import JSZip from 'jszip';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { referencedFiles } from '../../src/server/features/accreditation/file-sweep.js';
import { sweepOrphans } from '../../src/server/storage/files.js';
import { addDays, siteDate } from '../../src/shared/dates.js';
import { catalogue, peopleOnContract, upload } from '../support/accreditation.js';
import { call, signIn, startTestApp, type TestApp } from '../support/app.js';
import { attachmentNames, type CellInput, excelDate, fillData, openTemplate } from '../support/bulk.js';
import { DIALECTS } from '../support/databases.js';

// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON
type Json = any;
const SOUTH = 'UNIDAD MINERA SAN GABRIEL';
const NORTH = 'PROYECTO CORDILLERA NORTE';
const BASE = '/api/acreditacionsolicitud';
const MAX_ROWS = 40;

describe.each(DIALECTS)('bulk requests on %s', (dialect) => {
  let t: TestApp;
  let cat: Awaited<ReturnType<typeof catalogue>>;
  const tokens: Record<string, string> = {};
  let contract: number;
  const today = siteDate('PE');
  const expiry = addDays(today, 200);

  const as = (who: string, method: 'GET' | 'POST', url: string, payload?: object, language = 'en') =>
    call(t.app, { method, url, token: tokens[who], payload, headers: { 'accept-language': language } });
  const template = async (who = 'requester', profile = cat.worker, language = 'es') => {
    const res = await as(
      who,
      'GET',
      `${BASE}/excelformato?IdContrato=${contract}&IdPerfilAcreditacion=${profile}`,
      undefined,
      language,
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.result as { fileBase64: string; fileName: string };
  };
  /**
   * An accepted upload once its dry run (a job) has checked every row: its answer's result becomes
   * the progress then, with what the upload's own answer said of the attachments.
   */
  const checked = async (res: Awaited<ReturnType<typeof upload>>, who = 'requester') => {
    if (res.status !== 200) return res;
    const answered = res.body.result;
    expect(answered.Estado).toBe('C');
    for (let i = 0; i < 400; i++) {
      const now = await as(
        who,
        'GET',
        `${BASE}/progresomasivo?CodigoCargaMasiva=${answered.CodigoCargaMasiva}`,
      );
      if (now.body.result.Estado !== 'C') {
        expect(now.body.result.toCheck).toBe(0);
        res.body.result = {
          ...now.body.result,
          attached: answered.attached,
          unusedFiles: answered.unusedFiles,
        };
        return res;
      }
      await new Promise((r) => setTimeout(r, 25));
    }
    throw new Error('the check did not end');
  };
  const send = async (bytes: Buffer, who = 'requester', profile = cat.worker, zip?: Buffer) =>
    checked(
      await upload(
        t.app,
        tokens[who],
        `${BASE}/cargamasiva`,
        { IdContrato: contract, IdPerfilAcreditacion: profile },
        [
          { name: 'carga.xlsx', bytes },
          ...(zip ? [{ name: 'adjuntos.zip', bytes: zip, field: 'adjuntos', type: 'application/zip' }] : []),
        ],
      ),
      who,
    );
  const rowsOf = async (code: string, language = 'en') =>
    (
      await as(
        'requester',
        'GET',
        `${BASE}/filasmasivo?CodigoCargaMasiva=${code}&take=1000`,
        undefined,
        language,
      )
    ).body.result.rows as Json[];
  const until = async (code: string) => {
    for (let i = 0; i < 400; i++) {
      const res = await as('requester', 'GET', `${BASE}/progresomasivo?CodigoCargaMasiva=${code}`);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      if (!res.body.result.running && res.body.result.Estado === 'F') return res.body.result;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error('the job did not end');
  };
  /** The stored lines of some requests. */
  const linesOf = async (ids: number[]) =>
    (await t.db.database.db
      .selectFrom(t.registry.require('request-detail').table)
      .selectAll()
      .where('IdSolicitud', 'in', ids)
      .execute()) as Json[];
  /** How many bulk uploads are stored. */
  const uploads = async () =>
    Number(
      (
        (await t.db.database.db
          .selectFrom(t.registry.require('bulk-upload').table)
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirst()) as Json
      ).n,
    );
  /** procesarmasivo accepted, and its job followed to the end: the final progress. */
  const processAll = async (code: string) => {
    const started = await as('requester', 'POST', `${BASE}/procesarmasivo`, { CodigoCargaMasiva: code });
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    return until(code);
  };
  const requestsOf = async (code: string) => {
    const table = t.registry.require('request').table;
    return (await t.db.database.db
      .selectFrom(table)
      .selectAll()
      .where('CodigoCargaMasiva', '=', code)
      .execute()) as Json[];
  };

  /** A valid row for a worker: the person, the dates and a value for every requirement datum. */
  const goodRow = (
    tpl: Awaited<ReturnType<typeof openTemplate>>,
    document: string,
  ): Record<string, CellInput> => {
    const row: Record<string, CellInput> = {
      FechaInicio: excelDate(today),
      FechaFin: excelDate(addDays(today, 90)),
      IdTipoDocumento: 'PE DNI',
      Documento: document,
      Apellido: 'Quispe Mamani',
      Nombre: 'Rosa Elena',
      Sexo: tpl.choices('Sexo')[1],
      FechaNacimiento: excelDate('1991-03-02'),
      IdPaisNacimiento: 'PE',
      IdPaisResidencia: 'PE',
      TelefonoMovil: '987654321',
    };
    return { ...row, ...fillData(tpl, expiry, (key) => `VAL-${key}`) };
  };

  beforeAll(async () => {
    process.env.BULK_MAX_ROWS = String(MAX_ROWS);
    t = await startTestApp(dialect);
    tokens.admin = (await signIn(t.app, 'ADMIN', { division: SOUTH })).accessToken;
    tokens.requester = (await signIn(t.app, 'SOLICITANTE', { division: SOUTH })).accessToken;
    tokens.requesterNorth = (await signIn(t.app, 'SOLICITANTE', { division: NORTH })).accessToken;
    tokens.authoriser = (await signIn(t.app, 'AUTORIZADOR', { division: SOUTH })).accessToken;
    cat = await catalogue(t.app, tokens.admin);
    contract = (await cat.list('contract')).find((c: Json) => c.NumeroContrato === 'CT-2026-001').IdContrato;
  });
  afterAll(async () => {
    delete process.env.BULK_MAX_ROWS;
    await t?.close();
  });

  it('writes the template of a contract and profile: keys, signature, lists from a hidden sheet, date cells, instructions, in the user’s language', async () => {
    const es = await template();
    expect(es.fileName).toMatch(/CT-2026-001 TRABAJADOR CONTRATISTA\.xlsx$/);
    const tpl = await openTemplate(es.fileBase64);
    expect(tpl.workbook.worksheets.map((s) => s.name)).toEqual(['Datos', 'Instrucciones', 'Listas']);
    expect(tpl.lists.state).toBe('veryHidden');
    expect(tpl.signature).toBe(`ACRBULK:${contract}:${cat.worker}`);
    expect(tpl.keys).toEqual(
      expect.arrayContaining(['FechaInicio', 'FechaFin', 'IdTipoDocumento', 'Documento', 'Sexo']),
    );
    expect(tpl.keys.filter((k) => /^D\d+$/.test(k)).length).toBeGreaterThan(10);
    expect(tpl.data.getRow(1).hidden).toBe(true);
    expect(String(tpl.data.getRow(2).getCell(tpl.keys.indexOf('Apellido') + 1).value)).toBe('Apellidos *');
    expect(tpl.choices('Sexo')).toEqual(['Masculino', 'Femenino']);
    expect(tpl.choices('IdTipoDocumento')).toContain('PE DNI');
    expect(tpl.data.getColumn(tpl.keys.indexOf('FechaInicio') + 1).numFmt).toBe('dd/mm/yyyy');
    expect(String(tpl.workbook.worksheets[1].getCell('A1').value)).toBe('Solicitud masiva: instrucciones');
    const en = await openTemplate((await template('requester', cat.worker, 'en')).fileBase64);
    expect(en.workbook.worksheets.map((s) => s.name)).toEqual(['Data', 'Instructions', 'Lists']);
    expect(en.choices('Sexo')).toEqual(['Male', 'Female']);

    // Not a requester: refused; a visit is not renewed from a file.
    expect(
      (
        await as(
          'authoriser',
          'GET',
          `${BASE}/excelformato?IdContrato=${contract}&IdPerfilAcreditacion=${cat.worker}`,
        )
      ).status,
    ).toBe(403);
    const visitRequirement = (
      await as('requester', 'GET', `${BASE}/requisitosmasivo?IdPerfilAcreditacion=${cat.visit}`)
    ).body.result?.[0]?.IdRequisito;
    const visit = await as(
      'requester',
      'GET',
      `${BASE}/excelformato?IdContrato=${contract}&IdPerfilAcreditacion=${cat.visit}&IdRequisito=${visitRequirement ?? 1}`,
    );
    expect(visit.status).toBe(400);
    expect(visit.body.errors.IdPerfilAcreditacion.messageKey).toBe('bulk.errors.notBulkEntity');
  });

  it('files visits from a file: each row one visitor’s visit with its reason, data and PDFs, checked as the single visit', async () => {
    const tpl = await openTemplate((await template('requester', cat.visit)).fileBase64);
    expect(tpl.signature).toBe(`ACRBULK:${contract}:${cat.visit}`);
    expect(tpl.keys.slice(0, 7)).toEqual([
      'FechaInicio',
      'FechaFin',
      'MotivoVisita',
      'IdTipoDocumento',
      'Documento',
      'Apellido',
      'Nombre',
    ]);
    expect(String(tpl.data.getRow(2).getCell(3).value)).toMatch(/\*$/);
    const sheet = tpl.workbook.worksheets[1];
    const texts: string[] = [];
    sheet.eachRow((row) => {
      texts.push(String(row.getCell(1).value ?? ''));
    });
    expect(texts).toContain(
      'Cada fila es una visita de un visitante, con su motivo y sus fechas; una visita de varios visitantes se registra en la pantalla de la solicitud.',
    );
    const visitRow = (document: string, extra: Record<string, CellInput> = {}) => {
      const row: Record<string, CellInput> = {
        FechaInicio: excelDate(today),
        FechaFin: excelDate(addDays(today, 2)),
        MotivoVisita: 'Auditoría de seguridad',
        IdTipoDocumento: 'PE DNI',
        Documento: document,
        Apellido: 'Salas Pinto',
        Nombre: 'Jorge',
      };
      return { ...row, ...fillData(tpl, expiry, (key) => `VAL-${key}`), ...extra };
    };
    const data = tpl.keys.filter((k) => /^D\d+$/.test(k));
    expect(data.length).toBeGreaterThan(0);
    // The instructions name the visitor's PDFs; the first visitor brings them in the zip.
    const names = attachmentNames(tpl);
    expect(names.length).toBeGreaterThan(0);
    const zip = new JSZip();
    for (const name of names) zip.file(`41900001${name}`, pdf(`41900001 ${name}`));
    const before = await requestsOfCompany();
    const res = await send(
      await tpl.fill([
        visitRow('41900001'),
        visitRow('41900002', { MotivoVisita: null }),
        visitRow('41900003', { FechaFin: excelDate(addDays(today, 40)) }),
        visitRow('41900004'),
      ]),
      'requester',
      cat.visit,
      await zip.generateAsync({ type: 'nodebuffer' }),
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.result.attached).toBe(names.length);
    const code = res.body.result.CodigoCargaMasiva;
    const rows = await rowsOf(code);
    expect(rows.map((r: Json) => r.Estado)).toEqual(['V', 'E', 'E', 'V']);
    expect(rows[1].Errores).toEqual({ MotivoVisita: expect.any(String) });
    expect(Object.keys(rows[2].Errores)).toEqual(['FechaFin']);
    expect(await requestsOfCompany()).toBe(before);
    const done = await processAll(code);
    expect(done.successful).toBe(2);
    const made = await requestsOf(code);
    expect(made.map((r: Json) => [r.IdEntidad, r.TipoSolicitud, r.EstadoAprobacion, r.MotivoVisita])).toEqual(
      [
        ['P', 'M', 'I', 'AUDITORÍA DE SEGURIDAD'],
        ['P', 'M', 'I', 'AUDITORÍA DE SEGURIDAD'],
      ],
    );
    const first = made.find((r: Json) => r.IdSolicitud === Math.min(...made.map((m: Json) => m.IdSolicitud)));
    const record = (await as('requester', 'GET', `${BASE}/obtenersolicitud?IdSolicitud=${first.IdSolicitud}`))
      .body.result;
    expect(record.Visitantes).toEqual([
      expect.objectContaining({ Documento: '41900001', Apellido: 'SALAS PINTO' }),
    ]);
    const lines = await linesOf([first.IdSolicitud]);
    const visitor = record.Visitantes[0].IdVisitaPersona;
    const filled = lines.filter((l: Json) => l.Valor !== null && l.Valor !== undefined);
    expect(filled.length).toBeGreaterThanOrEqual(data.length);
    for (const line of filled) expect(line.IdVisitaPersona).toBe(visitor);
    expect(lines.filter((l: Json) => l.ClaveArchivo).length).toBe(names.length);
  });

  it('checks every row as a single request, reports each error on its cell in the user’s language, creates nothing; processes the valid rows once', async () => {
    const tpl = await openTemplate((await template()).fileBase64);
    // A request already open for one worker: the file's row for it is a duplicate.
    const open = await as('requester', 'POST', `${BASE}/crearsolicitante`, {
      IdEntidad: 'T',
      IdContrato: contract,
      IdPerfilAcreditacion: cat.worker,
      FechaInicio: today,
      FechaFin: addDays(today, 30),
      IdTipoDocumento: cat.dni,
      Documento: '45001001',
      Apellido: 'Ya Abierta',
      Nombre: 'Persona',
      Sexo: 'M',
      FechaNacimiento: '1988-01-01',
      IdPaisNacimiento: 'PE',
      IdPaisResidencia: 'PE',
      TelefonoMovil: '987000111',
    });
    expect(open.status, JSON.stringify(open.body)).toBe(200);
    const firstDate = tpl.keys.find(
      (k) => /^D\d+$/.test(k) && tpl.data.getColumn(tpl.keys.indexOf(k) + 1).numFmt === 'dd/mm/yyyy',
    ) as string;
    const firstList = tpl.keys.find((k) => /^D\d+$/.test(k) && tpl.choices(k).length) as string;
    const rows: Array<Record<string, CellInput>> = [
      goodRow(tpl, '45000001'), // row 3: valid
      goodRow(tpl, '45000002'), // row 4: valid
      { ...goodRow(tpl, '45000003'), Sexo: 'X' }, // row 5: not in the list
      { ...goodRow(tpl, '4500'), IdTipoDocumento: 'PE DNI' }, // row 6: document against its type
      { ...goodRow(tpl, '101108660'), IdTipoDocumento: 'CH RUT' }, // row 7: check digit
      { ...goodRow(tpl, '45000008'), FechaFin: excelDate('2031-01-01') }, // row 8: after the contract
      { ...goodRow(tpl, '45000009'), FechaInicio: excelDate(addDays(today, -3)) }, // row 9: before today
      { ...goodRow(tpl, '45000010'), Apellido: null }, // row 10: mandatory field missing
      goodRow(tpl, '45000001'), // row 11: the same document as row 3
      goodRow(tpl, '45001001'), // row 12: an open request exists
      { ...goodRow(tpl, '45000013'), [firstDate]: 'no es fecha' }, // row 13: a datum's value
      { ...goodRow(tpl, '45000014'), [firstList]: 'NO EXISTE' }, // row 14: a datum's list
      { ...goodRow(tpl, '45000015'), Email: 'no-es-correo' }, // row 15: a field's format
      goodRow(tpl, '45000016'), // row 16: valid
    ];
    rows[1].IdTipoDocumento = String(cat.dni); // a list accepts the stored value too
    const before = await requestsOfCompany();
    const counted = await countedIncomplete();
    const res = await send(await tpl.fill(rows));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const code = res.body.result.CodigoCargaMasiva as string;
    expect(code).toMatch(/^CM-\d{8}-[0-9A-F]{8}$/);
    expect(res.body.result).toMatchObject({
      loaded: 14,
      observed: 11,
      processed: 0,
      successful: 0,
      toProcess: 3,
      Estado: 'V',
    });
    expect(await requestsOfCompany()).toBe(before);
    expect(await countedIncomplete()).toBe(counted);
    expect(await requestsOf(code)).toHaveLength(0);
    const persons = await t.db.database.db
      .selectFrom(t.registry.require('person').table)
      .select('IdPersona')
      .where('Documento', '=', '45000001')
      .execute();
    expect(persons).toHaveLength(0);

    const checked = await rowsOf(code, 'en');
    const byRow = (n: number) => checked.find((r) => r.Fila === n);
    expect(checked.map((r) => r.Estado)).toEqual([
      'V',
      'V',
      'E',
      'E',
      'E',
      'E',
      'E',
      'E',
      'E',
      'E',
      'E',
      'E',
      'E',
      'V',
    ]);
    expect(byRow(5).Errores.Sexo).toBe('The value is not in the list.');
    expect(Object.keys(byRow(6).Errores)).toContain('Documento');
    expect(byRow(7).Errores.Documento).toMatch(/check digit/i);
    expect(byRow(8).Errores.FechaFin).toMatch(/within the contract/i);
    expect(byRow(9).Errores.FechaInicio).toMatch(/today/i);
    expect(Object.keys(byRow(10).Errores)).toEqual(['Apellido']);
    expect(byRow(11).Errores.Documento).toBe('The document repeats in row 3.');
    expect(byRow(12).Errores['*']).toMatch(/open request/i);
    expect(Object.keys(byRow(13).Errores)).toEqual([firstDate]);
    expect(Object.keys(byRow(14).Errores)).toEqual([firstList]);
    expect(Object.keys(byRow(15).Errores)).toEqual(['Email']);
    // The same errors in Spanish for a Spanish reader.
    expect((await rowsOf(code, 'es')).find((r) => r.Fila === 11).Errores.Documento).toBe(
      'El documento se repite en la fila 3.',
    );

    // Processing: the three valid rows become requests with the mass upload code, once.
    const done = await processAll(code);
    expect(done).toMatchObject({ loaded: 14, observed: 11, processed: 3, successful: 3, toProcess: 0 });
    const made = await requestsOf(code);
    expect(made).toHaveLength(3);
    expect(made.every((r) => r.EstadoAprobacion === 'I' && r.IdContrato === contract)).toBe(true);
    // Counted once each, as the single request counts it (a set's counts are written when it ends).
    expect(await countedIncomplete()).toBe(counted + 3);
    const processed = await rowsOf(code);
    expect(
      processed
        .filter((r) => r.Estado === 'S')
        .map((r) => r.IdSolicitud)
        .sort(),
    ).toEqual(made.map((r) => r.IdSolicitud).sort());
    // Each request whole: its lines, its history, its values.
    const detail = await as(
      'requester',
      'GET',
      `/api/acreditacionsolicituddetalle/obtener?IdSolicitud=${made[0].IdSolicitud}`,
    );
    expect(detail.status).toBe(200);
    const items = detail.body.result[0] as Json[];
    expect(items.find((i) => i.IdDatoEvaluar === Number(firstDate.slice(1))).Value).toBe(expiry);
    expect(items.find((i) => i.IdDatoEvaluar === Number(firstList.slice(1))).Value).toBeTruthy();

    // Again: nothing made twice.
    await processAll(code);
    expect(await requestsOf(code)).toHaveLength(3);

    // The processed list as Excel: every row, its request or its errors.
    const excel = await as(
      'requester',
      'GET',
      `${BASE}/excelprocesados?CodigoCargaMasiva=${code}`,
      undefined,
      'es',
    );
    expect(excel.status).toBe(200);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(Buffer.from(excel.body.result.fileBase64, 'base64') as unknown as ArrayBuffer);
    const sheet = book.worksheets[0];
    expect(sheet.rowCount).toBe(15);
    expect(sheet.getRow(1).values).toEqual([
      undefined,
      'Fila',
      'Documento',
      'Estado',
      'Solicitud',
      'Adjuntos',
      'Errores',
    ]);
    expect(sheet.getRow(2).getCell(3).value).toBe('Procesada');
    expect(sheet.getRow(2).getCell(4).value).toBe(processed[0].IdSolicitud);
    expect(String(sheet.getRow(10).getCell(6).value)).toBe('Documento: El documento se repite en la fila 3.');
    expect(String(sheet.getRow(9).getCell(6).value)).toBe('Apellidos: Obligatorio');

    // Corrected and uploaded again: the fixed rows pass, the processed ones are now open requests.
    const fixed = await send(
      await (await openTemplate((await template()).fileBase64)).fill([
        goodRow(tpl, '45000003'),
        goodRow(tpl, '45000001'),
      ]),
    );
    expect(fixed.status).toBe(200);
    const fixedRows = await rowsOf(fixed.body.result.CodigoCargaMasiva);
    expect(fixedRows[0].Estado).toBe('V');
    expect(fixedRows[1].Errores['*']).toMatch(/open request/i);
  });

  it('checks the rows as a job: the upload answers at once, its rows are checked in the background, processing waits for the check', async () => {
    const tpl = await openTemplate((await template()).fileBase64);
    const rows = Array.from({ length: MAX_ROWS }, (_, i) => goodRow(tpl, String(49_000_000 + i)));
    const before = await requestsOfCompany();
    const res = await upload(
      t.app,
      tokens.requester,
      `${BASE}/cargamasiva`,
      { IdContrato: contract, IdPerfilAcreditacion: cat.worker },
      { name: 'carga.xlsx', bytes: await tpl.fill(rows) },
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.result).toMatchObject({
      Estado: 'C',
      loaded: MAX_ROWS,
      toCheck: MAX_ROWS,
      running: true,
    });
    const code = res.body.result.CodigoCargaMasiva;
    expect(await rowsOf(code)).toHaveLength(MAX_ROWS);
    const done = await checked(res);
    expect(done.body.result).toMatchObject({
      Estado: 'V',
      loaded: MAX_ROWS,
      toCheck: 0,
      observed: 0,
      toProcess: MAX_ROWS,
      running: false,
    });
    expect((await rowsOf(code)).every((r) => r.Estado === 'V')).toBe(true);
    expect(await requestsOfCompany()).toBe(before);

    // While an upload is marked being checked, processing waits. (Marked again here: how many of
    // 40 rows a job checks before a second call is answered depends on the machine.)
    await t.db.database.db
      .updateTable(t.registry.require('bulk-upload').table)
      .set({ Estado: 'C' })
      .where('CodigoCargaMasiva', '=', code)
      .execute();
    const early = await as('requester', 'POST', `${BASE}/procesarmasivo`, { CodigoCargaMasiva: code });
    expect(early.status).toBe(400);
    expect(early.body.messageKey).toBe('bulk.errors.stillChecking');
    // The refused call started the check again, which finds nothing left to check.
    expect(
      (await checked({ ...res, body: { result: { ...res.body.result, Estado: 'C' } } })).body.result,
    ).toMatchObject({
      Estado: 'V',
      toCheck: 0,
      toProcess: MAX_ROWS,
    });
    expect(await requestsOfCompany()).toBe(before);
  });

  it('keeps an upload to its company and division: another requester gets a 404, an authoriser a 403', async () => {
    const tpl = await openTemplate((await template()).fileBase64);
    const res = await send(await tpl.fill([goodRow(tpl, '46000001')]));
    expect(res.status).toBe(200);
    const code = res.body.result.CodigoCargaMasiva;
    for (const path of [
      `progresomasivo?CodigoCargaMasiva=${code}`,
      `filasmasivo?CodigoCargaMasiva=${code}`,
      `excelprocesados?CodigoCargaMasiva=${code}`,
    ])
      expect((await as('requesterNorth', 'GET', `${BASE}/${path}`)).status).toBe(404);
    expect(
      (await as('requesterNorth', 'POST', `${BASE}/procesarmasivo`, { CodigoCargaMasiva: code })).status,
    ).toBe(404);
    expect(
      (await as('authoriser', 'POST', `${BASE}/procesarmasivo`, { CodigoCargaMasiva: code })).status,
    ).toBe(403);
    expect(await requestsOf(code)).toHaveLength(0);
    // Another division's requester cannot use this division's contract either.
    const north = await upload(
      t.app,
      tokens.requesterNorth,
      `${BASE}/cargamasiva`,
      { IdContrato: contract, IdPerfilAcreditacion: cat.worker },
      { name: 'carga.xlsx', bytes: await tpl.fill([goodRow(tpl, '46000002')]) },
    );
    expect(north.status).toBe(400);
  });

  /** A zip's bytes with one central-directory entry changed: its flags or its declared size. */
  const patchEntry = (zip: Buffer, name: string, change: { flags?: number; size?: number }) => {
    const out = Buffer.from(zip);
    const signature = Buffer.from([0x50, 0x4b, 0x01, 0x02]);
    for (let at = out.indexOf(signature); at >= 0; at = out.indexOf(signature, at + 4)) {
      const length = out.readUInt16LE(at + 28);
      if (out.toString('utf8', at + 46, at + 46 + length) !== name) continue;
      if (change.flags !== undefined) out.writeUInt16LE(out.readUInt16LE(at + 8) | change.flags, at + 8);
      if (change.size !== undefined) out.writeUInt32LE(change.size, at + 24);
      return out;
    }
    throw new Error(`no entry ${name}`);
  };
  const pdf = (text: string, pad = 0) =>
    Buffer.concat([Buffer.from(`%PDF-1.4\n% ${text}\n`), Buffer.alloc(pad, 0x20), Buffer.from('\n%%EOF\n')]);

  it('takes a zip of PDFs named by document and requirement: each checked on its cell, kept, and on the request once processed; bad zips refused', async () => {
    const tpl = await openTemplate((await template()).fileBase64);
    // The instructions sheet names the PDFs the zip may hold.
    const names = attachmentNames(tpl);
    expect(names).toEqual(expect.arrayContaining(['-sctr-salud.pdf', '-examen-medico-ocupacional.pdf']));
    const zip = new JSZip();
    // Row 3: every PDF, one of them in a folder named by the document, in another case.
    names.forEach((name, i) => {
      if (i === 0) zip.file(`47100001/${name.slice(1).toUpperCase()}`, pdf(`47100001 ${i}`));
      else zip.file(`47100001${name}`, pdf(`47100001 ${i}`));
    });
    // Row 4: the first one is no PDF, the second beyond SIZEMAXPDFUPLOAD (10 MB).
    zip.file(`47100002${names[0]}`, 'no soy un pdf');
    zip.file(`47100002${names[1]}`, pdf('grande', 11 * 1024 * 1024));
    // A file that no row claims.
    zip.file('99999999-sctr-salud.pdf', pdf('sin fila'));
    const bytes = await zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' });
    const rows = [goodRow(tpl, '47100001'), goodRow(tpl, '47100002'), goodRow(tpl, '47100003')];
    const res = await send(await tpl.fill(rows), 'requester', cat.worker, bytes);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.result.attached).toBe(names.length);
    expect(res.body.result.unusedFiles).toEqual(['99999999-sctr-salud.pdf']);
    const code = res.body.result.CodigoCargaMasiva;
    const [first, second, third] = await rowsOf(code);
    expect(first.Estado).toBe('V');
    expect(first.Archivos).toHaveLength(names.length);
    expect(third.Estado).toBe('V');
    expect(third.Archivos).toEqual([]);
    expect(second.Estado).toBe('E');
    const problems = Object.entries(second.Errores as Record<string, string>);
    expect(problems).toEqual(
      expect.arrayContaining([
        [expect.stringMatching(/^D\d+$/), `The file 47100002${names[0]} in the .zip is not a PDF.`],
        [expect.stringMatching(/^D\d+$/), 'The file is larger than 10 MB.'],
      ]),
    );
    const headings = (
      await as('requester', 'GET', `${BASE}/filasmasivo?CodigoCargaMasiva=${code}`, undefined, 'es')
    ).body.result.headings;
    expect(headings[problems[0][0]]).toMatch(/ — /);

    // Kept until processed: the day's sweep of files no row names leaves them alone.
    await sweepOrphans(t.app.files, referencedFiles(t.db.database, t.registry), {
      now: Date.now() + 2 * 3_600_000,
    });
    // Processed: the first row's request holds every PDF, byte for byte, and is complete.
    await processAll(code);
    const made = await requestsOf(code);
    expect(made).toHaveLength(2);
    const processedRows = await rowsOf(code);
    const withFiles = made.find((r: Json) => r.IdSolicitud === processedRows[0].IdSolicitud);
    expect(processedRows[0].Documento).toBe('47100001');
    const lines = (await linesOf([withFiles.IdSolicitud])).filter((l) => l.ClaveArchivo !== null);
    expect(lines).toHaveLength(names.length);
    const stored = (await t.app.files.get(
      lines.find((l) => l.NombreArchivo === `47100001${names[1]}`).ClaveArchivo,
    )) as Buffer;
    expect(stored.equals(pdf('47100001 1'))).toBe(true);
    expect(lines.every((l) => l.TipoArchivo === 'application/pdf')).toBe(true);
    const summary = await as(
      'requester',
      'GET',
      `${BASE}/obtenersolicitud?IdSolicitud=${withFiles.IdSolicitud}`,
    );
    expect(summary.status, JSON.stringify(summary.body)).toBe(200);
    expect(made.find((r: Json) => r.IdSolicitud === withFiles.IdSolicitud).SolicitudCompleta).toBe('S');
    expect(made.find((r: Json) => r.IdSolicitud !== withFiles.IdSolicitud).SolicitudCompleta).toBe('N');

    // Bad zips: each refused with its message, and no upload stored.
    const before = await uploads();
    const sheetBytes = await (await openTemplate((await template()).fileBase64)).fill([
      goodRow(tpl, '47100005'),
    ]);
    const refused = async (zipBytes: Buffer, messageKey: string) => {
      const answer = await send(sheetBytes, 'requester', cat.worker, zipBytes);
      expect(answer.status, JSON.stringify(answer.body)).toBe(400);
      expect(answer.body.messageKey).toBe(messageKey);
      expect(answer.body.errors.attachments.messageKey).toBe(messageKey);
      expect(answer.body.message).not.toBe(messageKey);
    };
    await refused(pdf('no es zip'), 'bulk.errors.attachmentsNotZip');
    const one = new JSZip();
    one.file(`47100005${names[0]}`, pdf('bien'));
    const good = await one.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' });
    await refused(
      Buffer.concat([good.subarray(0, 40), Buffer.alloc(200, 1)]),
      'bulk.errors.attachmentsCorrupt',
    );
    await refused(patchEntry(good, `47100005${names[0]}`, { flags: 1 }), 'bulk.errors.attachmentsEncrypted');
    // A zip bomb: a PDF that says it is 2 KB but inflates to 40 MB, and one that says it is 4 GB.
    const bomb = new JSZip();
    bomb.file(`47100005${names[0]}`, pdf('bomba', 40 * 1024 * 1024));
    const bombBytes = await bomb.generateAsync({
      type: 'nodebuffer',
      compression: 'DEFLATE',
      compressionOptions: { level: 9 },
    });
    expect(bombBytes.length).toBeLessThan(200_000);
    await refused(
      patchEntry(bombBytes, `47100005${names[0]}`, { size: 2048 }),
      'bulk.errors.attachmentsTooLarge',
    );
    await refused(
      patchEntry(bombBytes, `47100005${names[0]}`, { size: 0xffffffff }),
      'bulk.errors.attachmentsTooLarge',
    );
    expect(await uploads()).toBe(before);
  });

  it('renews one requirement for many accredited workers from a file: its own template, each row a renewal with its PDF, the same checks and counts', async () => {
    // The requester's workers accredited under the contract, with their SCTR SALUD.
    const found = await as('requester', 'POST', '/api/acreditaciondesmovilizacion/filtrarNuevoSolicitante', {
      IdEntidad: 'T',
    });
    expect(found.status, JSON.stringify(found.body)).toBe(200);
    const accredited = (found.body.result as Json[]).filter((r) => r.IdContrato === contract);
    expect(accredited.length).toBeGreaterThanOrEqual(2);
    const requirements = await as(
      'requester',
      'GET',
      `${BASE}/requisitosmasivo?IdPerfilAcreditacion=${cat.worker}`,
    );
    expect(requirements.status).toBe(200);
    const sctr = (requirements.body.result as Json[]).find((r) => r.Requisito === 'SCTR SALUD');
    expect(sctr).toBeDefined();
    const people = t.registry.require('person').table;
    const typeOf = async (person: number) =>
      String(
        (
          (await t.db.database.db
            .selectFrom(people)
            .select('IdTipoDocumento')
            .where('IdPersona', '=', person)
            .executeTakeFirstOrThrow()) as Json
        ).IdTipoDocumento,
      );

    const res = await as(
      'requester',
      'GET',
      `${BASE}/excelformato?IdContrato=${contract}&IdPerfilAcreditacion=${cat.worker}&IdRequisito=${sctr.IdRequisito}`,
      undefined,
      'es',
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.result.fileName).toMatch(/CT-2026-001 SCTR SALUD\.xlsx$/);
    const tpl = await openTemplate(res.body.result.fileBase64);
    expect(tpl.signature).toBe(`ACRBULK:${contract}:${cat.worker}:R${sctr.IdRequisito}`);
    const data = tpl.keys.filter((k) => /^D\d+$/.test(k));
    expect(tpl.keys).toEqual(['IdTipoDocumento', 'Documento', ...data]);
    expect(data).toHaveLength(4);
    // One file asked for: the PDF goes by the document alone.
    const instructions: string[] = [];
    tpl.workbook.worksheets[1].eachRow((row) => {
      instructions.push(String(row.getCell(2).value ?? ''));
    });
    expect(instructions).toContain('<documento>.pdf');
    expect(instructions).toContain('SCTR SALUD');

    const [a, b] = accredited;
    const values = (document: string, type: string): Record<string, CellInput> => {
      const row: Record<string, CellInput> = { IdTipoDocumento: type, Documento: document };
      for (const key of data) {
        const choices = tpl.choices(key);
        if (choices.length) row[key] = choices[0];
        else if (tpl.data.getColumn(tpl.keys.indexOf(key) + 1).numFmt === 'dd/mm/yyyy')
          row[key] = excelDate(addDays(today, 330));
        else row[key] = 'POL-2027-0042';
      }
      return row;
    };
    const rows = [
      values(a.Documento, await typeOf(a.IdPersona)), // row 3: renewed with its PDF
      values(b.Documento, await typeOf(b.IdPersona)), // row 4: renewed, its PDF added later
      values('47999999', 'PE DNI'), // row 5: nobody with this document
      values(a.Documento, await typeOf(a.IdPersona)), // row 6: the same worker again
    ];
    const zip = new JSZip();
    zip.file(`${a.Documento}.pdf`, pdf('SCTR 2027'));
    const uploaded = await checked(
      await upload(
        t.app,
        tokens.requester,
        `${BASE}/cargamasiva`,
        { IdContrato: contract, IdPerfilAcreditacion: cat.worker, IdRequisito: sctr.IdRequisito },
        [
          { name: 'sctr.xlsx', bytes: await tpl.fill(rows) },
          {
            name: 'sctr.zip',
            bytes: await zip.generateAsync({ type: 'nodebuffer' }),
            field: 'adjuntos',
          },
        ],
      ),
    );
    expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(200);
    expect(uploaded.body.result.attached).toBe(1);
    expect(uploaded.body.result.IdRequisito).toBe(sctr.IdRequisito);
    const code = uploaded.body.result.CodigoCargaMasiva;
    const renewalRows = await rowsOf(code);
    expect(renewalRows.map((r) => r.Estado)).toEqual(['V', 'V', 'E', 'E']);
    expect(renewalRows[2].Errores.Documento).toBe('No holder is registered with this document.');
    expect(renewalRows[3].Errores.Documento).toBe('The document repeats in row 3.');
    expect(await requestsOf(code)).toHaveLength(0);
    // The same file as a mobilisation upload is another template.
    const other = await send(await tpl.fill(rows));
    expect(other.body.messageKey).toBe('bulk.errors.otherTemplate');
    // A requirement the profile does not ask for.
    const visit = await as(
      'requester',
      'GET',
      `${BASE}/excelformato?IdContrato=${contract}&IdPerfilAcreditacion=${cat.vehicle}&IdRequisito=${sctr.IdRequisito}`,
    );
    expect(visit.status).toBe(400);
    expect(visit.body.errors.IdRequisito.messageKey).toBe('bulk.errors.requirementNotInProfile');

    // Processed (twice): two renewals of SCTR SALUD with the mass upload code, nothing twice.
    for (let i = 0; i < 2; i++) await processAll(code);
    const made = await requestsOf(code);
    expect(made).toHaveLength(2);
    expect(made.every((r: Json) => r.TipoSolicitud === 'A' && r.EstadoAprobacion === 'I')).toBe(true);
    expect(new Set(made.map((r: Json) => r.IdPersona))).toEqual(new Set([a.IdPersona, b.IdPersona]));
    const lines = await linesOf(made.map((r: Json) => r.IdSolicitud));
    expect(new Set(lines.map((l) => l.IdRequisito))).toEqual(new Set([sctr.IdRequisito]));
    const ofA = made.find((r: Json) => r.IdPersona === a.IdPersona);
    const ofB = made.find((r: Json) => r.IdPersona === b.IdPersona);
    expect(lines.filter((l) => l.IdSolicitud === ofA.IdSolicitud && l.ClaveArchivo)).toHaveLength(1);
    expect(lines.filter((l) => l.IdSolicitud === ofB.IdSolicitud && l.ClaveArchivo)).toHaveLength(0);
    expect(ofA.SolicitudCompleta).toBe('S');
    expect(ofB.SolicitudCompleta).toBe('N');
    const progress = await as('requester', 'GET', `${BASE}/progresomasivo?CodigoCargaMasiva=${code}`);
    expect(progress.body.result).toMatchObject({
      loaded: 4,
      observed: 2,
      processed: 2,
      successful: 2,
      toProcess: 0,
    });
    // Each is an ordinary renewal: the requester sends it from the requirement-update screen.
    const read = await as(
      'requester',
      'GET',
      `/api/acreditacionrequisitosolicitud/obtener?IdSolicitud=${ofA.IdSolicitud}`,
    );
    expect(read.status, JSON.stringify(read.body)).toBe(200);
    const sent = await as('requester', 'POST', `${BASE}/cerrarsolicitud`, { IdSolicitud: ofA.IdSolicitud });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    expect(sent.body.result.EstadoAprobacion).toBe('P');
  });

  it('counts each processed row against the contract’s endowment: the row past the last place is refused', async () => {
    const db = t.db.database.db;
    const table = (name: string) => t.registry.require(name).table;
    const held = await peopleOnContract(db, t.registry, contract, today);
    const contractRow = () => db.updateTable(table('contract')).where('IdContrato', '=', contract);
    await contractRow()
      .set({ TipoDotacion: 'C', Dotacion: held + 1 })
      .execute();
    const tpl = await openTemplate((await template()).fileBase64);
    const res = await send(await tpl.fill([goodRow(tpl, '45200001'), goodRow(tpl, '45200002')]));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const code = res.body.result.CodigoCargaMasiva as string;
    const done = await processAll(code);
    expect(done).toMatchObject({ processed: 2, successful: 1 });
    expect(await requestsOf(code)).toHaveLength(1);
    const refused = (await rowsOf(code)).find((r) => r.Estado !== 'S');
    expect(JSON.stringify(refused.Errores)).toMatch(/Contract exceeds current headcount/);
    await contractRow().set({ Dotacion: 120 }).execute();
  });

  it('refuses bad files with a clear message and stores nothing', async () => {
    const tpl = await openTemplate((await template()).fileBase64);
    const before = await uploads();
    const refused = async (bytes: Buffer, messageKey: string, profile = cat.worker) => {
      const res = await send(bytes, 'requester', profile);
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(res.body.messageKey).toBe(messageKey);
      expect(res.body.message).not.toBe(messageKey);
    };
    await refused(Buffer.from('Documento;Apellido\n45000001;QUISPE\n'), 'bulk.errors.notXlsx');
    await refused(
      Buffer.concat([Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), Buffer.alloc(600)]),
      'bulk.errors.encrypted',
    );
    const good = await tpl.fill([goodRow(tpl, '47000001')]);
    await refused(Buffer.concat([good.subarray(0, 200), Buffer.alloc(300, 7)]), 'bulk.errors.corrupt');
    // A zip that is no workbook.
    const zip = new JSZip();
    zip.file('hola.txt', 'hola');
    await refused(await zip.generateAsync({ type: 'nodebuffer' }), 'bulk.errors.corrupt');
    // A zip bomb: a sheet that would inflate to 65 MB of nothing (refused before inflating).
    const bomb = new JSZip();
    bomb.file('[Content_Types].xml', '<Types/>');
    bomb.file('xl/worksheets/sheet1.xml', Buffer.alloc(65 * 1024 * 1024, 0x20));
    await refused(
      await bomb.generateAsync({
        type: 'nodebuffer',
        compression: 'DEFLATE',
        compressionOptions: { level: 9 },
      }),
      'bulk.errors.tooLarge',
    );
    // Another profile's template.
    await refused(good, 'bulk.errors.otherTemplate', cat.vehicle);
    // A formula.
    const formula = await (await openTemplate((await template()).fileBase64)).fill([
      { ...goodRow(tpl, '47000002'), Nombre: { formula: 'CONCAT("A","B")' } },
    ]);
    await refused(formula, 'bulk.errors.formula');
    // More rows than allowed.
    const many = await (await openTemplate((await template()).fileBase64)).fill(
      Array.from({ length: MAX_ROWS + 1 }, (_, i) => goodRow(tpl, String(48000000 + i))),
    );
    await refused(many, 'bulk.errors.tooManyRows');
    // Empty.
    await refused(await (await openTemplate((await template()).fileBase64)).fill([]), 'bulk.errors.empty');
    expect(await uploads()).toBe(before);
  });

  async function requestsOfCompany(): Promise<number> {
    const row = (await t.db.database.db
      .selectFrom(t.registry.require('request').table)
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirst()) as Json;
    return Number(row.n);
  }

  /** What the request counters (the dashboards' counts) hold for incomplete requests, all together. */
  async function countedIncomplete(): Promise<number> {
    const row = (await t.db.database.db
      .selectFrom(t.registry.require('request-count').table)
      .select((eb) => eb.fn.sum('Cantidad').as('n'))
      .where('EstadoAprobacion', '=', 'I')
      .executeTakeFirst()) as Json;
    return Number(row.n ?? 0);
  }
});
