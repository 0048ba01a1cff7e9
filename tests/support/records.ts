/**
 * Valid records for any entity, made from its schema alone: strings from their patterns (randexp,
 * seeded, so a run is repeatable), numbers within their bounds, enums, dates ordered as x-after
 * says, documents that fit their type, and references to records that exist.
 */
import RandExp from 'randexp';
import { random } from '../../src/server/demo/people.js';
import type { Entity, Registry } from '../../src/server/registry.js';
import type { PropertySchema } from '../../src/shared/schema/types.js';

type Data = Record<string, unknown>;

export interface RecordContext {
  /** The key of an existing record of a resource the generator may point at (and the record). */
  reference(resource: string): Promise<Data>;
  /** A document type and a document that fits it. */
  document(): Promise<{ typeId: unknown; value: string }>;
}

const START_DATE = '2026-03-01';
const END_DATE = '2026-12-31';
const START_TIME = '08:00';
const END_TIME = '17:30';

export class RecordMaker {
  private readonly rnd: () => number;

  constructor(
    private readonly registry: Registry,
    seed = 1,
  ) {
    this.rnd = random(seed);
  }

  private int(min: number, max: number): number {
    return min + Math.floor(this.rnd() * (max - min + 1));
  }

  /** A string matching the property's pattern and lengths. */
  text(prop: PropertySchema): string {
    const max = prop.maxLength ?? 60;
    const min = Math.max(prop.minLength ?? 1, 1);
    if (prop.format === 'email') return `P${this.int(1000, 9999)}@EJEMPLO.COM`.slice(0, max);
    if (!prop.pattern) {
      const letters = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
      const length = Math.min(max, Math.max(min, 12));
      return Array.from({ length }, () => letters[this.int(0, 25)]).join('');
    }
    const regex = new RegExp(prop.pattern);
    const gen = new RandExp(regex);
    gen.max = 6;
    gen.randInt = (a: number, b: number) => this.int(a, b);
    for (let i = 0; i < 200; i++) {
      const value = gen.gen().trim();
      if (value.length >= min && value.length <= max && regex.test(value)) return value;
    }
    throw new Error(`no value of length ${min}-${max} for ${prop.pattern}`);
  }

  /** A valid value of one property (references excepted). */
  value(entity: Entity, field: string): unknown {
    const prop = entity.schema.properties[field];
    const ends = new Set(entity.after.map((rule) => rule.end));
    if (prop.enum) return prop.enum[this.int(0, prop.enum.length - 1)];
    if (prop.format === 'date') return ends.has(field) ? END_DATE : START_DATE;
    if (prop.format === 'date-time') return new Date(Date.UTC(2026, 5, 1, 12)).toISOString();
    if (prop['x-pattern'] === 'schedule') return ends.has(field) ? END_TIME : START_TIME;
    if (prop.type === 'integer' || prop.type === 'number') {
      const min = prop.minimum ?? 0;
      const max = prop.maximum ?? min + 100;
      return this.int(Math.ceil(min), Math.floor(Math.min(max, min + 100)));
    }
    return this.text(prop);
  }

  /** A whole valid record: every writable field filled, so any field rule's requirement is met. */
  async record(entity: Entity, ctx: RecordContext): Promise<Data> {
    const data: Data = {};
    const props = entity.schema.properties;
    const refs = new Map(entity.references.map((r) => [r.field, r]));
    const scope = new Set(Object.values(entity.scope));
    for (const field of entity.writable) {
      if (scope.has(field) && field !== entity.scope.company) continue;
      if (!refs.has(field)) data[field] = this.value(entity, field);
    }
    // References without a cascade first, then the cascading ones, which set what they depend on.
    const ordered = [...refs.values()].sort(
      (a, b) =>
        Number(Boolean(props[a.field]['x-ref']?.filter)) - Number(Boolean(props[b.field]['x-ref']?.filter)),
    );
    for (const ref of ordered) {
      if (
        !entity.writable.includes(ref.field) ||
        (scope.has(ref.field) && ref.field !== entity.scope.company)
      )
        continue;
      const target = await ctx.reference(ref.target);
      const key = target[this.registry.require(ref.target).primaryKey];
      data[ref.field] = ref.many ? [key] : key;
      for (const [remote, local] of Object.entries(props[ref.field]['x-ref']?.filter ?? {}))
        data[local] = target[remote];
    }
    for (const { field, typeField } of entity.documents) {
      const { typeId, value } = await ctx.document();
      data[typeField] = typeId;
      data[field] = value;
    }
    // A field only a condition requires (a vehicle credential's vehicle) is left empty when its
    // condition does not hold: it belongs to another case (a person's credential names no vehicle).
    const always = new Set(entity.schema.required ?? []);
    const rules = entity.schema.allOf ?? [];
    const holds = (rule: (typeof rules)[number]) =>
      Object.entries(rule.if.properties).every(([field, { const: value }]) => data[field] === value);
    const needed = new Set(
      rules.flatMap((rule) => (holds(rule) ? rule.then.required : (rule.else?.required ?? []))),
    );
    for (const rule of rules)
      for (const field of [...rule.then.required, ...(rule.else?.required ?? [])])
        if (!always.has(field) && !needed.has(field)) delete data[field];
    return data;
  }
}

/** The value a record read back should hold for what was sent: trimmed, upper- or lower-cased where the schema says. */
export function expectedValue(prop: PropertySchema, sent: unknown): unknown {
  if (typeof sent !== 'string') return sent;
  const trimmed = sent.trim();
  if (prop['x-lower']) return trimmed.toLowerCase();
  return prop['x-upper'] ? trimmed.toLocaleUpperCase('es') : trimmed;
}
