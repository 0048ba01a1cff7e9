/** The error shape every failing call answers (plugins/errors.ts registers it as ApiError). */
export const ERROR = { $ref: 'ApiError#' };

/** OpenAPI responses of a call of the spec that answers inside `result`, with its error statuses. */
export function resultResponses(description: string, errors: readonly number[]) {
  return {
    200: { description, type: 'object', properties: { result: {} }, additionalProperties: true },
    ...Object.fromEntries(errors.map((status) => [status, ERROR])),
  };
}
