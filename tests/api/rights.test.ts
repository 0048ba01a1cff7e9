import { unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { entitiesNaming } from '../../src/server/features/privacy/export.js';
import { DIALECTS } from '../support/databases.js';
import { world } from '../support/world.js';

// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON
type Json = any;

describe.each(DIALECTS)("a person's rights requests on %s", (dialect) => {
  let worker: { IdPersona: number; Documento: string };
  const w = world(dialect, {
    users: { admin: 'ADMIN', authoriser: 'AUTORIZADOR' },
    ready: async (w) => {
      // A worker with a request whose lines hold files, and a health value of their own.
      worker = (await w
        .db()
        .selectFrom(`${w.table('request-detail')} as d`)
        .innerJoin(`${w.table('request')} as s`, 's.IdSolicitud', 'd.IdSolicitud')
        .innerJoin(`${w.table('person')} as p`, 'p.IdPersona', 's.IdPersona')
        .select(['p.IdPersona', 'p.Documento'])
        .where('d.ClaveArchivo', 'is not', null)
        .orderBy('p.IdPersona')
        .executeTakeFirstOrThrow()) as Json;
      await w
        .db()
        .updateTable(w.table('person'))
        .set({ Alergia: 'MARISCOS' } as never)
        .where('IdPersona', '=', worker.IdPersona)
        .execute();
    },
  });
  const register = (body: object) =>
    w.as('admin', 'POST', '/api/rest/rights-request', {
      IdPersona: worker.IdPersona,
      Pais: 'PE',
      Estado: 'P',
      ...body,
    });

  it('works out the legal deadline of each right under each law, and keeps portability to Chile', async () => {
    const access = await register({
      Tipo: 'A',
      FechaRecepcion: '2026-11-02',
      Detalle: 'Quiero copia de mis datos',
    });
    expect(access.status, JSON.stringify(access.body)).toBe(201);
    expect(access.body.FechaLimite).toBe('2026-11-30');
    const erasure = await register({ Tipo: 'C', FechaRecepcion: '2026-11-02' });
    expect(erasure.body.FechaLimite).toBe('2026-11-16');
    const chile = await register({ Tipo: 'P', Pais: 'CL', FechaRecepcion: '2026-11-02' });
    expect(chile.status).toBe(201);
    expect(chile.body.FechaLimite).toBe('2026-12-02');
    const refused = await register({ Tipo: 'P', FechaRecepcion: '2026-11-02' });
    expect(refused.status).toBe(400);
    expect(refused.body.errors.Tipo.message).toBe(
      "Portability is a right under Chile's law: choose Chile, Ley 21.719.",
    );
    // Received a week later, the deadline follows; answered, the day it was is kept.
    const { id, FechaLimite: _limit, ...fields } = erasure.body;
    const moved = await w.as('admin', 'PUT', `/api/rest/rights-request/${id}`, {
      ...Object.fromEntries(
        Object.entries(fields).filter(
          ([k, v]) =>
            v !== null &&
            ![
              'IdCliente',
              'IdUsuarioCreacion',
              'FechaCreacion',
              'IdUsuarioModificacion',
              'FechaModificacion',
            ].includes(k),
        ),
      ),
      FechaRecepcion: '2026-11-09',
      Estado: 'A',
      Respuesta: 'Datos suprimidos salvo los que exige la ley',
    });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(moved.body.FechaLimite).toBe('2026-11-23');
    expect(moved.body.FechaRespuesta).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it('answers an access request with every table that names the person, their files, a summary and who read their sensitive data', async () => {
    const asked = await register({ Tipo: 'A', FechaRecepcion: '2026-11-20' });
    // A read of their allergy, which the export's access log must show.
    await w.as('admin', 'GET', `/api/rest/person/${worker.IdPersona}`);
    const res = await w.as('admin', 'GET', `/api/privacidad/derechos/${asked.body.id}/exportacion`);
    expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(200);
    expect(res.body.result.fileName).toMatch(
      new RegExp(`^datos-personales-${worker.IdPersona}-\\d{8}\\.zip$`),
    );
    const files = unzipSync(new Uint8Array(Buffer.from(res.body.result.fileBase64, 'base64')));
    const names = Object.keys(files);
    const json = (name: string) =>
      JSON.parse(Buffer.from(files[`datos/${name}.json`]).toString('utf8')) as Json[];
    // Every table the schemas say names a person is there, with this person's rows only.
    const naming = entitiesNaming(w.registry).map((e) => e.name);
    expect(naming).toEqual(
      expect.arrayContaining([
        'person',
        'accreditation',
        'request',
        'credential',
        'marking',
        'sensitive-access',
      ]),
    );
    for (const name of naming) {
      expect(names, name).toContain(`datos/${name}.json`);
      for (const row of json(name)) expect(row.IdPersona, name).toBe(worker.IdPersona);
    }
    expect(json('person')[0]).toMatchObject({ Documento: worker.Documento, Alergia: 'MARISCOS' });
    expect(json('request').length).toBeGreaterThan(0);
    // The request's lines, which do not name the person, and their files.
    const lines = json('request-detail');
    expect(lines.length).toBeGreaterThan(0);
    const filed = lines.filter((l) => l.ClaveArchivo);
    expect(filed.length).toBeGreaterThan(0);
    for (const line of filed) {
      const file = names.find((n) => n.startsWith(`archivos/request-detail/${line.IdDetalle}-`)) as string;
      expect(file, String(line.IdDetalle)).toBeDefined();
      expect(Buffer.from(files[file]).subarray(0, 5).toString()).toBe('%PDF-');
    }
    expect(json('sensitive-access').map((r) => r.Campo)).toContain('Alergia');
    expect(Buffer.from(files['resumen.pdf']).subarray(0, 5).toString()).toBe('%PDF-');
    // Making it read their health data: logged, from the export.
    const logged = await w
      .db()
      .selectFrom(w.table('sensitive-access'))
      .selectAll()
      .where('IdPersona', '=', worker.IdPersona)
      .where('Origen', '=', 'GET /api/privacidad/derechos/:id/exportacion')
      .execute();
    expect(logged.map((r: Json) => r.Campo)).toContain('Alergia');
  });

  it('keeps the rights requests and their export to the profiles that hold them', async () => {
    expect((await w.as('authoriser', 'GET', '/api/rest/rights-request')).status).toBe(403);
    expect((await w.as('authoriser', 'GET', '/api/privacidad/derechos/1/exportacion')).status).toBe(403);
    expect((await w.as('admin', 'GET', '/api/privacidad/derechos/999999/exportacion')).status).toBe(404);
  });
});
