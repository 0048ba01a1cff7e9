import type { ErrorObject } from 'ajv';
import { fullFormats } from 'ajv-formats/dist/formats.js';
import { notYearZero } from '../dates.js';

/**
 * JSON Schema (draft-07) checked by walking the schema, with errors shaped as ajv's (keyword,
 * instancePath, schemaPath, params, message). The server compiles schemas with ajv; a browser under
 * a content security policy that forbids evaluating strings cannot, so the forms check with this
 * instead. It covers what entity schemas and the forms use (types, enums and const, lengths,
 * patterns, formats, bounds, required and properties, sets, conditions and combinations); a unit
 * test holds it to ajv's verdicts on every entity schema.
 */

// biome-ignore lint/suspicious/noExplicitAny: a JSON Schema is any JSON
type Schema = Record<string, any> | boolean;
export type CheckError = ErrorObject;

const FORMATS = ['date', 'date-time', 'email', 'regex'] as const;
const patterns = new Map<string, RegExp>();

function regexp(pattern: string): RegExp {
  let compiled = patterns.get(pattern);
  if (!compiled) {
    compiled = new RegExp(pattern, 'u');
    patterns.set(pattern, compiled);
  }
  return compiled;
}

/** Length in code points, as ajv counts it. */
function length(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}

function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

function hasType(value: unknown, type: string): boolean {
  // Like ajv: NaN and the infinities are no numbers.
  if (typeof value === 'number' && !Number.isFinite(value)) return false;
  const actual = typeOf(value);
  return actual === type || (type === 'number' && actual === 'integer');
}

function formatOk(format: string, value: string): boolean {
  if (!(FORMATS as readonly string[]).includes(format)) return true;
  if (format.startsWith('date') && !notYearZero(value)) return false;
  const def = (fullFormats as Record<string, unknown>)[format];
  if (def instanceof RegExp) return def.test(value);
  if (typeof def === 'function') return Boolean(def(value));
  const validate = (def as { validate?: unknown } | undefined)?.validate;
  if (validate instanceof RegExp) return validate.test(value);
  if (typeof validate === 'function') return Boolean(validate(value));
  return true;
}

function equal(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  return (
    ka.length === kb.length &&
    ka.every((k) => equal((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]))
  );
}

const limitWord = (keyword: string) =>
  ({ maxLength: 'more', minLength: 'fewer', maxItems: 'more', minItems: 'fewer' })[keyword];

export interface CheckOptions {
  /** Give missing properties their defaults, in `data` itself, as the server's ajv does. */
  useDefaults?: boolean;
}

/** Every error of `data` against `schema`, as ajv with allErrors would report them. */
export function checkSchema(schema: Schema, data: unknown, options: CheckOptions = {}): CheckError[] {
  const errors: CheckError[] = [];
  visit(schema, data, '', '#', errors, options);
  return errors;
}

function visit(
  schema: Schema,
  data: unknown,
  path: string,
  schemaPath: string,
  out: CheckError[],
  options: CheckOptions = {},
): void {
  if (schema === true) return;
  if (schema === false) {
    out.push({
      keyword: 'false schema',
      instancePath: path,
      schemaPath,
      params: {},
      message: 'boolean schema is false',
    });
    return;
  }
  const fail = (keyword: string, params: Record<string, unknown>, message: string) =>
    out.push({ keyword, instancePath: path, schemaPath: `${schemaPath}/${keyword}`, params, message });

  if (schema.type !== undefined) {
    const types: string[] = Array.isArray(schema.type) ? schema.type : [schema.type];
    if (!types.some((type) => hasType(data, type)))
      fail('type', { type: types.join(',') }, `must be ${types.join(',')}`);
  }
  if (schema.const !== undefined && !equal(data, schema.const))
    fail('const', { allowedValue: schema.const }, 'must be equal to constant');
  if (Array.isArray(schema.enum) && !schema.enum.some((item: unknown) => equal(item, data)))
    fail('enum', { allowedValues: schema.enum }, 'must be equal to one of the allowed values');

  if (typeof data === 'string') {
    for (const keyword of ['maxLength', 'minLength'] as const) {
      const limit = schema[keyword];
      if (typeof limit !== 'number') continue;
      const n = length(data);
      if (keyword === 'maxLength' ? n > limit : n < limit)
        fail(keyword, { limit }, `must NOT have ${limitWord(keyword)} than ${limit} characters`);
    }
    if (typeof schema.pattern === 'string' && !regexp(schema.pattern).test(data))
      fail('pattern', { pattern: schema.pattern }, `must match pattern "${schema.pattern}"`);
    if (typeof schema.format === 'string' && !formatOk(schema.format, data))
      fail('format', { format: schema.format }, `must match format "${schema.format}"`);
  }

  if (typeof data === 'number' && Number.isFinite(data)) {
    const bounds: Array<[string, string, (n: number, l: number) => boolean]> = [
      ['maximum', '<=', (n, l) => n <= l],
      ['minimum', '>=', (n, l) => n >= l],
      ['exclusiveMaximum', '<', (n, l) => n < l],
      ['exclusiveMinimum', '>', (n, l) => n > l],
    ];
    for (const [keyword, comparison, ok] of bounds) {
      const limit = schema[keyword];
      if (typeof limit === 'number' && !ok(data, limit))
        fail(keyword, { comparison, limit }, `must be ${comparison} ${limit}`);
    }
    if (typeof schema.multipleOf === 'number' && !Number.isInteger(data / schema.multipleOf))
      fail('multipleOf', { multipleOf: schema.multipleOf }, `must be multiple of ${schema.multipleOf}`);
  }

  if (Array.isArray(data)) {
    for (const keyword of ['maxItems', 'minItems'] as const) {
      const limit = schema[keyword];
      if (typeof limit !== 'number') continue;
      if (keyword === 'maxItems' ? data.length > limit : data.length < limit)
        fail(keyword, { limit }, `must NOT have ${limitWord(keyword)} than ${limit} items`);
    }
    if (schema.uniqueItems === true) {
      outer: for (let j = data.length - 1; j > 0; j--)
        for (let i = j - 1; i >= 0; i--)
          if (equal(data[i], data[j])) {
            fail(
              'uniqueItems',
              { i, j },
              `must NOT have duplicate items (items ## ${j} and ${i} are identical)`,
            );
            break outer;
          }
    }
    if (schema.items !== undefined && !Array.isArray(schema.items))
      data.forEach((item, index) => {
        visit(schema.items, item, `${path}/${index}`, `${schemaPath}/items`, out);
      });
  }

  if (typeOf(data) === 'object') {
    const object = data as Record<string, unknown>;
    if (options.useDefaults)
      for (const [name, sub] of Object.entries((schema.properties ?? {}) as Record<string, Schema>))
        if (object[name] === undefined && typeof sub === 'object' && sub.default !== undefined)
          object[name] = structuredClone(sub.default);
    for (const name of (schema.required as string[] | undefined) ?? [])
      if (object[name] === undefined)
        fail('required', { missingProperty: name }, `must have required property '${name}'`);
    const properties = (schema.properties ?? {}) as Record<string, Schema>;
    for (const [name, sub] of Object.entries(properties))
      if (object[name] !== undefined)
        visit(
          sub,
          object[name],
          `${path}/${pointerSegment(name)}`,
          `${schemaPath}/properties/${pointerSegment(name)}`,
          out,
          options,
        );
    if (schema.additionalProperties !== undefined && schema.additionalProperties !== true) {
      for (const name of Object.keys(object)) {
        if (Object.hasOwn(properties, name)) continue;
        if (schema.additionalProperties === false)
          fail('additionalProperties', { additionalProperty: name }, 'must NOT have additional properties');
        else
          visit(
            schema.additionalProperties,
            object[name],
            `${path}/${pointerSegment(name)}`,
            `${schemaPath}/additionalProperties`,
            out,
          );
      }
    }
  }

  const passes = (sub: Schema) => checkSchema(sub, data).length === 0;
  if (Array.isArray(schema.allOf))
    schema.allOf.forEach((sub: Schema, i: number) => {
      visit(sub, data, path, `${schemaPath}/allOf/${i}`, out);
    });
  if (Array.isArray(schema.anyOf) && !schema.anyOf.some(passes)) {
    schema.anyOf.forEach((sub: Schema, i: number) => {
      visit(sub, data, path, `${schemaPath}/anyOf/${i}`, out);
    });
    fail('anyOf', {}, 'must match a schema in anyOf');
  }
  if (Array.isArray(schema.oneOf)) {
    const passing = schema.oneOf.map(passes).filter(Boolean).length;
    if (passing !== 1) {
      if (passing === 0)
        schema.oneOf.forEach((sub: Schema, i: number) => {
          visit(sub, data, path, `${schemaPath}/oneOf/${i}`, out);
        });
      fail('oneOf', { passingSchemas: null }, 'must match exactly one schema in oneOf');
    }
  }
  if (schema.not !== undefined && passes(schema.not)) fail('not', {}, 'must NOT be valid');
  if (schema.if !== undefined && (schema.then !== undefined || schema.else !== undefined)) {
    const branch = passes(schema.if) ? 'then' : 'else';
    if (schema[branch] !== undefined) {
      const before = out.length;
      visit(schema[branch], data, path, `${schemaPath}/${branch}`, out);
      if (out.length > before) fail('if', { failingKeyword: branch }, `must match "${branch}" schema`);
    }
  }
}

/** A property name as a JSON pointer segment. */
function pointerSegment(name: string): string {
  return name.replace(/~/g, '~0').replace(/\//g, '~1');
}
