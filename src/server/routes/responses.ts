import { INTEGER_RANGE } from '../registry.js';
/** The error shape every failing call answers (plugins/errors.ts registers it as ApiError). */
export const ERROR = { $ref: 'ApiError#' };

/** OpenAPI responses of a call of the spec that answers inside `result`, with its error statuses. */
export function resultResponses(description: string, errors: readonly number[]) {
  return {
    200: { description, type: 'object', properties: { result: {} }, additionalProperties: true },
    ...Object.fromEntries(errors.map((status) => [status, ERROR])),
  };
}

/** The range of the database's integer columns: a larger number is a 400, never a driver error. */
/** The integer columns' range (the registry bounds every integer property to it). */
export const INT32 = { min: INTEGER_RANGE.minimum, max: INTEGER_RANGE.maximum } as const;

/** Bounded field types for route schemas: every string has a length limit, every integer a range. */
export const field = {
  text: (maxLength: number, extra: Record<string, unknown> = {}) => ({ type: 'string', maxLength, ...extra }),
  id: (extra: Record<string, unknown> = {}) => ({
    type: 'integer',
    minimum: 1,
    maximum: INT32.max,
    ...extra,
  }),
  integer: (minimum: number, maximum: number, extra: Record<string, unknown> = {}) => ({
    type: 'integer',
    minimum,
    maximum,
    ...extra,
  }),
  flag: { type: 'string', enum: ['S', 'N'] },
} as const;

/** An object schema with the given properties and nothing else. */
export function objectOf(properties: Record<string, unknown>, required: string[] = []) {
  return {
    type: 'object',
    properties,
    ...(required.length ? { required } : {}),
    additionalProperties: false,
  };
}
