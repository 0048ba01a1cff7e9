import { describe, expect, it } from 'vitest';
import { parseListQuery } from '../../src/server/crud/list-query.js';
import { foreignKeyAs } from '../../src/server/crud/service.js';
import { ApiError } from '../../src/server/errors.js';
import { loadRegistry } from '../../src/server/registry.js';

const registry = loadRegistry();
const person = registry.require('person');
const country = registry.require('country');

const problem = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    const e = error as ApiError;
    return { code: e.code, key: Object.values(e.fields ?? {})[0]?.messageKey };
  }
  throw new Error('expected a refusal');
};

describe('list query translation', () => {
  it('uses the schema default sort and the largest page when nothing is given', () => {
    expect(parseListQuery(person, {})).toEqual({
      sort: { field: 'Apellido', order: 'ASC' },
      offset: 0,
      limit: 1000,
      filters: [],
      q: undefined,
    });
  });

  it('turns an inclusive range into offset and limit', () => {
    expect(parseListQuery(person, { range: '[20,39]' })).toMatchObject({ offset: 20, limit: 20 });
    expect(parseListQuery(person, { range: '[0,0]' })).toMatchObject({ offset: 0, limit: 1 });
  });

  it('maps id to the primary key in sort and filter', () => {
    const q = parseListQuery(country, { sort: '["id","DESC"]', filter: '{"id":["PE","CH"]}' });
    expect(q.sort).toEqual({ field: 'IdPais', order: 'DESC' });
    expect(q.filters).toEqual([{ field: 'IdPais', values: ['PE', 'CH'] }]);
  });

  it('accepts lower-case sort orders', () => {
    expect(parseListQuery(person, { sort: '["Documento","desc"]' }).sort).toEqual({
      field: 'Documento',
      order: 'DESC',
    });
  });

  it('coerces filter values to the field type and keeps nulls', () => {
    const q = parseListQuery(person, {
      filter: '{"IdCompania":"12","Condicion":"T","IdTipoDocumento":null}',
    });
    expect(q.filters).toEqual([
      { field: 'IdCompania', values: [12] },
      { field: 'Condicion', values: ['T'] },
      { field: 'IdTipoDocumento', values: [null] },
    ]);
  });

  it('allows filtering by references even when not listed as filters (getManyReference)', () => {
    expect(parseListQuery(person, { filter: '{"IdPaisNacimiento":"PE"}' }).filters).toEqual([
      { field: 'IdPaisNacimiento', values: ['PE'] },
    ]);
  });

  it('trims the free text and drops it when blank', () => {
    expect(parseListQuery(person, { filter: '{"q":"  quispe "}' }).q).toBe('quispe');
    expect(parseListQuery(person, { filter: '{"q":"   "}' }).q).toBeUndefined();
  });

  it.each([
    [{ sort: 'Apellido' }, 'query.invalidJson'],
    [{ sort: ['a', 'b'] as unknown as string }, 'query.repeated'],
    [{ sort: '{"field":"Apellido"}' }, 'query.sortShape'],
    [{ sort: '["Direccion","ASC"]' }, 'query.sortField'],
    [{ sort: '["Apellido","SIDEWAYS"]' }, 'query.sortOrder'],
    [{ range: '[1.5,3]' }, 'query.rangeShape'],
    [{ range: '"0-24"' }, 'query.rangeShape'],
    [{ range: '[0,5000]' }, 'query.rangeTooLarge'],
    [{ filter: '"IdCompania=1"' }, 'query.filterShape'],
    [{ filter: 'null' }, 'query.filterShape'],
    [{ filter: '{"Direccion":"X"}' }, 'query.filterField'],
    [{ filter: '{"IdCompania":"1 OR 1=1"}' }, 'query.filterValue'],
    [{ filter: '{"IdCompania":{"$gt":1}}' }, 'query.filterValue'],
    [{ filter: '{"IdCompania":1.5}' }, 'query.filterValue'],
    [{ filter: '{"q":["a"]}' }, 'query.filterValue'],
  ])('refuses %j with %s', (raw, key) => {
    expect(problem(() => parseListQuery(person, raw))).toEqual({ code: 'BAD_QUERY', key });
  });
});

describe('foreign keys the database refuses', () => {
  it('read as a missing reference on a write and as in use on a delete, on both dialects', () => {
    for (const code of ['SQLITE_CONSTRAINT_FOREIGNKEY', '23503']) {
      const violation = Object.assign(new Error('fk'), { code });
      expect(() => foreignKeyAs('MISSING_REFERENCE')(violation)).toThrow(
        expect.objectContaining({ code: 'MISSING_REFERENCE', status: 400 }),
      );
      expect(() => foreignKeyAs('IN_USE')(violation)).toThrow(
        expect.objectContaining({ code: 'IN_USE', status: 409 }),
      );
    }
    const other = new Error('disk full');
    expect(() => foreignKeyAs('IN_USE')(other)).toThrow(other);
  });
});
