import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/server/errors.js';
import { requireTransition } from '../../src/server/workflow.js';
import { loginMachine } from '../../workflows/login.machine.js';

describe('the server’s workflow guard', () => {
  const stored = (value: string) => ({ value, context: { username: 'ADMIN' } });

  it('answers the state an allowed event leads to', () => {
    const next = requireTransition(
      loginMachine,
      stored('credentials'),
      { type: 'FORGOT' },
      { messageKey: 'x' },
    );
    expect(next.value).toBe('forgot');
  });

  it('refuses an event the stored state does not take, with 409 and the caller’s message key', () => {
    let error: unknown;
    try {
      requireTransition(
        loginMachine,
        stored('credentials'),
        { type: 'SUBMIT_CODE', code: '1234' },
        {
          messageKey: 'login.codeNotAsked',
        },
      );
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(409);
    expect((error as ApiError).messageKey).toBe('login.codeNotAsked');
  });
});
