import { describe, expect, it } from 'vitest';
import {
  buildRegistry,
  checkAgainstMetaSchema,
  readSchemaFiles,
  SchemaError,
  type SchemaFile,
} from '../../src/server/registry.js';

const files = readSchemaFiles();

// biome-ignore lint/suspicious/noExplicitAny: the tests break schemas on purpose
type Loose = Record<string, any>;

const country = files.find((f) => f.name === 'country') as SchemaFile;
const clone = (file: SchemaFile, change: (schema: Loose) => void): SchemaFile => {
  const schema = structuredClone(file.schema) as Loose;
  change(schema);
  return { ...file, schema };
};

describe('entity schemas', () => {
  it('finds the schema files', () => {
    expect(files.map((f) => `${f.module}/${f.name}`)).toEqual(
      expect.arrayContaining([
        'system/country',
        'system/document-type',
        'system/blood-type',
        'system/civil-status',
        'administration/company-category',
        'administration/company',
        'administration/person',
      ]),
    );
  });

  it.each(files.map((f) => [`${f.module}/${f.name}`, f] as const))(
    '%s satisfies the meta-schema',
    (_name, file) => {
      expect(checkAgainstMetaSchema(file.schema)).toEqual([]);
    },
  );

  it('all load together: references resolve, names and tables are unique', () => {
    const registry = buildRegistry(files);
    expect(registry.entities).toHaveLength(files.length);
    const order = registry.inDependencyOrder().map((e) => e.name);
    expect(order.indexOf('country')).toBeLessThan(order.indexOf('document-type'));
    expect(order.indexOf('company')).toBeLessThan(order.indexOf('person'));
  });

  it('compile, each, into the validator of its records', () => {
    // A process compiles an entity's validator when it first validates one of its records.
    for (const entity of buildRegistry(files).entities) expect(typeof entity.validate).toBe('function');
  });

  it.each([
    ['an unknown x- keyword', (s: Loose) => (s['x-colour'] = 'red'), /x-colour/],
    ['an unknown module', (s: Loose) => (s['x-module'] = 'payroll'), /x-module/],
    ['an open object', (s: Loose) => (s.additionalProperties = true), /additionalProperties/],
    ['a boolean property', (s: Loose) => (s.properties.Activo = { type: 'boolean' }), /Activo/],
    ['an enum without labels', (s: Loose) => delete s.properties.Activo['x-enum'], /x-enum/],
    ['a lower-case field name', (s: Loose) => (s.properties.pais = { type: 'string' }), /pais/],
    [
      'a condition that is more than a required list',
      (s: Loose) => (s.allOf = JSON.parse('[{ "if": {}, "then": { "minProperties": 2 } }]')),
      /allOf/,
    ],
  ])('the meta-schema refuses %s', (_name, change, message) => {
    const problems = checkAgainstMetaSchema(clone(country, change).schema);
    expect(problems.join('\n')).toMatch(message);
  });

  it.each([
    [
      'a list column that does not exist',
      (s: Loose) => s['x-list'].push('Capital'),
      /x-list names unknown property Capital/,
    ],
    ['a key that does not exist', (s: Loose) => (s['x-primaryKey'] = 'Codigo'), /x-primaryKey/],
    [
      'a condition that requires an unknown field',
      (s: Loose) =>
        (s.allOf = JSON.parse(
          '[{ "if": { "properties": { "Activo": { "const": "N" } }, "required": ["Activo"] }, "then": { "required": ["Motivo"] } }]',
        )),
      /allOf then names unknown property Motivo/,
    ],
    [
      'a search over a number',
      (s: Loose) => {
        s.properties.Poblacion = { type: 'integer' };
        s['x-search'].push('Poblacion');
      },
      /x-search field Poblacion is not a string/,
    ],
    [
      'a reference to an unknown resource',
      (s: Loose) => {
        s.properties.IdContinente = { type: 'string', 'x-ref': { resource: 'continent' } };
      },
      /unknown resource continent/,
    ],
    [
      'a reference of the wrong type',
      (s: Loose) => {
        s.properties.IdMoneda = { type: 'string', 'x-ref': { resource: 'blood-type' } };
      },
      /IdMoneda is string but blood-type's key is integer/,
    ],
    ['a module that is not its folder', (s: Loose) => (s['x-module'] = 'hotel'), /lives in schemas\/system/],
  ])('the registry refuses %s', (_name, change, message) => {
    const others = files.filter((f) => f !== country);
    expect(() => buildRegistry([...others, clone(country, change)])).toThrow(SchemaError);
    expect(() => buildRegistry([...others, clone(country, change)])).toThrow(message);
  });

  it('refuses two schemas with the same resource name', () => {
    expect(() => buildRegistry([...files, { ...country, path: 'copy' }])).toThrow(
      /resource country is defined twice/,
    );
  });
});
