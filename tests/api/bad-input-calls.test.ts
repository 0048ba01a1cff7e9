import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, siteDate } from '../../src/shared/dates.js';
import { catalogue, multipart, pdf } from '../support/accreditation.js';
import { call, signIn, startTestApp, type TestApp } from '../support/app.js';
import { DIALECTS } from '../support/databases.js';

// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON
type Json = any;
const SOUTH = 'UNIDAD MINERA SAN GABRIEL';
const REQUESTS = '/api/acreditacionsolicitud';

/**
 * Bad input to the accreditation, bulk and device calls is a 400 on both databases, and nothing is
 * kept: NUL characters in multipart fields and file names (PostgreSQL cannot store one, SQLite
 * would), a Detalle that is not JSON, numbers JSON cannot hold (1e400 reads as Infinity), and
 * numbers beyond the database's integers.
 */
describe.each(DIALECTS)('bad input to the accreditation and device calls on %s', (dialect) => {
  let t: TestApp;
  let requester: string;
  let deviceKey: string;
  let requestId: number;
  let fileDatum: number;
  let worker: Json;
  const today = siteDate('PE');

  const send = (method: 'POST' | 'PUT' | 'GET', url: string, payload?: string | Buffer, headers = {}) =>
    call(t.app, { method, url, token: requester, payload, headers });
  const json = (method: 'POST' | 'PUT', url: string, text: string) =>
    send(method, url, text, { 'content-type': 'application/json' });
  const parts = (url: string, fields: Record<string, string>, file?: Json) => {
    const body = multipart(fields, file);
    return send('POST', url, body.payload, body.headers);
  };
  /** A multipart body written by hand: a part's headers as given, then its content. */
  const rawParts = (url: string, partsText: Array<{ headers: string; content: string | Buffer }>) => {
    const boundary = '----acrbad';
    const body = Buffer.concat([
      ...partsText.flatMap((p) => [
        Buffer.from(`--${boundary}\r\n${p.headers}\r\n\r\n`),
        Buffer.from(p.content),
        Buffer.from('\r\n'),
      ]),
      Buffer.from(`--${boundary}--\r\n`),
    ]);
    return send('POST', url, body, { 'content-type': `multipart/form-data; boundary=${boundary}` });
  };
  const expectRefused = (res: { status: number; body: Json }, messageKey: string, what: string) => {
    expect(res.status, `${what}: ${JSON.stringify(res.body)}`).toBe(400);
    expect(res.body.messageKey, what).toBe(messageKey);
    expect(typeof res.body.message, what).toBe('string');
  };
  const requestsOf = (holder: { IdPersona: number }) =>
    t.db.database.db
      .selectFrom(t.registry.require('request').table)
      .select(['IdSolicitud', 'TipoSolicitud', 'Observacion'])
      .where('IdPersona', '=', holder.IdPersona)
      .execute() as Promise<Json[]>;
  const linesOf = (id: number) =>
    t.db.database.db
      .selectFrom(t.registry.require('request-detail').table)
      .select(['IdDatoEvaluar', 'Valor', 'NombreArchivo', 'ClaveArchivo'])
      .where('IdSolicitud', '=', id)
      .execute() as Promise<Json[]>;

  beforeAll(async () => {
    t = await startTestApp(dialect);
    const admin = (await signIn(t.app, 'ADMIN', { division: SOUTH })).accessToken;
    requester = (await signIn(t.app, 'SOLICITANTE', { division: SOUTH })).accessToken;
    const cat = await catalogue(t.app, admin);
    const contract = (await cat.list('contract')).find((c: Json) => c.NumeroContrato === 'CT-2026-001');
    const made = await call(t.app, {
      method: 'POST',
      url: `${REQUESTS}/crearsolicitante`,
      token: requester,
      payload: {
        IdEntidad: 'T',
        IdContrato: contract.IdContrato,
        IdPerfilAcreditacion: cat.worker,
        FechaInicio: today,
        FechaFin: addDays(today, 100),
        IdTipoDocumento: cat.dni,
        Documento: '70998877',
        Apellido: 'Quispe Ramos',
        Nombre: 'Ana',
        Sexo: 'F',
        FechaNacimiento: '1990-01-01',
        IdPaisNacimiento: 'PE',
        IdPaisResidencia: 'PE',
        TelefonoMovil: '987654321',
      },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    requestId = made.body.result.IdSolicitud;
    const detail = await send('GET', `/api/acreditacionsolicituddetalle/obtener?IdSolicitud=${requestId}`);
    fileDatum = (detail.body.result[0] as Json[]).find(
      (i) => i.AdjuntarArchivo === 'S' && i.TipoRequisito === 'S',
    ).IdDatoEvaluar;
    const rows = await json(
      'POST',
      '/api/acreditaciondesmovilizacion/filtrarNuevoSolicitante',
      JSON.stringify({ IdEntidad: 'T' }),
    );
    worker = (rows.body.result as Json[]).find((r) => r.Estado === 'A');
    const issued = await call(t.app, { method: 'POST', url: '/api/acceso/equipo/1/clave', token: admin });
    deviceKey = issued.body.result.key;
  });
  afterAll(async () => {
    await t?.close();
  });

  it('refuses a NUL character in a multipart field, a field’s name or a file’s name, on every call that reads one, and keeps nothing', async () => {
    const letter = (name: string) => ({ name, bytes: pdf('CARTA'), type: 'application/pdf' });
    const attach = { IdSolicitud: String(requestId), IdDatoEvaluar: String(fileDatum) };
    expectRefused(
      await parts(`${REQUESTS}/UploadSolicitanteArchivo`, attach, letter('constancia\u0000.pdf')),
      'validation.nulCharacter',
      'an attachment’s file name',
    );
    expectRefused(
      await parts(`${REQUESTS}/UploadSolicitanteArchivo`, { ...attach, Nota: 'A\u0000B' }, letter('ok.pdf')),
      'validation.nulCharacter',
      'a text field beside an attachment',
    );
    // A file name in the RFC 5987 form, its NUL percent-encoded.
    expectRefused(
      await rawParts(`${REQUESTS}/UploadSolicitanteArchivo`, [
        { headers: 'Content-Disposition: form-data; name="IdSolicitud"', content: String(requestId) },
        { headers: 'Content-Disposition: form-data; name="IdDatoEvaluar"', content: String(fileDatum) },
        {
          headers:
            'Content-Disposition: form-data; name="file"; filename*=UTF-8\'\'carta%00.pdf\r\nContent-Type: application/pdf',
          content: pdf('CARTA'),
        },
      ]),
      'validation.nulCharacter',
      'an encoded file name',
    );
    expect((await linesOf(requestId)).filter((l) => l.ClaveArchivo)).toEqual([]);

    const demobilise = '/api/acreditaciondesmovilizacion/crear';
    const selected = { Acreditaciones: `[${worker.IdAcreditacion}]` };
    expectRefused(
      await parts(demobilise, { ...selected, Observacion: 'FIN DE OBRA\u0000' }),
      'validation.nulCharacter',
      'a demobilisation’s observation',
    );
    expectRefused(
      await parts(demobilise, { ...selected, Observacion: 'FIN DE OBRA' }, letter('carta\u0000.pdf')),
      'validation.nulCharacter',
      'a demobilisation letter’s file name',
    );
    expectRefused(
      await parts(demobilise, { ...selected, 'Observacion\u0000': 'FIN DE OBRA' }),
      'validation.nulCharacter',
      'a field’s name',
    );
    expectRefused(
      await parts('/api/acreditacionrequisitosolicitud/crear', {
        IdEntidad: 'T',
        IdPersona: String(worker.IdPersona),
        IdRequisito: '1',
        Observacion: 'RENOVACION\u0000',
      }),
      'validation.nulCharacter',
      'a renewal’s observation',
    );
    expectRefused(
      await parts(
        `${REQUESTS}/cargamasiva`,
        { IdContrato: String(worker.IdContrato), IdPerfilAcreditacion: '1' },
        { name: 'carga\u0000.xlsx', bytes: Buffer.from('PK\u0003\u0004') },
      ),
      'validation.nulCharacter',
      'a bulk workbook’s file name',
    );
    expect((await requestsOf(worker)).filter((r) => r.TipoSolicitud !== 'M')).toEqual([]);
  });

  it('refuses a Detalle that is not JSON, or whose JSON holds a NUL or an impossible number, on every call that takes one', async () => {
    const bad = 'no es JSON';
    for (const [method, url, body] of [
      ['POST', `${REQUESTS}/actualizarsolicitante`, { IdSolicitud: requestId, Detalle: bad }],
      [
        'PUT',
        '/api/acreditacionvisitapersonadetalle/actualizarrequisitos',
        { IdSolicitud: requestId, IdVisitaPersona: 1, Detalle: bad },
      ],
      [
        'POST',
        '/api/acreditacionrequisitosolicitud/crear',
        { IdEntidad: 'T', IdPersona: worker.IdPersona, IdRequisito: 1, Detalle: bad },
      ],
    ] as const) {
      const res = await json(method, url, JSON.stringify(body));
      expect(res.status, `${url}: ${JSON.stringify(res.body)}`).toBe(400);
      expect(res.body.errors.Detalle.messageKey, url).toBe('validation.invalid');
    }
    // JSON inside the text: an escaped NUL and a 1e400 are refused as in a body.
    const value = (raw: string) => `[{"IdDatoEvaluar": ${fileDatum}, "Valor": ${raw}}]`;
    expectRefused(
      await json(
        'POST',
        `${REQUESTS}/actualizarsolicitante`,
        JSON.stringify({ IdSolicitud: requestId, Detalle: value('"A\\u0000B"') }),
      ),
      'validation.nulCharacter',
      'an escaped NUL',
    );
    expectRefused(
      await json(
        'POST',
        `${REQUESTS}/actualizarsolicitante`,
        JSON.stringify({ IdSolicitud: requestId, Detalle: `[{"IdDatoEvaluar": 1e400, "Valor": "1"}]` }),
      ),
      'validation.numberOutOfRange',
      'a datum 1e400',
    );
    expect((await linesOf(requestId)).some((l) => String(l.Valor ?? '').includes('\u0000'))).toBe(false);
  });

  it('refuses 1e400 (Infinity) wherever a number is read: a body, a list’s filter, a multipart field, a device’s batch', async () => {
    expectRefused(
      await json(
        'POST',
        '/api/acreditaciondesmovilizacion/crear',
        '{"Acreditaciones":[1e400],"Observacion":"X"}',
      ),
      'validation.numberOutOfRange',
      'a JSON body',
    );
    expectRefused(
      await parts('/api/acreditaciondesmovilizacion/crear', { Acreditaciones: '[1e400]', Observacion: 'X' }),
      'validation.numberOutOfRange',
      'a multipart field holding JSON',
    );
    expectRefused(
      await send('GET', `${REQUESTS}/filtrar?filter=${encodeURIComponent('[["IdSolicitud","=",1e400]]')}`),
      'validation.numberOutOfRange',
      'a request list’s filter',
    );
    const person = (await send('GET', '/api/rest/person?range=[0,0]')).body[0];
    expectRefused(
      await json(
        'PUT',
        `/api/rest/person/${person.id}`,
        JSON.stringify({ ...person, NumeroHijos: 7 }).replace('"NumeroHijos":7', '"NumeroHijos":1e400'),
      ),
      'validation.numberOutOfRange',
      'a record’s number',
    );
    const markings = () => t.db.database.db.selectFrom('access_marking').select('IdMarcacion').execute();
    const before = (await markings()).length;
    const batch = await call(t.app, {
      method: 'POST',
      url: '/api/acceso/marcaciones',
      headers: { authorization: `Device ${deviceKey}`, 'content-type': 'application/json' },
      payload: `{"Marcas":[{"IdMarca":1e400,"IdPuerta":1,"Credencial":"X","FechaHora":"${new Date().toISOString()}"}]}`,
    });
    expectRefused(batch, 'validation.numberOutOfRange', 'a device’s batch');
    expect((await markings()).length).toBe(before);
  });

  it('refuses an escaped NUL inside a list’s JSON filter', async () => {
    for (const url of [
      `/api/rest/country?filter=${encodeURIComponent('{"q":"A\\u0000"}')}`,
      `${REQUESTS}/filtrar?filter=${encodeURIComponent('[["Documento","contains","A\\u0000"]]')}`,
    ]) {
      const res = await send('GET', url);
      expect(res.status, `${url}: ${JSON.stringify(res.body)}`).toBe(400);
      expect(res.body.messageKey).toBe('validation.nulCharacter');
    }
  });

  it('refuses allow-list parameters beyond the database’s integers', async () => {
    const allowList = (query: string) =>
      call(t.app, {
        url: `/api/acceso/listapermitidos?${query}`,
        headers: { authorization: `Device ${deviceKey}` },
      });
    for (const query of [
      'puntoControl=2147483648',
      'puntoControl=99999999999',
      'puntoControl=1&version=2147483648',
      'puntoControl=1&version=999999999999',
      'puntoControl=1e400',
    ]) {
      const res = await allowList(query);
      expect(res.status, `${query}: ${JSON.stringify(res.body)}`).toBe(400);
      expect(res.body.code, query).toBe('BAD_REQUEST');
    }
    expect((await allowList('puntoControl=1')).status).toBe(200);
  });
});
