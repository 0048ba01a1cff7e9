import { describe, expect, it } from 'vitest';
import { type CallOptions, call, listUrl } from '../support/app.js';
import { DIALECTS } from '../support/databases.js';
import { world } from '../support/world.js';

describe.each(DIALECTS)('bad input on %s', (dialect) => {
  let admin: string;
  const api = (options: CallOptions) => call(w.app, { token: admin, ...options });
  let personCount: number;
  const w = world(dialect, {
    users: { admin: 'ADMIN' },
    ready: async () => {
      admin = w.signedIn.admin.accessToken;
      const list = await api({ method: 'GET', url: listUrl('person', { range: [0, 0] }) });
      personCount = Number(String(list.headers['content-range']).split('/')[1]);
    },
  });

  const expectErrorShape = (body: Record<string, unknown>, status: number, code: string) => {
    expect(body).toMatchObject({ status, code, messageKey: `api.errors.${code}` });
    expect(typeof body.message).toBe('string');
    expect(JSON.stringify(body)).not.toMatch(/at .*\.(ts|js):\d+/);
  };

  it('refuses wrong types, too-long strings and unknown fields, one message per field', async () => {
    const res = await api({
      method: 'POST',
      url: '/api/rest/document-type',
      payload: {
        IdPais: 'PE',
        Alias: 'X'.repeat(11),
        Descripcion: 'OTRO',
        Longitud: 'ocho',
        CaracteresPermitidos: '0-9',
        Color: 'rojo',
      },
    });
    expect(res.status).toBe(400);
    expectErrorShape(res.body, 400, 'VALIDATION_FAILED');
    expect(res.body.errors).toMatchObject({
      Alias: { messageKey: 'validation.maxLength', params: { limit: 10 }, message: 'At most 10 characters' },
      Longitud: { messageKey: 'validation.type.integer', message: 'Must be a whole number' },
      Color: { messageKey: 'validation.unknownField' },
    });
  });

  it('names the missing required fields and the broken patterns, in Spanish by default', async () => {
    const res = await api({
      method: 'POST',
      url: '/api/rest/person',
      headers: { 'accept-language': '' },
      // A space or a dot only separates a document's digits (it is kept without them); a # is no part of one.
      payload: { Documento: '4512#3456', Apellido: 'Quispe3', Email: 'not-an-email' },
    });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Los datos no son válidos: revise los campos marcados.');
    expect(res.body.errors.Nombre).toEqual({ messageKey: 'validation.required', message: 'Obligatorio' });
    expect(res.body.errors.IdTipoDocumento.messageKey).toBe('validation.required');
    expect(res.body.errors.Apellido).toEqual({
      messageKey: 'validation.patterns.letters',
      message: 'Solo letras',
    });
    expect(res.body.errors.Documento.messageKey).toBe('validation.patterns.code');
    expect(res.body.errors.Email).toEqual({
      messageKey: 'validation.format.email',
      message: 'Correo electrónico inválido',
    });
  });

  it('refuses a date or instant in year 0, which no database calendar has, as any impossible date', async () => {
    for (const Fecha of ['0000-01-01', '2026-02-30']) {
      const res = await api({
        method: 'POST',
        url: '/api/rest/holiday',
        payload: { Fecha, Descripcion: 'AÑO CERO' },
      });
      expect(res.status, Fecha).toBe(400);
      expectErrorShape(res.body, 400, 'VALIDATION_FAILED');
      expect(res.body.errors.Fecha.messageKey).toBe('validation.format.date');
    }
    const list = await api({ method: 'GET', url: listUrl('holiday', { filter: { Fecha: '0000-01-01' } }) });
    expect(list.status).toBe(400);
    expect(list.body.errors.filter.messageKey).toBe('query.filterValue');
    const ok = await api({
      method: 'POST',
      url: '/api/rest/holiday',
      payload: { Fecha: '0001-01-01', Descripcion: 'AÑO UNO' },
    });
    expect(ok.status, JSON.stringify(ok.body)).toBe(201);
  });

  it('refuses a body that is not an object, not JSON, or too large', async () => {
    const array = await api({
      method: 'POST',
      url: '/api/rest/country',
      payload: [{ IdPais: 'XX' }],
    });
    expect(array.status).toBe(400);
    expectErrorShape(array.body, 400, 'BAD_REQUEST');

    const broken = await api({
      method: 'POST',
      url: '/api/rest/country',
      headers: { 'content-type': 'application/json' },
      payload: '{"IdPais": ',
    });
    expect(broken.status).toBe(400);
    expectErrorShape(broken.body, 400, 'BAD_REQUEST');

    const huge = await api({
      method: 'POST',
      url: '/api/rest/country',
      payload: { IdPais: 'XX', Pais: 'A'.repeat(2 * 1024 * 1024) },
    });
    expect(huge.status).toBe(413);
    expectErrorShape(huge.body, 413, 'PAYLOAD_TOO_LARGE');

    const text = await api({
      method: 'POST',
      url: '/api/rest/country',
      headers: { 'content-type': 'text/csv' },
      payload: 'IdPais,Pais\nXX,EQUIS',
    });
    expect(text.status).toBe(415);
    expectErrorShape(text.body, 415, 'UNSUPPORTED_MEDIA_TYPE');
  });

  it.each([
    ['sort is not JSON', { sort: '[Pais' }, 'query.invalidJson'],
    ['sort has the wrong shape', { sort: ['Pais'] }, 'query.sortShape'],
    ['sort by a field that is not sortable', { sort: ['CodigoTelefonico', 'ASC'] }, 'query.sortField'],
    ['sort order is neither ASC nor DESC', { sort: ['Pais', 'UP'] }, 'query.sortOrder'],
    ['range is not two numbers', { range: [0] }, 'query.rangeShape'],
    ['range goes backwards', { range: [10, 2] }, 'query.rangeShape'],
    ['range is negative', { range: [-5, 2] }, 'query.rangeShape'],
    ['range asks for too many', { range: [0, 100000] }, 'query.rangeTooLarge'],
    ['filter is not an object', { filter: ['Activo', 'S'] }, 'query.filterShape'],
    ['filter by an unknown field', { filter: { Color: 'rojo' } }, 'query.filterField'],
    [
      'filter by a field that is not filterable',
      { filter: { Nacionalidad: 'PERUANA' } },
      'query.filterField',
    ],
    ['search text is not a string', { filter: { q: 5 } }, 'query.filterValue'],
    ['search text is too long', { filter: { q: 'x'.repeat(101) } }, 'query.searchTooLong'],
  ])('answers 400 when %s', async (_name, params, key) => {
    const res = await api({ method: 'GET', url: listUrl('country', params) });
    expect(res.status).toBe(400);
    expectErrorShape(res.body, 400, 'BAD_QUERY');
    expect(Object.values(res.body.errors)[0]).toMatchObject({ messageKey: key });
  });

  it('answers 400 for a filter value of the wrong type on a number field', async () => {
    const res = await api({
      method: 'GET',
      url: listUrl('person', { filter: { IdCompania: 'uno' } }),
    });
    expect(res.status).toBe(400);
    expect(res.body.errors.filter.messageKey).toBe('query.filterValue');
  });

  it('refuses a reference to a record that does not exist, and writes nothing', async () => {
    const types = await api({
      method: 'GET',
      url: listUrl('document-type', { filter: { IdPais: 'PE' } }),
    });
    const dni = types.body.find((d: { Alias: string }) => d.Alias === 'DNI').id;
    const res = await api({
      method: 'POST',
      url: '/api/rest/person',
      payload: {
        IdTipoDocumento: dni,
        Documento: '70654321',
        Apellido: 'Quispe Mamani',
        Nombre: 'Rosa',
        Sexo: 'F',
        IdCompania: 999999,
        IdPaisNacimiento: 'ZZ',
      },
    });
    expect(res.status).toBe(400);
    expectErrorShape(res.body, 400, 'MISSING_REFERENCE');
    expect(res.body.errors.IdCompania).toEqual({
      messageKey: 'validation.referenceMissing',
      params: { resource: 'Company' },
      message: 'No such Company',
    });
    expect(res.body.errors.IdPaisNacimiento.messageKey).toBe('validation.referenceMissing');
    const after = await api({ method: 'GET', url: listUrl('person', { range: [0, 0] }) });
    expect(Number(String(after.headers['content-range']).split('/')[1])).toBe(personCount);
  });

  it('answers 409 on a duplicate key or unique set, naming the fields', async () => {
    const dupKey = await api({
      method: 'POST',
      url: '/api/rest/country',
      payload: { IdPais: 'pe', Pais: 'OTRO PERU' },
    });
    expect(dupKey.status).toBe(409);
    expectErrorShape(dupKey.body, 409, 'DUPLICATE');
    expect(Object.keys(dupKey.body.errors)).toEqual(['IdPais']);

    const dupName = await api({
      method: 'POST',
      url: '/api/rest/country',
      payload: { IdPais: 'PX', Pais: 'perú' },
    });
    expect(dupName.status).toBe(409);
    expect(dupName.body.errors.Pais.messageKey).toBe('validation.duplicate');

    const existing = await api({ method: 'GET', url: listUrl('person', { range: [0, 1] }) });
    const [a, b] = existing.body;
    const clash = await api({
      method: 'PUT',
      url: `/api/rest/person/${b.id}`,
      payload: { ...b, IdTipoDocumento: a.IdTipoDocumento, Documento: a.Documento },
    });
    expect(clash.status).toBe(409);
    // The client is the session's, not the user's to change: only the fields the user can fix are named.
    expect(Object.keys(clash.body.errors).sort()).toEqual(['Documento', 'IdTipoDocumento']);
    const unchanged = await api({ method: 'GET', url: `/api/rest/person/${b.id}` });
    expect(unchanged.body.Documento).toBe(b.Documento);
  });

  it('answers 409 when deleting a record still in use, saying by what', async () => {
    const res = await api({ method: 'DELETE', url: '/api/rest/country/PE' });
    expect(res.status).toBe(409);
    expectErrorShape(res.body, 409, 'IN_USE');
    expect(res.body.message).toContain('Identity documents');
    expect(res.body.message).toContain('Companies');
    const es = await api({
      method: 'DELETE',
      url: '/api/rest/country/PE',
      headers: { 'accept-language': 'es' },
    });
    expect(es.body.message).toContain('Documentos de identidad');
    expect((await api({ method: 'GET', url: '/api/rest/country/PE' })).status).toBe(200);
  });

  it('refuses to change a natural key through PUT', async () => {
    const res = await api({
      method: 'PUT',
      url: '/api/rest/country/CH',
      payload: { IdPais: 'CL', Pais: 'CHILE', Activo: 'S' },
    });
    expect(res.status).toBe(400);
    expect(res.body.errors.IdPais.messageKey).toBe('validation.keyImmutable');
  });

  it('answers 404 for unknown records, resources and paths, and 400 for a malformed id', async () => {
    expect((await api({ method: 'GET', url: '/api/rest/country/QQ' })).status).toBe(404);
    expect(
      (
        await api({
          method: 'PUT',
          url: '/api/rest/country/QQ',
          payload: { IdPais: 'QQ', Pais: 'QQ' },
        })
      ).status,
    ).toBe(404);
    const unknown = await api({ method: 'GET', url: '/api/rest/planet' });
    expect(unknown.status).toBe(404);
    expectErrorShape(unknown.body, 404, 'NOT_FOUND');
    const malformed = await api({ method: 'GET', url: '/api/rest/person/abc' });
    expect(malformed.status).toBe(400);
    expectErrorShape(malformed.body, 400, 'BAD_REQUEST');
  });
});
