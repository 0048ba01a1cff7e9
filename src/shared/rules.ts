/**
 * Validation rules of spec section 5 that need more than one field or another record: date order,
 * identity documents checked against their type, field rules (Obligatorio, Modificable) and locked
 * records. Pure functions: the server enforces them and the forms show them, from the same code.
 */
import { rucCheckDigit, rutCheckDigit } from './check-digits.js';
import { DEFAULT_DOCUMENT_LENGTH } from './constants.js';
import type { AfterRule, EntitySchema, LockRule } from './schema/types.js';
import type { FieldProblem } from './validation.js';

type Data = Record<string, unknown>;

/** End not before start: each pair whose two values are present and out of order names its end field. */
export function checkAfter(rules: readonly AfterRule[], data: Data): Record<string, FieldProblem> {
  const problems: Record<string, FieldProblem> = {};
  for (const { start, end, messageKey } of rules) {
    const from = data[start];
    const to = data[end];
    // ISO dates and HH:mm times both order as text.
    if (typeof from === 'string' && typeof to === 'string' && from && to && to < from) {
      problems[end] = { messageKey: messageKey ?? 'validation.endBeforeStart', params: { start } };
    }
  }
  return problems;
}

/** What a document type says about its documents (spec section 3 Reference data). */
export interface DocumentTypeRule {
  IdPais?: string | null;
  Alias?: string | null;
  Longitud?: number | null;
  LongitudFija?: string | null;
  Mascara?: string | null;
  CaracteresPermitidos?: string | null;
}

const PLACEHOLDERS = new Set(['#', 'A', 'X']);

/** Number of characters a mask holds (its #, A and X). */
export function maskCapacity(mask: string): number {
  return [...mask].filter((c) => PLACEHOLDERS.has(c)).length;
}

/**
 * A stored document (its characters only) shown through the type's mask, filled from the right
 * so that a shorter number keeps its check digit last: 10110866K with ##.###.###-X → 10.110.866-K.
 */
export function formatDocument(value: string, mask: string | null | undefined): string {
  if (!mask || value.length > maskCapacity(mask)) return value;
  const chars = [...value];
  const out: string[] = [];
  for (const c of [...mask].reverse()) {
    if (!chars.length) break;
    out.push(PLACEHOLDERS.has(c) ? (chars.pop() as string) : c);
  }
  return out.reverse().join('');
}

/** Separators people type inside a document number (12.345.678-5, 20-12345678-9): not part of it. */
const DOCUMENT_SEPARATORS = /[\s./-]/g;

/**
 * The one form a document number is kept in: upper-cased, without the separators its mask shows
 * (12.345.678-k → 12345678K). The server stores this form, and the form sends it.
 */
export function normalizeDocument(value: string): string {
  return value.toLocaleUpperCase('es').replace(DOCUMENT_SEPARATORS, '');
}

/** The check digit a country's document carries, where it has one; undefined when it has none. */
function checkDigitOk(value: string, type: DocumentTypeRule): boolean | undefined {
  const key = `${type.IdPais}:${type.Alias}`;
  if (key === 'PE:RUC')
    return /^\d{11}$/.test(value) && rucCheckDigit(value.slice(0, 10)) === Number(value[10]);
  if (key === 'CH:RUT' || key === 'CH:RUN') {
    const match = /^(\d{1,8})([0-9K])$/.exec(value);
    return Boolean(match) && rutCheckDigit(match?.[1] ?? '') === match?.[2];
  }
  return undefined;
}

/**
 * A document against its type: the allowed characters, the length (exact when the type says so,
 * otherwise at most the type's, 20 by default), the mask's placeholders and the check digit.
 */
export function checkDocument(value: string, type: DocumentTypeRule): FieldProblem | undefined {
  const allowed = type.CaracteresPermitidos;
  if (allowed && !new RegExp(`^[${allowed}]+$`).test(value))
    return { messageKey: 'validation.document.characters', params: { allowed } };
  const length = type.Longitud ?? DEFAULT_DOCUMENT_LENGTH;
  if (type.LongitudFija === 'S' && value.length !== length)
    return { messageKey: 'validation.document.exactLength', params: { length } };
  if (value.length > length) return { messageKey: 'validation.document.maxLength', params: { length } };
  const mask = type.Mascara;
  if (mask) {
    const slots = [...mask].filter((c) => PLACEHOLDERS.has(c));
    const chars = [...value];
    const fits =
      chars.length <= slots.length &&
      chars.every((c, i) => {
        const slot = slots[slots.length - chars.length + i];
        return slot === '#' ? /\d/.test(c) : slot === 'A' ? /[A-ZÑ]/i.test(c) : true;
      });
    if (!fits) return { messageKey: 'validation.document.mask', params: { mask } };
  }
  if (checkDigitOk(value, type) === false) return { messageKey: 'validation.document.checkDigit' };
  return undefined;
}

/** A field rule as the API returns it (spec section 3: IdDato, Campo, Obligatorio, Modificable). */
export interface FieldRule {
  IdDato: string;
  Campo: string;
  Obligatorio: string;
  Modificable: string;
}

export interface FieldRuleEffects {
  /** Fields that must have a value. */
  required: string[];
  /** Fields an existing record may not change. */
  locked: string[];
}

/**
 * What the field rules of a form do to the fields it may write: Obligatorio S makes a field
 * required, Modificable N makes it unchangeable once the record exists. Rules for fields the
 * form cannot write are ignored; rules never relax what the schema itself requires.
 */
export function fieldRuleEffects(rules: readonly FieldRule[], writable: readonly string[]): FieldRuleEffects {
  const required = new Set<string>();
  const locked = new Set<string>();
  for (const rule of rules) {
    if (!writable.includes(rule.Campo)) continue;
    if (rule.Obligatorio === 'S') required.add(rule.Campo);
    if (rule.Modificable === 'N') locked.add(rule.Campo);
  }
  return { required: [...required], locked: [...locked] };
}

/** The fields a stored record's state locks (x-lockedWhen), or none. */
export function lockedByState(
  lock: LockRule | undefined,
  record: Data | undefined,
  fields: readonly string[],
): string[] {
  if (!lock || !record || record[lock.field] !== lock.equals) return [];
  const free = new Set([...(lock.except ?? [])]);
  return fields.filter((f) => !free.has(f));
}

/**
 * The form's schema and read-only fields once the field rules are applied on top of the entity
 * schema: required fields join `required`; on an existing record, unmodifiable fields and those a
 * locked state freezes become read-only. The entity schema is not changed.
 */
export function applyFieldRules(
  schema: EntitySchema,
  rules: readonly FieldRule[],
  mode: 'create' | 'edit',
  record?: Data,
): { schema: EntitySchema; readOnly: string[] } {
  const fields = Object.keys(schema.properties).filter(
    (f) => !schema.properties[f].readOnly && !schema.properties[f]['x-generated'],
  );
  const effects = fieldRuleEffects(rules, fields);
  const required = [...new Set([...(schema.required ?? []), ...effects.required])];
  const readOnly =
    mode === 'edit'
      ? [...new Set([...effects.locked, ...lockedByState(schema['x-lockedWhen'], record, fields)])]
      : [];
  return { schema: { ...schema, required }, readOnly };
}

/** Values that differ between what is stored and what is sent (null and absent are the same). */
export function changed(before: unknown, after: unknown): boolean {
  const norm = (v: unknown) => (v === undefined || v === '' ? null : v);
  const a = norm(before);
  const b = norm(after);
  if (Array.isArray(a) || Array.isArray(b)) {
    const x = [...((a as unknown[]) ?? [])].map(String).sort();
    const y = [...((b as unknown[]) ?? [])].map(String).sort();
    return x.length !== y.length || x.some((v, i) => v !== y[i]);
  }
  if (typeof a === 'number' || typeof b === 'number')
    return Number(a) !== Number(b) || (a === null) !== (b === null);
  return a !== b;
}
