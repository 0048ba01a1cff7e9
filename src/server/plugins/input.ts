import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { ApiError } from '../errors.js';

/** Deeper than any body or query of this API: a guard against crafted nesting. */
export const MAX_INPUT_DEPTH = 32;

/**
 * What no handler should have to think about: a NUL character in any text (PostgreSQL cannot store
 * one, and no form can type one) and absurdly nested input are refused with a 400 before any
 * route runs, in the body, the query and the path alike.
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

async function input(fastify: FastifyInstance): Promise<void> {
  fastify.addHook('preValidation', async (request: FastifyRequest) => {
    checkInput(request.params, 'path');
    checkInput(request.query, 'query');
    checkInput(request.body, 'body');
  });
}

export default fp(input, { name: 'input' });
