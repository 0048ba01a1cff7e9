import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { MASKED_KEY } from '../../src/shared/data-classes.js';
import { listUrl } from '../support/app.js';
import { DIALECTS } from '../support/databases.js';
import { world } from '../support/world.js';

// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON
type Json = any;

/** Values no other record holds, so that finding one anywhere means a health value leaked. */
const ALLERGY = 'ALERGIA MARCADA PRIVACIDAD';
const DISABILITY = 'DISCAPACIDAD MARCADA PRIVACIDAD';
const HEALTH_FIELDS = ['IdTipoSangre', 'Alergia', 'Discapacidad'];

/** A record as a client sends it back: what it may write, without the empties and the server's own. */
function editable(record: Json): Json {
  const SERVER = [
    'id',
    MASKED_KEY,
    'IdCliente',
    'Edad',
    'IdUsuarioCreacion',
    'FechaCreacion',
    'IdUsuarioModificacion',
    'FechaModificacion',
  ];
  return Object.fromEntries(Object.entries(record).filter(([k, v]) => v !== null && !SERVER.includes(k)));
}

async function cellsOf(bytes: Buffer): Promise<{ header: unknown[]; text: string }> {
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(bytes as unknown as ArrayBuffer);
  const rows: unknown[][] = [];
  book.worksheets[0].eachRow((row) => {
    rows.push((row.values as unknown[]).slice(1));
  });
  return { header: rows[0] ?? [], text: JSON.stringify(rows) };
}

describe.each(DIALECTS)('health and criminal-record data on %s', (dialect) => {
  let person: number;
  let bloodType: number;
  const w = world(dialect, {
    // AUTORIZADOR's profile does not read health data; SUPERVISOR has the same profile and a
    // setting of her own that does; SOLICITANTE's profile does, until a test says otherwise.
    users: { admin: 'ADMIN', authoriser: 'AUTORIZADOR', supervisor: 'SUPERVISOR', requester: 'SOLICITANTE' },
    ready: async (w) => {
      const sermipac = (await w
        .db()
        .selectFrom(w.table('company'))
        .select('IdCompania')
        .where('Alias', '=', 'SERMIPAC')
        .executeTakeFirstOrThrow()) as Json;
      const row = (await w
        .db()
        .selectFrom(w.table('person'))
        .select('IdPersona')
        .where('IdCompania', '=', sermipac.IdCompania)
        .orderBy('IdPersona')
        .executeTakeFirstOrThrow()) as Json;
      person = Number(row.IdPersona);
      const blood = (await w
        .db()
        .selectFrom(w.table('blood-type'))
        .select('IdTipoSangre')
        .orderBy('IdTipoSangre', 'desc')
        .executeTakeFirstOrThrow()) as Json;
      bloodType = Number(blood.IdTipoSangre);
      await w
        .db()
        .updateTable(w.table('person'))
        .set({ Alergia: ALLERGY, Discapacidad: DISABILITY, IdTipoSangre: bloodType } as never)
        .where('IdPersona', '=', person)
        .execute();
    },
  });

  const logOf = (where: Record<string, unknown> = {}) => {
    let qb = w.db().selectFrom(w.table('sensitive-access')).selectAll().where('IdPersona', '=', person);
    for (const [field, value] of Object.entries(where)) qb = qb.where(field, '=', value);
    return qb.orderBy('IdAccesoSensible').execute() as Promise<Json[]>;
  };
  const stored = async () =>
    (await w
      .db()
      .selectFrom(w.table('person'))
      .select(HEALTH_FIELDS)
      .where('IdPersona', '=', person)
      .executeTakeFirstOrThrow()) as Json;

  it('sends a record to a profile without health access with its health fields empty and named, and logs nothing', async () => {
    const before = (await logOf()).length;
    const res = await w.as('authoriser', 'GET', `/api/rest/person/${person}`);
    expect(res.status).toBe(200);
    for (const field of HEALTH_FIELDS) expect(res.body[field], field).toBeNull();
    expect(res.body[MASKED_KEY]).toEqual(HEALTH_FIELDS);
    expect(res.body.Apellido).toBeTruthy();
    expect(await logOf()).toHaveLength(before);
  });

  it('lets a user whose own setting allows health data read it through the same profile, and logs each value read', async () => {
    const res = await w.as('supervisor', 'GET', `/api/rest/person/${person}`, undefined, {
      headers: { 'x-current-path': `/person/${person}/show` },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ Alergia: ALLERGY, Discapacidad: DISABILITY, IdTipoSangre: bloodType });
    expect(res.body[MASKED_KEY]).toBeUndefined();
    const rows = await logOf({ IdUsuario: 'SUPERVISOR' });
    expect(rows.map((r) => r.Campo).sort()).toEqual([...HEALTH_FIELDS].sort());
    for (const row of rows) {
      expect(row).toMatchObject({
        Recurso: 'person',
        IdRegistro: String(person),
        ClaseDato: 'health',
        IdPerfil: w.signedIn.supervisor.perfil.IdPerfil,
        Origen: `GET /api/rest/person/:id · /person/${person}/show`,
      });
      expect(Date.now() - Date.parse(String(row.Fecha))).toBeLessThan(60_000);
    }
  });

  it('finds no health value in any list, lookup or export a profile without health access reaches', async () => {
    let walked = 0;
    for (const entity of w.registry.entities) {
      const list = await w.as('authoriser', 'GET', listUrl(entity.name, { range: [0, 499] }));
      if (list.status === 403) continue;
      expect(list.status, entity.name).toBe(200);
      expect(JSON.stringify(list.body), entity.name).not.toContain(ALLERGY);
      expect(JSON.stringify(list.body), entity.name).not.toContain(DISABILITY);
      const exported = await w.t.app.inject({
        url: `/api/rest/${entity.name}/export?columns=all`,
        headers: { authorization: `Bearer ${w.tokens.authoriser}` },
      });
      expect(exported.statusCode, entity.name).toBe(200);
      const { text } = await cellsOf(exported.rawPayload);
      expect(text, entity.name).not.toContain(ALLERGY);
      expect(text, entity.name).not.toContain(DISABILITY);
      if (entity.lookup) {
        const lookup = await w.as('authoriser', 'GET', `/api/${entity.lookup}/obtenerTodos`);
        expect(JSON.stringify(lookup.body), entity.name).not.toContain(ALLERGY);
      }
      walked++;
    }
    // The person list among them, and the references its forms read.
    expect(walked).toBeGreaterThan(10);
    const people = await w.t.app.inject({
      url: '/api/rest/person/export?columns=all',
      headers: { authorization: `Bearer ${w.tokens.authoriser}`, 'accept-language': 'en' },
    });
    const { header } = await cellsOf(people.rawPayload);
    expect(header).toContain('Surnames');
    expect(header).not.toContain('Blood type');
    expect(header).not.toContain('Allergy');
  });

  it('keeps health values out of every list, even for a profile that reads them', async () => {
    const list = await w.as('admin', 'GET', listUrl('person', { filter: { id: [person] } }));
    expect(list.status).toBe(200);
    expect(list.body).toHaveLength(1);
    for (const field of HEALTH_FIELDS) expect(Object.hasOwn(list.body[0], field), field).toBe(false);
  });

  it('keeps the health values of a record saved as a list gave it, and clears one sent empty', async () => {
    const [listed] = (await w.as('admin', 'GET', listUrl('person', { filter: { id: [person] } })))
      .body as Json[];
    const record = editable(listed);
    const saved = await w.as('admin', 'PUT', `/api/rest/person/${person}`, record);
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(await stored()).toMatchObject({
      Alergia: ALLERGY,
      Discapacidad: DISABILITY,
      IdTipoSangre: bloodType,
    });
    const cleared = await w.as('admin', 'PUT', `/api/rest/person/${person}`, {
      ...record,
      Discapacidad: null,
    });
    expect(cleared.status).toBe(200);
    expect(await stored()).toMatchObject({ Alergia: ALLERGY, Discapacidad: null, IdTipoSangre: bloodType });
    await w
      .db()
      .updateTable(w.table('person'))
      .set({ Discapacidad: DISABILITY } as never)
      .where('IdPersona', '=', person)
      .execute();
  });

  it('exports the health columns to a profile that reads them, and logs every value exported', async () => {
    const before = (await logOf({ IdUsuario: 'ADMIN' })).length;
    const res = await w.t.app.inject({
      url: `/api/rest/person/export?columns=all&filter=${encodeURIComponent(JSON.stringify({ id: [person] }))}`,
      headers: { authorization: `Bearer ${w.tokens.admin}`, 'accept-language': 'en' },
    });
    expect(res.statusCode).toBe(200);
    const { header, text } = await cellsOf(res.rawPayload);
    expect(header).toContain('Allergy');
    expect(text).toContain(ALLERGY);
    const rows = (await logOf({ IdUsuario: 'ADMIN' })).slice(before);
    expect(rows.map((r) => r.Campo).sort()).toEqual([...HEALTH_FIELDS].sort());
    for (const row of rows) expect(row.Origen).toBe('GET /api/rest/person/export');
  });

  it('refuses to filter a list by a health value', async () => {
    for (const who of ['admin', 'authoriser']) {
      const res = await w.as(who, 'GET', listUrl('person', { filter: { IdTipoSangre: bloodType } }));
      expect(res.status, who).toBe(400);
    }
  });

  it('keeps the stored health values when a profile that cannot read them saves the record', async () => {
    const profile = w.signedIn.requester.perfil.IdPerfil;
    await w
      .db()
      .updateTable(w.table('profile'))
      .set({ DatosSalud: 'N' } as never)
      .where('IdPerfil', '=', profile)
      .execute();
    w.app.grants.clear();
    try {
      const read = await w.as('requester', 'GET', `/api/rest/person/${person}`);
      expect(read.status).toBe(200);
      expect(read.body.Alergia).toBeNull();
      const record = editable(read.body);
      const saved = await w.as('requester', 'PUT', `/api/rest/person/${person}`, {
        ...record,
        Alergia: 'OTRA',
        Observacion: 'GUARDADO SIN VER SU SALUD',
      });
      expect(saved.status, JSON.stringify(saved.body)).toBe(200);
      expect(saved.body.Alergia).toBeNull();
      expect(await stored()).toMatchObject({
        Alergia: ALLERGY,
        Discapacidad: DISABILITY,
        IdTipoSangre: bloodType,
      });
    } finally {
      await w
        .db()
        .updateTable(w.table('profile'))
        .set({ DatosSalud: 'S' } as never)
        .where('IdPerfil', '=', profile)
        .execute();
      w.app.grants.clear();
    }
  });

  it('says in the audit trail that a health value changed, never the value', async () => {
    const read = await w.as('admin', 'GET', `/api/rest/person/${person}`);
    const record = editable(read.body);
    const saved = await w.as('admin', 'PUT', `/api/rest/person/${person}`, {
      ...record,
      Alergia: 'POLEN MARCADO',
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const trail = await w.as('admin', 'GET', `/api/rest/person/${person}/history`);
    const [last] = trail.body as Json[];
    expect(last.Campos).toContain('Alergia');
    expect(JSON.parse(last.Antes).Alergia).toBe('********');
    expect(JSON.parse(last.Despues).Alergia).toBe('********');
    expect(JSON.stringify(trail.body)).not.toContain('POLEN MARCADO');
    expect(JSON.stringify(trail.body)).not.toContain(ALLERGY);
    await w
      .db()
      .updateTable(w.table('person'))
      .set({ Alergia: ALLERGY } as never)
      .where('IdPersona', '=', person)
      .execute();
  });

  it("hides a medical examination's values and file from an authoriser without health access, and logs a reader's", async () => {
    const file = (await w
      .db()
      .selectFrom(`${w.table('request-detail')} as d`)
      .innerJoin(`${w.table('requirement')} as r`, 'r.IdRequisito', 'd.IdRequisito')
      .innerJoin(`${w.table('request')} as s`, 's.IdSolicitud', 'd.IdSolicitud')
      .select(['d.IdDetalle', 'd.IdSolicitud', 'd.IdRequisito', 's.IdPersona'])
      .where('r.ClaseDato', '=', 'health')
      .where('d.ClaveArchivo', 'is not', null)
      .where('s.IdEntidad', '=', 'T')
      .where('s.IdDivision', '=', w.signedIn.authoriser.perfil.IdDivision)
      .orderBy('d.IdDetalle')
      .executeTakeFirstOrThrow()) as Json;
    const values = (await w
      .db()
      .selectFrom(w.table('request-detail'))
      .select(['IdDetalle', 'Valor'])
      .where('IdSolicitud', '=', file.IdSolicitud)
      .where('IdRequisito', '=', file.IdRequisito)
      .where('Valor', 'is not', null)
      .orderBy('IdDetalle')
      .execute()) as Json[];
    expect(values.length).toBeGreaterThan(0);
    const BASE = '/api/acreditacionsolicituddetalle';
    const itemsOf = async (who: string) => {
      const res = await w.as(who, 'GET', `${BASE}/obtenerbyautorizador?IdSolicitud=${file.IdSolicitud}`);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return (res.body.result[0] as Json[]).filter((i) => i.IdRequisito === file.IdRequisito);
    };
    const download = (who: string) =>
      w.as(who, 'GET', `${BASE}/downloadFileBase64?IdSolicitud=${file.IdSolicitud}&IdFile=${file.IdDetalle}`);
    const logged = () =>
      w
        .db()
        .selectFrom(w.table('sensitive-access'))
        .selectAll()
        .where('Recurso', '=', 'request-detail')
        .where('ClaseDato', '=', 'health')
        .where('IdPersona', '=', file.IdPersona)
        .orderBy('IdAccesoSensible')
        .execute() as Promise<Json[]>;

    const hidden = await itemsOf('authoriser');
    expect(hidden.length).toBeGreaterThan(values.length);
    for (const item of hidden)
      expect(item).toMatchObject({ Value: null, Protegido: 'health', readOnly: true });
    const refused = await download('authoriser');
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe('Your profile may not read health data: this file is protected.');
    expect(await logged()).toEqual([]);

    const shown = await itemsOf('supervisor');
    for (const { IdDetalle, Valor } of values)
      expect(shown.find((i) => i.IdSecuencial === IdDetalle)).toMatchObject({
        Value: Valor,
        Protegido: null,
      });
    const pdf = await download('supervisor');
    expect(pdf.status).toBe(200);
    expect(Buffer.from(pdf.body.result.file, 'base64').subarray(0, 5).toString()).toBe('%PDF-');
    const rows = await logged();
    expect(rows.map((r) => [r.IdUsuario, r.IdRegistro, r.Campo, r.ClaseDato])).toEqual([
      ...values.map((v) => ['SUPERVISOR', String(v.IdDetalle), 'Valor', 'health']),
      ['SUPERVISOR', String(file.IdDetalle), 'ClaveArchivo', 'health'],
    ]);
    expect(rows.at(-1).Origen).toBe(`GET ${BASE}/downloadFileBase64`);
  });

  it("masks the medical examination's values a person holds for an authoriser without health access, and logs a reader's", async () => {
    const held = (await w
      .db()
      .selectFrom(`${w.table('accredited-requirement')} as a`)
      .innerJoin(`${w.table('requirement')} as r`, 'r.IdRequisito', 'a.IdRequisito')
      .select(['a.IdPersona', 'a.IdRequisitoAcreditado', 'a.Valor'])
      .where('r.ClaseDato', '=', 'health')
      .where('a.Valor', 'is not', null)
      .orderBy('a.IdRequisitoAcreditado')
      .executeTakeFirstOrThrow()) as Json;
    const url = `/api/acreditacionsolicituddetalle/listarbypersona?IdPersona=${held.IdPersona}`;
    const rowOf = async (who: string) => {
      const res = await w.as(who, 'GET', url);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return (res.body.result as Json[]).find((r) => r.IdRequisitoAcreditado === held.IdRequisitoAcreditado);
    };
    const logged = () =>
      w.count('sensitive-access', {
        Recurso: 'accredited-requirement',
        IdRegistro: String(held.IdRequisitoAcreditado),
        ClaseDato: 'health',
      });
    expect(await rowOf('authoriser')).toMatchObject({ Valor: null, Protegido: 'health' });
    expect(await logged()).toBe(0);
    expect(await rowOf('supervisor')).toMatchObject({ Valor: held.Valor, Protegido: null });
    expect(await logged()).toBe(1);
  });

  it("masks the worker's health data the request form looks up by document for a requester kept from them", async () => {
    const record = (await w
      .db()
      .selectFrom(w.table('person'))
      .select(['IdTipoDocumento', 'Documento'])
      .where('IdPersona', '=', person)
      .executeTakeFirstOrThrow()) as Json;
    const url = `/api/acreditacionsolicitud/validar?IdEntidad=T&IdTipoDocumento=${record.IdTipoDocumento}&Documento=${record.Documento}`;
    const allowed = await w.as('requester', 'GET', url);
    expect(allowed.status, JSON.stringify(allowed.body)).toBe(200);
    expect(allowed.body.result.persona.Alergia).toBe(ALLERGY);
    await w
      .db()
      .updateTable(w.table('user'))
      .set({ DatosSalud: 'N' } as never)
      .where('IdUsuario', '=', 'SOLICITANTE')
      .execute();
    w.app.dataProtection.clear();
    try {
      const masked = await w.as('requester', 'GET', url);
      expect(masked.body.result.persona).toMatchObject({
        Alergia: null,
        Discapacidad: null,
        IdTipoSangre: null,
      });
      expect(masked.body.result.persona[MASKED_KEY]).toEqual(HEALTH_FIELDS);
    } finally {
      await w
        .db()
        .updateTable(w.table('user'))
        .set({ DatosSalud: null } as never)
        .where('IdUsuario', '=', 'SOLICITANTE')
        .execute();
      w.app.dataProtection.clear();
    }
  });

  it('shows a criminal-record certificate to the authoriser, whose profile reads them, and logs it', async () => {
    const line = (await w
      .db()
      .selectFrom(`${w.table('request-detail')} as d`)
      .innerJoin(`${w.table('requirement')} as r`, 'r.IdRequisito', 'd.IdRequisito')
      .innerJoin(`${w.table('request')} as s`, 's.IdSolicitud', 'd.IdSolicitud')
      .select(['d.IdDetalle', 'd.IdSolicitud', 'd.Valor'])
      .where('r.ClaseDato', '=', 'criminal')
      .where('d.Valor', 'is not', null)
      .where('s.IdEntidad', '=', 'T')
      .where('s.IdDivision', '=', w.signedIn.authoriser.perfil.IdDivision)
      .orderBy('d.IdDetalle')
      .executeTakeFirstOrThrow()) as Json;
    const where = {
      IdUsuario: 'AUTORIZADOR',
      Recurso: 'request-detail',
      IdRegistro: String(line.IdDetalle),
      ClaseDato: 'criminal',
    };
    const before = await w.count('sensitive-access', where);
    const res = await w.as(
      'authoriser',
      'GET',
      `/api/acreditacionsolicituddetalle/obtenerbyautorizador?IdSolicitud=${line.IdSolicitud}`,
    );
    const item = (res.body.result[0] as Json[]).find((i) => i.IdSecuencial === line.IdDetalle);
    expect(item).toMatchObject({ Value: line.Valor, Protegido: null });
    expect(await w.count('sensitive-access', where)).toBe(before + 1);
  });

  it('lets the administrator search and export the access log, which no call and no statement changes or deletes', async () => {
    const list = await w.as('admin', 'GET', listUrl('sensitive-access', { filter: { IdPersona: person } }));
    expect(list.status).toBe(200);
    expect(list.body.length).toBeGreaterThan(0);
    const exported = await w.t.app.inject({
      url: `/api/rest/sensitive-access/export?filter=${encodeURIComponent(JSON.stringify({ IdPersona: person }))}`,
      headers: { authorization: `Bearer ${w.tokens.admin}` },
    });
    expect(exported.statusCode).toBe(200);
    expect((await cellsOf(exported.rawPayload)).text).toContain('SUPERVISOR');
    expect((await w.as('authoriser', 'GET', listUrl('sensitive-access'))).status).toBe(403);
    const id = list.body[0].id;
    for (const [method, url] of [
      ['POST', '/api/rest/sensitive-access'],
      ['PUT', `/api/rest/sensitive-access/${id}`],
      ['DELETE', `/api/rest/sensitive-access/${id}`],
    ] as const)
      expect(
        (await w.as('admin', method, url, method === 'DELETE' ? undefined : { Campo: 'X' })).status,
        method,
      ).toBe(404);
    const table = w.table('sensitive-access');
    await expect(
      w
        .db()
        .updateTable(table)
        .set({ Campo: 'CAMBIADO' } as never)
        .where('IdAccesoSensible', '=', id)
        .execute(),
    ).rejects.toThrow(/append-only/);
    await expect(w.db().deleteFrom(table).where('IdAccesoSensible', '=', id).execute()).rejects.toThrow(
      /append-only/,
    );
    expect(await w.count('sensitive-access', { IdAccesoSensible: id, Campo: list.body[0].Campo })).toBe(1);
  });
});
