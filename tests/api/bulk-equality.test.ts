/**
 * A bulk upload's rows, checked and processed a set at a time in one transaction, give each the
 * result the single request gives: a sample of rows (valid, with and without data, and refused for
 * several reasons) is filed twice, once as a file and once call by call for other documents, and
 * the refusals (field and message) and what was made (the request, its holder, its lines) compared.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, siteDate } from '../../src/shared/dates.js';
import { catalogue, upload } from '../support/accreditation.js';
import { call, signIn, startTestApp, type TestApp } from '../support/app.js';
import { type CellInput, excelDate, openTemplate } from '../support/bulk.js';
import { DIALECTS } from '../support/databases.js';

// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON
type Json = any;
const SOUTH = 'UNIDAD MINERA SAN GABRIEL';
const BASE = '/api/acreditacionsolicitud';

/** One case of the sample: the row's cells and the same as a single request's fields. */
interface Case {
  name: string;
  cells: Record<string, CellInput>;
  fields: Record<string, unknown>;
}

describe.each(DIALECTS)('bulk rows as single requests on %s', (dialect) => {
  let t: TestApp;
  let cat: Awaited<ReturnType<typeof catalogue>>;
  let contract: number;
  let contractEnd: string;
  const tokens: Record<string, string> = {};
  const today = siteDate('PE');
  const expiry = addDays(today, 200);

  const as = (method: 'GET' | 'POST', url: string, payload?: object) =>
    call(t.app, { method, url, token: tokens.requester, payload, headers: { 'accept-language': 'en' } });
  /** crearsolicitante with `fields` (its lines sent as the wizard sends them, a JSON text). */
  const file = (fields: Record<string, unknown>) =>
    as('POST', `${BASE}/crearsolicitante`, { ...fields, Detalle: JSON.stringify(fields.Detalle ?? []) });
  const table = (name: string) => t.registry.require(name).table;

  beforeAll(async () => {
    t = await startTestApp(dialect);
    tokens.admin = (await signIn(t.app, 'ADMIN', { division: SOUTH })).accessToken;
    tokens.requester = (await signIn(t.app, 'SOLICITANTE', { division: SOUTH })).accessToken;
    cat = await catalogue(t.app, tokens.admin);
    const found = (await cat.list('contract')).find((c: Json) => c.NumeroContrato === 'CT-2026-001');
    contract = found.IdContrato;
    contractEnd = found.FechaFin;
  });
  afterAll(async () => {
    await t?.close();
  });

  /** A worker both ways: the row's cells and the request's fields, with `data` in both. */
  const worker = (data: Record<string, { cell: CellInput; value: unknown }> = {}): Omit<Case, 'name'> => ({
    cells: {
      FechaInicio: excelDate(today),
      FechaFin: excelDate(addDays(today, 90)),
      IdTipoDocumento: 'PE DNI',
      Apellido: 'Huamán Ccori',
      Nombre: 'Elena',
      Sexo: 'Masculino',
      FechaNacimiento: excelDate('1987-05-14'),
      IdPaisNacimiento: 'PE',
      IdPaisResidencia: 'PE',
      TelefonoMovil: '987123456',
      ...Object.fromEntries(Object.entries(data).map(([key, d]) => [key, d.cell])),
    },
    fields: {
      IdEntidad: 'T',
      IdContrato: contract,
      IdPerfilAcreditacion: cat.worker,
      FechaInicio: today,
      FechaFin: addDays(today, 90),
      IdTipoDocumento: cat.dni,
      Apellido: 'Huamán Ccori',
      Nombre: 'Elena',
      Sexo: 'M',
      FechaNacimiento: '1987-05-14',
      IdPaisNacimiento: 'PE',
      IdPaisResidencia: 'PE',
      TelefonoMovil: '987123456',
      Detalle: Object.entries(data).map(([key, d]) => ({
        IdDatoEvaluar: Number(key.slice(1)),
        Valor: d.value,
      })),
    },
  });
  /** `base` with some cells and the same fields replaced. */
  const changed = (
    base: Omit<Case, 'name'>,
    cells: Record<string, CellInput>,
    fields: Record<string, unknown>,
  ): Omit<Case, 'name'> => ({ cells: { ...base.cells, ...cells }, fields: { ...base.fields, ...fields } });

  /** A stored request as compared: what does not name its holder or when it was made. */
  async function made(id: number) {
    const request = (await t.db.database.db
      .selectFrom(table('request'))
      .selectAll()
      .where('IdSolicitud', '=', id)
      .executeTakeFirstOrThrow()) as Json;
    const person = (await t.db.database.db
      .selectFrom(table('person'))
      .select([
        'Apellido',
        'Nombre',
        'Sexo',
        'FechaNacimiento',
        'IdPaisNacimiento',
        'TelefonoMovil',
        'IdCompania',
      ])
      .where('IdPersona', '=', request.IdPersona)
      .executeTakeFirstOrThrow()) as Json;
    const lines = (await t.db.database.db
      .selectFrom(table('request-detail'))
      .select([
        'IdRequisito',
        'IdDatoEvaluar',
        'TipoRequisito',
        'Valor',
        'EstadoAprobacion',
        'FechaVencimiento',
      ])
      .where('IdSolicitud', '=', id)
      .orderBy('IdRequisito')
      .orderBy('IdDatoEvaluar')
      .execute()) as Json[];
    const header = Object.fromEntries(
      [
        'IdCliente',
        'IdDivision',
        'IdCompania',
        'TipoSolicitud',
        'IdEntidad',
        'IdContrato',
        'IdPerfilAcreditacion',
        'FechaInicio',
        'FechaFin',
        'EstadoAprobacion',
        'SolicitudCompleta',
        'ExcedeDotacion',
        'IndisciplinaRechazo',
      ].map((k) => [k, request[k]]),
    );
    return { header, person, lines };
  }

  it('refuses and makes each sampled row as the single request does', async () => {
    const res = await as(
      'GET',
      `${BASE}/excelformato?IdContrato=${contract}&IdPerfilAcreditacion=${cat.worker}`,
    );
    const tpl = await openTemplate(res.body.result.fileBase64);
    const data = tpl.keys.filter((k) => /^D\d+$/.test(k) && !tpl.choices(k).length);
    const isDate = (key: string) => tpl.data.getColumn(tpl.keys.indexOf(key) + 1).numFmt === 'dd/mm/yyyy';
    const dateKey = data.find(isDate) as string;
    const textKey = data.find((k) => !isDate(k)) as string;
    expect(dateKey).toBeDefined();
    expect(textKey).toBeDefined();
    const filled = worker({
      [dateKey]: { cell: excelDate(expiry), value: expiry },
      [textKey]: { cell: 'CONSTANCIA 2026-118', value: 'CONSTANCIA 2026-118' },
    });
    const plain = worker();
    const cases: Case[] = [
      { name: 'valid, with data', ...filled },
      { name: 'valid, without data', ...plain },
      { name: 'a datum past its type', ...changed(filled, { [dateKey]: 'no es fecha' }, {}) },
      {
        name: 'after the contract',
        ...changed(
          plain,
          { FechaFin: excelDate(addDays(contractEnd, 1)) },
          { FechaFin: addDays(contractEnd, 1) },
        ),
      },
      {
        name: 'before today',
        ...changed(
          plain,
          { FechaInicio: excelDate(addDays(today, -2)) },
          { FechaInicio: addDays(today, -2) },
        ),
      },
      { name: 'no surname', ...changed(plain, { Apellido: null }, { Apellido: undefined }) },
      { name: 'a request already open', ...plain },
    ];
    cases[2].fields.Detalle = (cases[2].fields.Detalle as Json[]).map((d) =>
      d.IdDatoEvaluar === Number(dateKey.slice(1)) ? { ...d, Valor: 'no es fecha' } : d,
    );
    const documents = (first: number) => cases.map((_, i) => String(first + i));
    const inFile = documents(47_000_001);
    const oneByOne = documents(47_100_001);
    // The last case's worker already has a request open, both ways.
    for (const document of [inFile.at(-1), oneByOne.at(-1)]) {
      const open = await file({ ...plain.fields, Documento: document });
      expect(open.status, JSON.stringify(open.body)).toBe(200);
    }

    const sent = await upload(
      t.app,
      tokens.requester,
      `${BASE}/cargamasiva`,
      { IdContrato: contract, IdPerfilAcreditacion: cat.worker },
      {
        name: 'muestra.xlsx',
        bytes: await tpl.fill(cases.map((c, i) => ({ ...c.cells, Documento: inFile[i] }))),
      },
    );
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    const code = sent.body.result.CodigoCargaMasiva;
    const progress = async () =>
      (await as('GET', `${BASE}/progresomasivo?CodigoCargaMasiva=${code}`)).body.result as Json;
    await expect.poll(async () => (await progress()).Estado, { timeout: 60_000 }).toBe('V');
    expect((await as('POST', `${BASE}/procesarmasivo`, { CodigoCargaMasiva: code })).status).toBe(200);
    await expect
      .poll(
        async () => {
          const now = await progress();
          return now.Estado === 'F' && !now.running;
        },
        { timeout: 60_000 },
      )
      .toBe(true);
    const rows = (await t.db.database.db
      .selectFrom(table('bulk-upload-row'))
      .select(['Fila', 'Estado', 'Errores', 'IdSolicitud'])
      .where('IdCargaMasiva', '=', sent.body.result.IdCargaMasiva)
      .orderBy('Fila')
      .execute()) as Json[];
    expect(rows).toHaveLength(cases.length);

    for (const [i, sample] of cases.entries()) {
      const single = await file({ ...sample.fields, Documento: oneByOne[i] });
      const row = rows[i];
      if (single.status === 200) {
        expect(row.Estado, `${sample.name}: ${row.Errores}`).toBe('S');
        expect(await made(row.IdSolicitud), sample.name).toEqual(await made(single.body.result.IdSolicitud));
      } else {
        expect(row.Estado, sample.name).toBe('E');
        // The single refusal's fields, as the file names their cells (Detalle.<id> is D<id>).
        const refused = Object.fromEntries(
          Object.entries((single.body.errors ?? {}) as Record<string, Json>).map(([field, problem]) => [
            field.startsWith('Detalle.') ? `D${field.slice(8)}` : field,
            problem.messageKey,
          ]),
        );
        const errors = JSON.parse(row.Errores) as Record<string, Json>;
        const inRow = Object.fromEntries(Object.entries(errors).map(([key, p]) => [key, p.messageKey]));
        if (Object.keys(refused).length) expect(inRow, sample.name).toEqual(refused);
        else expect(inRow, sample.name).toEqual({ '*': single.body.messageKey });
      }
    }
    // Both ways made the same number of requests, and refused the same cases.
    expect(rows.map((r) => r.Estado)).toEqual(['S', 'S', 'E', 'E', 'E', 'E', 'E']);
  });
});
