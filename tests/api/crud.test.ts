import { describe, expect, it } from 'vitest';
import { type CallOptions, call, listUrl } from '../support/app.js';
import { DIALECTS } from '../support/databases.js';
import { world } from '../support/world.js';

describe.each(DIALECTS)('generic CRUD on %s', (dialect) => {
  const w = world(dialect, {
    users: { admin: 'ADMIN' },
  });
  const api = (options: CallOptions) => call(w.app, { token: w.tokens.admin, ...options });

  it('creates a record, upper-cases what the schema says, sets the audit columns and answers 201', async () => {
    const res = await api({
      method: 'POST',
      url: '/api/rest/country',
      payload: { IdPais: 'gt', Pais: ' Guatemala ', Nacionalidad: 'guatemalteca' },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      id: 'GT',
      IdPais: 'GT',
      Pais: 'GUATEMALA',
      Nacionalidad: 'GUATEMALTECA',
      Activo: 'S',
      IdUsuarioCreacion: 'ADMIN',
      IdUsuarioModificacion: null,
    });
    expect(Date.parse(res.body.FechaCreacion)).toBeGreaterThan(Date.now() - 60_000);
  });

  it('ignores audit values sent by the client', async () => {
    const res = await api({
      method: 'POST',
      url: '/api/rest/country',
      payload: {
        IdPais: 'HN',
        Pais: 'HONDURAS',
        IdUsuarioCreacion: 'HACKER',
        FechaCreacion: '2000-01-01T00:00:00Z',
      },
    });
    expect(res.status).toBe(201);
    expect(res.body.IdUsuarioCreacion).toBe('ADMIN');
    expect(res.body.FechaCreacion).not.toBe('2000-01-01T00:00:00.000Z');
  });

  it('assigns generated keys and reads a record back by id', async () => {
    const created = await api({
      method: 'POST',
      url: '/api/rest/civil-status',
      payload: { EstadoCivil: 'Unión civil' },
    });
    expect(created.status).toBe(201);
    expect(typeof created.body.id).toBe('number');
    expect(created.body.IdEstadoCivil).toBe(created.body.id);
    const read = await api({ method: 'GET', url: `/api/rest/civil-status/${created.body.id}` });
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ id: created.body.id, EstadoCivil: 'UNIÓN CIVIL', Activo: 'S' });
  });

  it('lists a page with sort and range, and the total in Content-Range', async () => {
    const res = await api({
      method: 'GET',
      url: listUrl('country', { sort: ['Pais', 'DESC'], range: [0, 4] }),
    });
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(5);
    const names = res.body.map((c: { Pais: string }) => c.Pais);
    expect(names).toEqual([...names].sort().reverse());
    const total = Number(String(res.headers['content-range']).split('/')[1]);
    expect(res.headers['content-range']).toMatch(/^country 0-4\/\d+$/);
    expect(total).toBeGreaterThanOrEqual(15);

    const second = await api({
      method: 'GET',
      url: listUrl('country', { sort: ['Pais', 'DESC'], range: [5, 9] }),
    });
    expect(second.headers['content-range']).toBe(`country 5-9/${total}`);
    expect(second.body[0].Pais < names[4]).toBe(true);
  });

  it('filters by equality, by several values, by free text, and by id arrays (getMany)', async () => {
    const inactive = await api({
      method: 'GET',
      url: listUrl('country', { filter: { Activo: 'N' } }),
    });
    expect(inactive.body.map((c: { IdPais: string }) => c.IdPais)).toEqual(['AU']);

    const many = await api({
      method: 'GET',
      url: listUrl('country', { filter: { id: ['PE', 'CH', 'ZZ'] } }),
    });
    expect(many.body.map((c: { id: string }) => c.id).sort()).toEqual(['CH', 'PE']);

    const search = await api({ method: 'GET', url: listUrl('country', { filter: { q: 'chil' } }) });
    expect(search.body.map((c: { IdPais: string }) => c.IdPais)).toEqual(['CH']);

    const searchMixedCase = await api({
      method: 'GET',
      url: listUrl('country', { filter: { q: 'Argent' } }),
    });
    expect(searchMixedCase.body.map((c: { IdPais: string }) => c.IdPais)).toEqual(['AR']);

    const types = await api({
      method: 'GET',
      url: listUrl('document-type', { filter: { IdPais: 'CH' } }),
    });
    expect(types.body.map((d: { Alias: string }) => d.Alias).sort()).toEqual(['PAS', 'RUN', 'RUT']);
  });

  it('filters people by company (getManyReference) and pages them sorted by surname', async () => {
    const companies = await api({
      method: 'GET',
      url: listUrl('company', { filter: { Contratista: 'S' } }),
    });
    const companyId = companies.body[0].id;
    const res = await api({
      method: 'GET',
      url: listUrl('person', { filter: { IdCompania: companyId }, sort: ['Apellido', 'ASC'], range: [0, 2] }),
    });
    expect(res.status).toBe(200);
    expect(res.body.length).toBeGreaterThan(0);
    for (const person of res.body) expect(person.IdCompania).toBe(companyId);
    const surnames = res.body.map((p: { Apellido: string }) => p.Apellido);
    expect(surnames).toEqual([...surnames].sort());
  });

  it('treats text that looks like SQL as plain text', async () => {
    const attack = "x' OR '1'='1";
    const res = await api({ method: 'GET', url: listUrl('country', { filter: { q: attack } }) });
    expect(res.status).toBe(200);
    expect(res.body).toEqual([]);
    const eq = await api({
      method: 'GET',
      url: listUrl('country', { filter: { IdPais: "PE'; DROP TABLE system_country; --" } }),
    });
    expect(eq.status).toBe(200);
    expect(eq.body).toEqual([]);
    const wildcard = await api({ method: 'GET', url: listUrl('country', { filter: { q: '%' } }) });
    expect(wildcard.body).toEqual([]);
    const stillThere = await api({ method: 'GET', url: '/api/rest/country/PE' });
    expect(stillThere.status).toBe(200);
  });

  it('replaces a record with PUT, records who changed it, and clears fields left out', async () => {
    const before = await api({ method: 'GET', url: '/api/rest/country/GT' });
    const res = await api({
      method: 'PUT',
      url: '/api/rest/country/GT',
      payload: { ...before.body, Pais: 'República de Guatemala', Nacionalidad: null },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      Pais: 'REPÚBLICA DE GUATEMALA',
      Nacionalidad: null,
      IdUsuarioModificacion: 'ADMIN',
    });
    expect(res.body.FechaCreacion).toBe(before.body.FechaCreacion);
    expect(res.body.FechaModificacion).not.toBeNull();
  });

  it('computes the age from the birth date on save', async () => {
    const list = await api({ method: 'GET', url: listUrl('person', { range: [0, 0] }) });
    const person = list.body[0];
    const res = await api({
      method: 'PUT',
      url: `/api/rest/person/${person.id}`,
      payload: { ...person, FechaNacimiento: '1990-01-01', Edad: 3 },
    });
    expect(res.status).toBe(200);
    const expected = new Date().getUTCFullYear() - 1990;
    expect(res.body.Edad).toBe(expected);
  });

  it('deletes a record and answers the deleted record; a second delete is a 404', async () => {
    const res = await api({ method: 'DELETE', url: '/api/rest/country/HN' });
    expect(res.status).toBe(200);
    expect(res.body.id).toBe('HN');
    const again = await api({ method: 'DELETE', url: '/api/rest/country/HN' });
    expect(again.status).toBe(404);
    expect(again.body.code).toBe('NOT_FOUND');
  });
});
