import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

/**
 * The console's side of the sign-in challenge (src/client/challenge/challenge.ts) against a widget
 * that behaves as ALTCHA's does: a reset while it is solving abandons that solve, and the challenge
 * it solves is the one last configured. Each challenge the server issues is numbered, so the
 * answers say which one they solved.
 */
function fakeWidget(log: string[]) {
  let configured = '';
  let solving = 0;
  let abandon: (() => void) | undefined;
  const widget = {
    most: 0,
    reset() {
      abandon?.();
    },
    async configure({ challenge }: { challenge: { id: string } }) {
      configured = challenge.id;
    },
    async verify() {
      solving += 1;
      widget.most = Math.max(widget.most, solving);
      try {
        // The work takes a few turns of the event loop; a reset meanwhile abandons it.
        const done = await new Promise<boolean>((resolve) => {
          abandon = () => resolve(false);
          let turns = 5;
          const turn = () => (--turns === 0 ? resolve(true) : setImmediate(turn));
          setImmediate(turn);
        });
        if (!done) return null;
        log.push(`solved ${configured}`);
        return { payload: `answer ${configured}` };
      } finally {
        solving -= 1;
      }
    },
  };
  return widget;
}

const refused = async (codigo: string, messageKey: string) => {
  // The class the module under test sees (the modules are loaded afresh for each test).
  const { ApiRequestError } = await import('../../src/client/session/http.js');
  const status = codigo === '07' ? 403 : 401;
  const code = codigo === '07' ? 'LOGIN_REFUSED' : 'UNAUTHORIZED';
  return new ApiRequestError(messageKey, status, { status, code, messageKey, params: { codigo } });
};

describe('the sign-in challenge in the console', () => {
  let log: string[];
  let issued: number;

  beforeEach(() => {
    vi.resetModules();
    log = [];
    issued = 0;
    vi.stubGlobal('customElements', { whenDefined: async () => undefined });
    vi.stubGlobal('fetch', async (url: string) => {
      const id = `${++issued}${url.includes('usuario=') ? ' for the name' : ''}`;
      log.push(`challenge ${id}`);
      return new Response(JSON.stringify({ id }), { headers: { 'content-type': 'application/json' } });
    });
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  const load = () => import('../../src/client/challenge/challenge.js');

  it('prepares the next answer once a refused call is answered, so its challenge counts that failure', async () => {
    const { attachWidget, challengeEnabled, withChallenge } = await load();
    // The first challenge is the probe that asks whether the server wants answers at all.
    expect(await challengeEnabled()).toBe(true);
    const widget = fakeWidget(log);
    attachWidget(widget as never);
    const wrong = withChallenge('HOTELERO', async (token) => {
      log.push(`call with ${token}`);
      // The server takes a while to say no.
      for (let turn = 0; turn < 20; turn++) await new Promise(setImmediate);
      log.push('refused');
      throw await refused('01', 'login.messages.credentials');
    });
    await expect(wrong).rejects.toThrow('login.messages.credentials');
    const right = await withChallenge('HOTELERO', async (token) => token);
    expect(right).toBe('answer 3');
    expect(log.slice(0, 7)).toEqual([
      'challenge 1',
      'challenge 2',
      'solved 2',
      'call with answer 2',
      'refused',
      'challenge 3',
      'solved 3',
    ]);
  });

  it('solves the harder challenge for the name after the answer being prepared, never over it', async () => {
    const { attachWidget, challengeEnabled, withChallenge } = await load();
    // The first challenge is the probe that asks whether the server wants answers at all.
    expect(await challengeEnabled()).toBe(true);
    const widget = fakeWidget(log);
    attachWidget(widget as never);
    const tokens: string[] = [];
    const answer = await withChallenge('HOTELERO', async (token) => {
      tokens.push(token);
      if (tokens.length === 1) throw await refused('07', 'login.messages.challenge');
      return token;
    });
    expect(tokens).toEqual(['answer 2', 'answer 3 for the name']);
    expect(answer).toBe('answer 3 for the name');
    // The answer for the next call is prepared after this one, on the same widget, alone.
    await vi.waitFor(() => expect(log.at(-1)).toBe('solved 4'));
    expect(widget.most).toBe(1);
  });
});
