import { ERROR_CODES, type ErrorCode, type MessageParams } from '../shared/errors.js';
import type { FieldProblem } from '../shared/validation.js';

export interface ApiErrorOptions {
  params?: MessageParams;
  fields?: Record<string, FieldProblem>;
  detail?: string;
  /** A more precise message than the code's own (the sign-in outcomes 00 to 12, for instance). */
  messageKey?: string;
  /**
   * A refused write worth keeping in the audit trail (a grant beyond the caller's rights): written
   * by the error handler once the write's transaction is undone, as operation R.
   */
  audit?: RefusedWrite;
  /** The failure behind a server error the answer words for a person: logged, never sent. */
  cause?: unknown;
}

export interface RefusedWrite {
  resource: string;
  id: string;
  attempted: Record<string, unknown>;
}

/** An error the API answers with its own status, code and message; anything else is a 500. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: ErrorCode;
  readonly params?: MessageParams;
  readonly fields?: Record<string, FieldProblem>;
  readonly messageKey?: string;
  readonly audit?: RefusedWrite;

  constructor(code: ErrorCode, options: ApiErrorOptions = {}) {
    super(options.detail ?? code, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.status = ERROR_CODES[code];
    this.params = options.params;
    this.fields = options.fields;
    this.messageKey = options.messageKey;
    this.audit = options.audit;
  }
}

export function badQuery(parameter: string, detailKey: string, params: MessageParams = {}): ApiError {
  return new ApiError('BAD_QUERY', {
    params: { parameter, ...params },
    fields: { [parameter]: { messageKey: detailKey, params } },
  });
}
