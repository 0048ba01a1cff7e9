import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileEverySchema } from '../../src/server/compilers.js';
import { startTestApp, type TestApp } from '../support/app.js';

type Schema = Record<string, unknown> & {
  type?: unknown;
  properties?: Record<string, Schema>;
  items?: Schema;
};
// biome-ignore lint/suspicious/noExplicitAny: the OpenAPI document as JSON
type Doc = any;

/** Every string without a length limit and every integer without a range, under a schema. */
function unbounded(schema: Schema | undefined, path: string, out: string[]): string[] {
  if (!schema || typeof schema !== 'object') return out;
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  if (types.includes('string') && !schema.enum && schema.maxLength === undefined) out.push(path);
  if (types.includes('integer') && (schema.maximum === undefined || schema.minimum === undefined))
    out.push(path);
  for (const [name, child] of Object.entries(schema.properties ?? {}))
    unbounded(child, `${path}.${name}`, out);
  if (schema.items) unbounded(schema.items, `${path}[]`, out);
  return out;
}

describe('the OpenAPI document', () => {
  let t: TestApp;
  let doc: Doc;
  beforeAll(async () => {
    t = await startTestApp('sqlite', { demo: false });
    doc = (await t.app.inject({ url: '/api/docs/json' })).json();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('has calls whose request and answer schemas all compile (each is compiled at its first call)', () => {
    expect(() => compileEverySchema()).not.toThrow();
  });

  it('is a valid OpenAPI 3 document', async () => {
    const result = await new Validator().validate(doc);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('declares the real query parameters, never the words of a schema', () => {
    const names = Object.values<Doc>(doc.paths).flatMap((ops) =>
      Object.values<Doc>(ops).flatMap((op) => (op.parameters ?? []).map((p: { name: string }) => p.name)),
    );
    expect(names).not.toContain('type');
    expect(names).not.toContain('additionalProperties');
    const grid = doc.paths['/api/sistemapais/filtrar'].get.parameters.map((p: { name: string }) => p.name);
    expect(grid).toEqual(expect.arrayContaining(['skip', 'take', 'sort', 'filter']));
  });

  it('bounds every string and integer a caller sends: parameters and bodies', () => {
    const problems: string[] = [];
    for (const [path, ops] of Object.entries<Doc>(doc.paths)) {
      for (const [method, op] of Object.entries<Doc>(ops)) {
        for (const parameter of op.parameters ?? [])
          unbounded(
            parameter.schema,
            `${method.toUpperCase()} ${path} ${parameter.in}:${parameter.name}`,
            problems,
          );
        const body = op.requestBody?.content?.['application/json']?.schema;
        unbounded(body, `${method.toUpperCase()} ${path} body`, problems);
      }
    }
    expect(problems).toEqual([]);
  });
});
