import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { ApiError, badQuery } from '../errors.js';

/** Deeper than any body or query of this API: a guard against crafted nesting. */
export const MAX_INPUT_DEPTH = 32;

/**
 * What no handler should have to think about: a NUL character in any text (PostgreSQL cannot store
 * one, and no form can type one), a number JSON cannot hold (1e400 reads as Infinity) and absurdly
 * nested input are refused with a 400 before any route runs, in the body, the query and the path
 * alike, and in what a call reads later: a multipart body's parts, JSON sent inside a field.
 */
export function checkInput(value: unknown, where: string): void {
  const stack: Array<{ value: unknown; depth: number }> = [{ value, depth: 0 }];
  while (stack.length) {
    const { value: node, depth } = stack.pop() as { value: unknown; depth: number };
    if (typeof node === 'string') {
      if (node.includes('\u0000'))
        throw new ApiError('BAD_REQUEST', { messageKey: 'validation.nulCharacter', params: { where } });
      continue;
    }
    if (typeof node === 'number') {
      if (!Number.isFinite(node))
        throw new ApiError('BAD_REQUEST', { messageKey: 'validation.numberOutOfRange', params: { where } });
      continue;
    }
    if (typeof node !== 'object' || node === null) continue;
    if (depth >= MAX_INPUT_DEPTH)
      throw new ApiError('BAD_REQUEST', { messageKey: 'validation.tooDeep', params: { where } });
    for (const [key, child] of Object.entries(node)) {
      if (key.includes('\u0000'))
        throw new ApiError('BAD_REQUEST', { messageKey: 'validation.nulCharacter', params: { where } });
      stack.push({ value: child, depth: depth + 1 });
    }
  }
}

/** JSON sent in a query parameter (a list's filter or sort): parsed, and checked as a body is. */
export function queryJson(parameter: string, raw: string): unknown {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    throw badQuery(parameter, 'query.invalidJson');
  }
  checkInput(value, 'query');
  return value;
}

type Parts = (...args: unknown[]) => AsyncIterable<MultipartPart>;
interface MultipartPart {
  type: 'file' | 'field';
  fieldname: string;
  filename?: string;
  value?: unknown;
}

/**
 * A multipart body is read by the call itself, after the hook: each part it reads (its field's
 * name, its text or its file's name) is checked as it comes, whichever call reads it and however.
 * A body that is no multipart one (no boundary, malformed, cut short) is a 400; the reader's own
 * refusals (too large, too many parts) keep their status.
 */
function checkingParts(request: FastifyRequest): void {
  const parts = (request as unknown as { parts?: Parts }).parts;
  if (typeof parts !== 'function' || !request.isMultipart?.()) return;
  const malformed = (error: unknown) => {
    const status = (error as { statusCode?: number }).statusCode;
    return error instanceof ApiError || (status !== undefined && status < 500)
      ? error
      : new ApiError('BAD_REQUEST');
  };
  (request as unknown as { parts: Parts }).parts = function (this: FastifyRequest, ...args: unknown[]) {
    return (async function* (self: FastifyRequest) {
      try {
        for await (const part of parts.apply(self, args)) {
          checkInput({ [part.fieldname]: part.type === 'file' ? part.filename : part.value }, 'body');
          yield part;
        }
      } catch (error) {
        throw malformed(error);
      }
    })(this);
  };
}

async function input(fastify: FastifyInstance): Promise<void> {
  fastify.addHook('preValidation', async (request: FastifyRequest) => {
    checkInput(request.params, 'path');
    checkInput(request.query, 'query');
    checkInput(request.body, 'body');
    checkingParts(request);
  });
}

export default fp(input, { name: 'input' });
