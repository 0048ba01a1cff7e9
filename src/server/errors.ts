import { ERROR_CODES, type ErrorCode, type MessageParams } from '../shared/errors.js';
import type { FieldProblem } from '../shared/validation.js';

export interface ApiErrorOptions {
  params?: MessageParams;
  fields?: Record<string, FieldProblem>;
  detail?: string;
  /** A more precise message than the code's own (the sign-in outcomes 00 to 12, for instance). */
  messageKey?: string;
}

/** An error the API answers with its own status, code and message; anything else is a 500. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: ErrorCode;
  readonly params?: MessageParams;
  readonly fields?: Record<string, FieldProblem>;
  readonly messageKey?: string;

  constructor(code: ErrorCode, options: ApiErrorOptions = {}) {
    super(options.detail ?? code);
    this.code = code;
    this.status = ERROR_CODES[code];
    this.params = options.params;
    this.fields = options.fields;
    this.messageKey = options.messageKey;
  }
}

export function badQuery(parameter: string, detailKey: string, params: MessageParams = {}): ApiError {
  return new ApiError('BAD_QUERY', {
    params: { parameter, ...params },
    fields: { [parameter]: { messageKey: detailKey, params } },
  });
}
