import type { ErrorObject } from 'ajv';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadRegistry } from '../../src/server/registry.js';
import { checkSchema } from '../../src/shared/schema/check.js';
import { RecordMaker } from '../support/records.js';

const registry = loadRegistry();
const maker = new RecordMaker(registry, 7);

/** What a verdict says, in a form both validators can be compared on. */
function verdict(errors: Partial<ErrorObject>[] | null | undefined): string[] {
  return [
    ...new Set(
      (errors ?? []).map((e) => {
        const params = (e.params ?? {}) as Record<string, unknown>;
        return `${e.keyword} ${e.instancePath} ${String(params.missingProperty ?? params.additionalProperty ?? params.limit ?? '')}`;
      }),
    ),
  ].sort();
}

describe('the forms’ schema checker', () => {
  it('agrees with ajv, the server’s validator, on every entity schema and any input', () => {
    for (const entity of registry.entities) {
      const schema = entity.validate.schema as Record<string, unknown>;
      const props = (schema.properties ?? {}) as Record<string, { enum?: unknown[] }>;
      const fields = Object.keys(props);
      const samples = Object.fromEntries(
        fields.map((f) => [f, Array.from({ length: 3 }, () => maker.value(entity, f))]),
      );
      const value = (field: string) =>
        fc.oneof(
          { weight: 4, arbitrary: fc.constantFrom(...samples[field]) },
          { weight: 2, arbitrary: fc.constant(undefined) },
          { weight: 1, arbitrary: fc.string({ maxLength: 120 }) },
          { weight: 1, arbitrary: fc.integer({ min: -3_000_000_000, max: 3_000_000_000 }) },
          { weight: 1, arbitrary: fc.oneof(fc.double(), fc.boolean(), fc.constant(null)) },
          { weight: 1, arbitrary: fc.array(fc.integer({ min: -5, max: 5 }), { maxLength: 4 }) },
          { weight: 1, arbitrary: fc.constantFrom('2026-02-30', '2026-13-01', 'S', 'N', 'x@y', '', ' ') },
        );
      const record = fc.record(
        {
          ...Object.fromEntries(fields.map((f) => [f, value(f)])),
          extra: fc.option(fc.string(), { nil: undefined }),
        },
        { requiredKeys: [] },
      );
      fc.assert(
        fc.property(record, (raw) => {
          const data = Object.fromEntries(Object.entries(raw).filter(([, v]) => v !== undefined));
          // The server's ajv fills defaults in what it checks: each gets its own copy.
          const mine = verdict(checkSchema(schema, structuredClone(data), { useDefaults: true }));
          const ajv = entity.validate(structuredClone(data)) ? [] : verdict(entity.validate.errors);
          expect(mine, `${entity.name} ${JSON.stringify(data)}`).toEqual(ajv);
        }),
        { numRuns: Number(process.env.CHECK_RUNS ?? 150), seed: Number(process.env.CHECK_SEED ?? 11) },
      );
    }
  }, 120_000);

  it('checks the conditions rjsf asks about, as ajv does', () => {
    const condition = { properties: { DiaCompleto: { const: 'N' } }, required: ['DiaCompleto'] };
    expect(checkSchema(condition, { DiaCompleto: 'N' })).toEqual([]);
    expect(checkSchema(condition, { DiaCompleto: 'S' }).map((e) => e.keyword)).toEqual(['const']);
    expect(checkSchema(condition, {}).map((e) => e.keyword)).toEqual(['required']);
    expect(checkSchema({ type: 'string', format: 'date' }, '2024-02-29')).toEqual([]);
    expect(checkSchema({ type: 'string', format: 'date' }, '2025-02-29')[0].keyword).toBe('format');
    expect(checkSchema({ type: 'string', maxLength: 2 }, '😀😀')).toEqual([]);
    expect(checkSchema({ anyOf: [{ type: 'string' }, { type: 'integer' }] }, 1.5).at(-1)?.keyword).toBe(
      'anyOf',
    );
    expect(checkSchema({ oneOf: [{ type: 'number' }, { type: 'integer' }] }, 1).at(-1)?.keyword).toBe(
      'oneOf',
    );
    expect(checkSchema({ not: { type: 'null' } }, null)[0].keyword).toBe('not');
  });
});
