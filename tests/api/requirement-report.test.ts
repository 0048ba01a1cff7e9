import { describe, expect, it } from 'vitest';
import { addDays, siteDate } from '../../src/shared/dates.js';
import { call } from '../support/app.js';
import { DIALECTS } from '../support/databases.js';
import { world } from '../support/world.js';

// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON
type Json = any;
const SOUTH = 'UNIDAD MINERA SAN GABRIEL';
const URL = '/api/acceso/requisitosvencidos';

describe.each(DIALECTS)('the requirement report on %s', (dialect) => {
  const today = siteDate('PE');
  const db = () => w.t.db.database.db;
  const table = (name: string) => w.registry.require(name).table;
  const report = async (who: string, query = '') => {
    const res = await call(w.app, { url: `${URL}${query}`, token: tokens[who] });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.result as Json;
  };
  let worker: Json;
  let sctr: Json;

  const w = world(dialect, {
    users: { admin: { user: 'ADMIN', division: SOUTH }, requester: { user: 'SOLICITANTE', division: SOUTH } },
    ready: async () => {
      // Every kept value in force, then one worker of the requester's company with its SCTR expired.
      await db()
        .updateTable(table('accredited-requirement'))
        .set({ FechaVencimiento: addDays(today, 400) })
        .where('FechaVencimiento', 'is not', null)
        .execute();
      const requesterCompany = (await db()
        .selectFrom(table('user-profile'))
        .select('IdCompania')
        .where('IdUsuario', '=', 'SOLICITANTE')
        .where('IdCompania', 'is not', null)
        .executeTakeFirstOrThrow()) as Json;
      worker = await db()
        .selectFrom(`${table('accreditation')} as a`)
        .innerJoin(`${table('person')} as p`, 'p.IdPersona', 'a.IdPersona')
        .select(['a.IdAcreditacion', 'a.IdPersona', 'p.Documento'])
        .where('a.IdDivision', '=', 1)
        .where('a.Estado', '=', 'A')
        .where('a.IdCompania', '=', requesterCompany.IdCompania)
        .orderBy('a.IdAcreditacion')
        .executeTakeFirstOrThrow();
      sctr = await db()
        .selectFrom(`${table('accredited-requirement')} as k`)
        .innerJoin(`${table('requirement')} as q`, 'q.IdRequisito', 'k.IdRequisito')
        .select(['k.IdRequisito', 'q.Requisito'])
        .where('k.IdPersona', '=', worker.IdPersona)
        .where('q.Requisito', '=', 'SCTR SALUD')
        .executeTakeFirstOrThrow();
      await db()
        .updateTable(table('accredited-requirement'))
        .set({ FechaVencimiento: addDays(today, -3) })
        .where('IdPersona', '=', worker.IdPersona)
        .where('IdRequisito', '=', sctr.IdRequisito)
        .execute();
    },
  });
  const { tokens } = w;

  it('names each holder the gate turns away and its expired mandatory requirement, once', async () => {
    const rows = (await report('admin')) as Json[];
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      IdAcreditacion: worker.IdAcreditacion,
      Documento: worker.Documento,
      Requisito: 'SCTR SALUD',
      FechaVencimiento: addDays(today, -3),
      DiasVencido: 3,
      Estado: 'A',
    });
    expect(await report('admin', '?IdEntidad=V')).toEqual([]);
    // The contractor sees its own company's.
    expect(((await report('requester')) as Json[]).map((r) => r.IdAcreditacion)).toEqual([
      worker.IdAcreditacion,
    ]);
  });

  it('leaves out a requirement an exoneration of the division covers today, as the gate does', async () => {
    const type = (await db()
      .selectFrom(table('exoneration-type'))
      .select('IdTipoExoneracion')
      .executeTakeFirstOrThrow()) as Json;
    const made = await call(w.app, {
      method: 'POST',
      url: '/api/rest/exoneration',
      token: tokens.admin,
      payload: {
        IdPersona: worker.IdPersona,
        IdTipoExoneracion: type.IdTipoExoneracion,
        IdRequisito: sctr.IdRequisito,
        FechaInicio: addDays(today, -1),
        FechaFin: addDays(today, 5),
        Motivo: 'Renovación en trámite con la aseguradora',
        Activo: 'S',
      },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(await report('admin')).toEqual([]);
    await call(w.app, {
      method: 'DELETE',
      url: `/api/rest/exoneration/${made.body.IdExoneracion}`,
      token: tokens.admin,
    });
    expect(await report('admin')).toHaveLength(1);
  });

  it('exports the report to Excel, and refuses a bad kind', async () => {
    const file = await report('admin', '?formato=xlsx');
    expect(file.fileName).toMatch(/\.xlsx$/);
    expect(Buffer.from(file.fileBase64, 'base64').subarray(0, 2).toString()).toBe('PK');
    const bad = await call(w.app, { url: `${URL}?IdEntidad=X`, token: tokens.admin });
    expect(bad.status).toBe(400);
  });
});
