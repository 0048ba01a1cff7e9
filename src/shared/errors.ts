/** The one error body every API error answers with (DESIGN.md "The API"). */

export const ERROR_CODES = {
  VALIDATION_FAILED: 400,
  BAD_QUERY: 400,
  BAD_REQUEST: 400,
  MISSING_REFERENCE: 400,
  /** A business rule of the spec refused the change; messageKey says which. */
  BUSINESS_RULE: 400,
  UNAUTHORIZED: 401,
  LOGIN_FAILED: 401,
  LOGIN_REFUSED: 403,
  ACCOUNT_LOCKED: 423,
  CODE_INVALID: 400,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  DUPLICATE: 409,
  /** The change would replace existing data: repeat it confirmed (messageKey says what). */
  CONFIRMATION_REQUIRED: 409,
  IN_USE: 409,
  /** The workflow does not allow this action from the record's state (messageKey says why). */
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  URI_TOO_LONG: 414,
  UNSUPPORTED_MEDIA_TYPE: 415,
  TOO_MANY_REQUESTS: 429,
  INTERNAL: 500,
  /** The database is out of reach for now (down, restarting): the answer carries Retry-After. */
  SERVICE_UNAVAILABLE: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;
export type MessageParams = Record<string, string | number>;

export interface FieldError {
  /** Translation key (locales/*.json) of the message. */
  messageKey: string;
  params?: MessageParams;
  /** The message in the server's language (English), for API clients that do not translate. */
  message: string;
}

export interface ApiErrorBody {
  status: number;
  code: ErrorCode;
  messageKey: string;
  params?: MessageParams;
  message: string;
  /** Per-field problems, keyed by field name. */
  errors?: Record<string, FieldError>;
}

export function messageKeyOf(code: ErrorCode): string {
  return `api.errors.${code}`;
}

export function isApiErrorBody(value: unknown): value is ApiErrorBody {
  if (typeof value !== 'object' || value === null) return false;
  const body = value as Partial<ApiErrorBody>;
  return (
    typeof body.status === 'number' && typeof body.code === 'string' && typeof body.messageKey === 'string'
  );
}
