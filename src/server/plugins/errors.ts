import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Language } from '../../shared/constants.js';
import { type ApiErrorBody, type FieldError, type MessageParams, messageKeyOf } from '../../shared/errors.js';
import { writeAudit } from '../crud/audit.js';
import { brokenUniqueWhen, databaseUnavailable, uniqueWhenRefusal } from '../db/errors.js';
import { ApiError, type RefusedWrite } from '../errors.js';
import { languageOf, resourceName, t } from '../i18n.js';

/** Parameters that name resources are shown by their translated names. */
function localize(language: Language, params: MessageParams = {}): MessageParams {
  const out: MessageParams = { ...params };
  if (typeof params.resource === 'string') out.resource = resourceName(language, params.resource);
  if (typeof params.resources === 'string') {
    out.resources = params.resources
      .split(',')
      .map((name) => resourceName(language, name, true))
      .join(', ');
  }
  return out;
}

export function errorBody(error: ApiError, language: Language): ApiErrorBody {
  const params = localize(language, error.params);
  const messageKey = error.messageKey ?? messageKeyOf(error.code);
  const body: ApiErrorBody = {
    status: error.status,
    code: error.code,
    messageKey,
    message: t(language, messageKey, params),
  };
  if (error.params) body.params = params;
  if (error.fields) {
    body.errors = Object.fromEntries(
      Object.entries(error.fields).map(([field, problem]): [string, FieldError] => {
        const fieldParams = localize(language, problem.params);
        return [
          field,
          {
            messageKey: problem.messageKey,
            ...(problem.params ? { params: fieldParams } : {}),
            message: t(language, problem.messageKey, fieldParams),
          },
        ];
      }),
    );
  }
  return body;
}

const DB_CODES: Record<string, ApiError['code']> = {
  SQLITE_CONSTRAINT_UNIQUE: 'DUPLICATE',
  SQLITE_CONSTRAINT_PRIMARYKEY: 'DUPLICATE',
  SQLITE_CONSTRAINT_FOREIGNKEY: 'IN_USE',
  SQLITE_CONSTRAINT_NOTNULL: 'VALIDATION_FAILED',
  '23505': 'DUPLICATE',
  '23503': 'IN_USE',
  '23502': 'VALIDATION_FAILED',
};

/** Seconds a caller is asked to wait (Retry-After) while the database is out of reach. */
export const RETRY_AFTER_SECONDS = 5;

/**
 * Values PostgreSQL refuses that a check upstream missed: a NUL character (22021 in text, 22P05 in
 * JSON), a number beyond its column (22003), text that is no number or date (22P02, 22007, 22008).
 * SQLite would have taken them; they are the caller's input, so a 400 on both.
 */
const POSTGRES_BAD_INPUT: Record<string, () => ApiError> = {
  '22021': () =>
    new ApiError('BAD_REQUEST', { messageKey: 'validation.nulCharacter', params: { where: 'body' } }),
  '22P05': () =>
    new ApiError('BAD_REQUEST', { messageKey: 'validation.nulCharacter', params: { where: 'body' } }),
  '22003': () => new ApiError('BAD_REQUEST', { messageKey: 'validation.numberOutOfRange' }),
  '22P02': () => new ApiError('BAD_REQUEST'),
  '22007': () => new ApiError('BAD_REQUEST'),
  '22008': () => new ApiError('BAD_REQUEST'),
};

/** Maps anything thrown to the one error shape; never leaks a stack trace or SQL. */
export function toApiError(error: unknown): ApiError | undefined {
  if (error instanceof ApiError) return error;
  const e = error as Partial<FastifyError> & { code?: string };
  if (databaseUnavailable(error)) return new ApiError('SERVICE_UNAVAILABLE');
  if (e.code && DB_CODES[e.code]) return new ApiError(DB_CODES[e.code]);
  if (e.code && POSTGRES_BAD_INPUT[e.code]) return POSTGRES_BAD_INPUT[e.code]();
  switch (e.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new ApiError('PAYLOAD_TOO_LARGE');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new ApiError('UNSUPPORTED_MEDIA_TYPE');
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return new ApiError('BAD_REQUEST', { detail: e.message });
  }
  if (e.statusCode === 400 && (e.validation || e.code?.startsWith('FST_ERR'))) {
    return new ApiError('BAD_REQUEST', { detail: e.message });
  }
  // The multipart parser's refusals (a file too large, too many parts, not multipart).
  if (e.code?.startsWith('FST_') && e.statusCode && e.statusCode >= 400 && e.statusCode < 500) {
    if (e.statusCode === 413) return new ApiError('PAYLOAD_TOO_LARGE');
    if (e.statusCode === 406 || e.statusCode === 415) return new ApiError('UNSUPPORTED_MEDIA_TYPE');
    return new ApiError('BAD_REQUEST', { detail: e.message });
  }
  if (e.statusCode === 429) return new ApiError('TOO_MANY_REQUESTS');
  return undefined;
}

/** A refused write kept in the audit trail, outside the transaction its refusal undid. */
async function auditRefusal(fastify: FastifyInstance, request: FastifyRequest, refused: RefusedWrite) {
  const entity = fastify.registry?.get(refused.resource);
  if (!entity || !request.principal) return;
  try {
    await writeAudit(
      fastify.database.db,
      fastify.registry,
      entity,
      'R',
      request.principal,
      refused.id,
      undefined,
      refused.attempted,
    );
  } catch (error) {
    request.log.error({ err: error }, 'refused write not audited');
  }
}

async function errors(fastify: FastifyInstance): Promise<void> {
  fastify.decorateRequest('language', 'es');
  fastify.addHook('onRequest', async (request) => {
    request.language = languageOf(request.headers['accept-language']);
  });
  fastify.setErrorHandler(async (error: unknown, request: FastifyRequest, reply: FastifyReply) => {
    // A row a partial unique index refused (two writers raced past the service's own check).
    const rule = fastify.registry ? brokenUniqueWhen(fastify.registry, error) : undefined;
    const known = rule ? uniqueWhenRefusal(rule) : toApiError(error);
    if (!known) request.log.error({ err: error }, 'unhandled error');
    else if (known.cause !== undefined)
      request.log.error({ err: known.cause }, known.messageKey ?? known.code);
    const apiError = known ?? new ApiError('INTERNAL');
    if (apiError.code === 'SERVICE_UNAVAILABLE') {
      request.log.warn({ err: error }, 'database unavailable');
      reply.header('retry-after', String(RETRY_AFTER_SECONDS));
    }
    if (apiError.audit) await auditRefusal(fastify, request, apiError.audit);
    return reply.status(apiError.status).send(errorBody(apiError, request.language));
  });
}

export default fp(errors, { name: 'errors' });
