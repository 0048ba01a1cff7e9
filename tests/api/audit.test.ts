import { describe, expect, it } from 'vitest';
import { CrudService } from '../../src/server/crud/service.js';
import { SYSTEM_PRINCIPAL } from '../../src/server/plugins/auth.js';
import { call, listUrl, type SignedIn } from '../support/app.js';
import { DIALECTS } from '../support/databases.js';
import { world } from '../support/world.js';

type Data = Record<string, unknown>;

describe.each(DIALECTS)('audit trail on %s', (dialect) => {
  let admin: SignedIn;
  let requester: SignedIn;
  const as = (who: SignedIn, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
    call(w.app, { method, url, payload, token: who.accessToken });
  const trail = async (resource: string, id: unknown) =>
    (
      await as(
        admin,
        'GET',
        listUrl('audit', { filter: { Recurso: resource, IdRegistro: String(id) }, range: [0, 99] }),
      )
    ).body as Data[];

  const w = world(dialect, {
    users: { admin: 'ADMIN', requester: 'SOLICITANTE' },
    ready: async () => {
      admin = w.signedIn.admin;
      requester = w.signedIn.requester;
    },
  });

  it('records who, when, which record and the values before and after of every create, update and delete', async () => {
    const created = await as(admin, 'POST', '/api/rest/cost-centre', {
      Codigo: 'CC-900',
      Descripcion: 'PRUEBA',
      Activo: 'S',
    });
    expect(created.status).toBe(201);
    const id = created.body.id;
    const updated = await as(admin, 'PUT', `/api/rest/cost-centre/${id}`, {
      Codigo: 'CC-900',
      Descripcion: 'PRUEBA DOS',
      Activo: 'N',
    });
    expect(updated.status).toBe(200);
    expect((await as(admin, 'DELETE', `/api/rest/cost-centre/${id}`)).status).toBe(200);

    const rows = await trail('cost-centre', id);
    expect(rows.map((r) => r.Operacion)).toEqual(['D', 'U', 'C']);
    for (const row of rows) {
      expect(row.IdUsuario).toBe('ADMIN');
      expect(row.IdCliente).toBe(admin.perfil.IdCliente);
      expect(Date.now() - Date.parse(String(row.Fecha))).toBeLessThan(60_000);
    }
    const [deleted, update, create] = rows;
    expect(create.Antes).toBeNull();
    expect(JSON.parse(String(create.Despues))).toMatchObject({
      Codigo: 'CC-900',
      Descripcion: 'PRUEBA',
      Activo: 'S',
    });
    expect(update.Campos).toBe('Descripcion, Activo');
    expect(JSON.parse(String(update.Antes))).toMatchObject({ Descripcion: 'PRUEBA', Activo: 'S' });
    expect(JSON.parse(String(update.Despues))).toMatchObject({ Descripcion: 'PRUEBA DOS', Activo: 'N' });
    expect(JSON.parse(String(deleted.Antes))).toMatchObject({ Descripcion: 'PRUEBA DOS' });
    expect(deleted.Despues).toBeNull();
  });

  it('masks secrets in the trail', async () => {
    const path = (await as(admin, 'GET', listUrl('repository-path', { range: [0, 0] }))).body[0];
    const {
      id,
      IdCliente: _c,
      IdRuta: _k,
      FechaCreacion: _f,
      IdUsuarioCreacion: _u,
      FechaModificacion: _m,
      IdUsuarioModificacion: _n,
      ...body
    } = path;
    expect(
      (await as(admin, 'PUT', `/api/rest/repository-path/${id}`, { ...body, Clave: 'OtraClave#2026' }))
        .status,
    ).toBe(200);
    const [change] = await trail('repository-path', id);
    expect(change.Campos).toBe('Clave');
    expect(JSON.parse(String(change.Despues)).Clave).toBe('********');
    expect(String(change.Despues)).not.toContain('OtraClave');
  });

  it('never sends a secret back, and keeps it when a save leaves it empty', async () => {
    const [path] = (await as(admin, 'GET', listUrl('repository-path', { range: [0, 0] }))).body;
    expect(path).not.toHaveProperty('Clave');
    const shown = (await as(admin, 'GET', `/api/rest/repository-path/${path.id}`)).body;
    expect(shown).not.toHaveProperty('Clave');
    const stored = async () =>
      (
        await w.app.database.db
          .selectFrom(w.registry.require('repository-path').table)
          .select('Clave')
          .where('IdRuta', '=', path.id)
          .executeTakeFirstOrThrow()
      ).Clave;
    const { id: _id, IdCliente: _c, IdRuta: _k, ...fields } = shown;
    for (const key of ['FechaCreacion', 'IdUsuarioCreacion', 'FechaModificacion', 'IdUsuarioModificacion'])
      delete fields[key];
    const set = await as(admin, 'PUT', `/api/rest/repository-path/${path.id}`, {
      ...fields,
      Clave: 'Nueva#2026',
    });
    expect(set.status).toBe(200);
    expect(set.body).not.toHaveProperty('Clave');
    expect(await stored()).toBe('Nueva#2026');
    // The form sends the record back without it, or empty: the stored one stays.
    for (const Clave of [undefined, '']) {
      const kept = await as(admin, 'PUT', `/api/rest/repository-path/${path.id}`, {
        ...fields,
        Clave,
        Ruta: '/srv/otra',
      });
      expect(kept.status).toBe(200);
      expect(await stored()).toBe('Nueva#2026');
    }
  });

  it('writes the trail in the change’s transaction: a write that fails leaves neither record nor audit row', async () => {
    const registry = w.registry;
    const country = registry.require('country');
    const before = (await as(admin, 'GET', listUrl('audit', { range: [0, 0] }))).headers['content-range'];
    // A rule that refuses after the row and its audit row are written: both must roll back.
    const failing = new CrudService(w.app.database, registry, {
      country: {
        async afterWrite() {
          throw new Error('refused after writing');
        },
      },
    });
    await expect(
      failing.create(
        country,
        { IdPais: 'ZZ', Pais: 'PAÍS FALLIDO' },
        { ...SYSTEM_PRINCIPAL, clientId: admin.perfil.IdCliente },
      ),
    ).rejects.toThrow('refused after writing');
    expect((await as(admin, 'GET', '/api/rest/country/ZZ')).status).toBe(404);
    expect(await trail('country', 'ZZ')).toEqual([]);
    expect((await as(admin, 'GET', listUrl('audit', { range: [0, 0] }))).headers['content-range']).toBe(
      before,
    );

    // Through the API: a change a business rule refuses leaves no trace either.
    const template = (
      await as(admin, 'GET', listUrl('holiday', { filter: { Plantilla: 'S' }, range: [0, 0] }))
    ).body[0];
    const kept = await trail('holiday', template.id);
    expect((await as(admin, 'DELETE', `/api/rest/holiday/${template.id}`)).status).toBe(400);
    expect(await trail('holiday', template.id)).toEqual(kept);
    expect((await as(admin, 'GET', listUrl('audit', { range: [0, 0] }))).headers['content-range']).toBe(
      before,
    );
  });

  it('shows a record’s history to whoever may read the record, newest first', async () => {
    const company = ((await as(admin, 'GET', listUrl('company', { range: [0, 99] }))).body as Data[]).find(
      (c) => c.Alias === 'SERMIPAC',
    ) as Data;
    const {
      id,
      IdCliente: _c,
      IdCompania: _k,
      FechaCreacion: _f,
      IdUsuarioCreacion: _u,
      FechaModificacion: _m,
      IdUsuarioModificacion: _n,
      ...body
    } = company;
    expect(
      (await as(admin, 'PUT', `/api/rest/company/${id}`, { ...body, NombreContacto: 'ROSA QUISPE' })).status,
    ).toBe(200);
    const history = await as(requester, 'GET', `/api/rest/company/${id}/history`);
    expect(history.status).toBe(200);
    expect(history.body[0]).toMatchObject({ Operacion: 'U', Campos: 'NombreContacto', IdUsuario: 'ADMIN' });
    expect(history.body.at(-1).Operacion).toBe('C');
    // The audit list is the administrator's; the requester's profile does not reach it.
    expect((await as(requester, 'GET', '/api/rest/audit')).status).toBe(403);
    expect((await as(requester, 'GET', `/api/rest/holiday/1/history`)).status).toBe(403);
    expect((await as(admin, 'POST', '/api/rest/audit', {})).status).toBe(404);
  });
});
