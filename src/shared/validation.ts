import type { ErrorObject } from 'ajv';
import type { MessageParams } from './errors.js';
import type { EntitySchema } from './schema/types.js';

/** A field problem before it is put into words: a translation key and its parameters. */
export interface FieldProblem {
  messageKey: string;
  params?: MessageParams;
}

/**
 * Turns ajv errors into one problem per field, keyed by field name, with translation keys that
 * both locales carry. The server and the forms use it, so a message reads the same in both.
 */
export function fieldProblemsFromAjv(
  errors: readonly Partial<ErrorObject>[],
  schema: Pick<EntitySchema, 'properties'>,
): Record<string, FieldProblem> {
  const problems: Record<string, FieldProblem> = {};
  for (const error of errors) {
    const mapped = problemFromAjv(error, schema);
    if (mapped && !problems[mapped.field]) problems[mapped.field] = mapped.problem;
  }
  return problems;
}

/** The field's own message (x-message), where the schema gives one, for anything but a missing value. */
function ownMessage(
  field: string,
  problem: FieldProblem,
  schema: Pick<EntitySchema, 'properties'>,
): { field: string; problem: FieldProblem } {
  const own = schema.properties[field]?.['x-message'];
  return {
    field,
    problem: own && problem.messageKey !== 'validation.required' ? { messageKey: own } : problem,
  };
}

/** The field one ajv error is about, and its problem. */
export function problemFromAjv(
  error: Partial<ErrorObject>,
  schema: Pick<EntitySchema, 'properties'>,
): { field: string; problem: FieldProblem } | undefined {
  const mapped = genericProblem(error, schema);
  return mapped && ownMessage(mapped.field, mapped.problem, schema);
}

/** A condition's own failure ("must match then") only repeats what its fields' errors say. */
export function restatesFieldErrors(keyword: string | undefined): boolean {
  return keyword === 'if';
}

function genericProblem(
  error: Partial<ErrorObject>,
  schema: Pick<EntitySchema, 'properties'>,
): { field: string; problem: FieldProblem } | undefined {
  if (restatesFieldErrors(error.keyword)) return undefined;
  const params = (error.params ?? {}) as Record<string, unknown>;
  const pathField = (error.instancePath ?? '').split('/')[1] ?? '';
  switch (error.keyword) {
    case 'required':
      return { field: String(params.missingProperty), problem: { messageKey: 'validation.required' } };
    case 'additionalProperties':
      return {
        field: String(params.additionalProperty),
        problem: { messageKey: 'validation.unknownField' },
      };
    case 'maxLength':
    case 'minLength':
    case 'minimum':
    case 'maximum':
    case 'minItems':
    case 'maxItems':
      return {
        field: pathField,
        problem: { messageKey: `validation.${error.keyword}`, params: { limit: Number(params.limit) } },
      };
    case 'pattern': {
      const name = schema.properties[pathField]?.['x-pattern'];
      return {
        field: pathField,
        problem: { messageKey: name ? `validation.patterns.${name}` : 'validation.patternMismatch' },
      };
    }
    case 'format':
      return { field: pathField, problem: { messageKey: `validation.format.${String(params.format)}` } };
    case 'type':
      return { field: pathField, problem: { messageKey: `validation.type.${String(params.type)}` } };
    case 'enum':
      return { field: pathField, problem: { messageKey: 'validation.enum' } };
    case 'uniqueItems':
      return { field: pathField, problem: { messageKey: 'validation.uniqueItems' } };
    default:
      return { field: pathField || '_', problem: { messageKey: 'validation.invalid' } };
  }
}
