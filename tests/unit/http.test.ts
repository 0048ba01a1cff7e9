import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

/** A browser's window, localStorage and fetch, enough for the console's HTTP layer. */
function fakeBrowser(pathname = '/dashboard') {
  const storage = new Map<string, string>();
  vi.stubGlobal('window', {
    location: { pathname },
    localStorage: {
      getItem: (k: string) => storage.get(k) ?? null,
      setItem: (k: string, v: string) => storage.set(k, v),
      removeItem: (k: string) => storage.delete(k),
      key: () => null,
      get length() {
        return storage.size;
      },
    },
  });
  Object.defineProperty(globalThis.window.localStorage, 'keys', { value: () => [...storage.keys()] });
  return storage;
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });

describe('the console’s HTTP layer (spec section 8)', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.resetModules();
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  async function load(pathname?: string) {
    const storage = fakeBrowser(pathname);
    const http = await import('../../src/client/session/http.js');
    const { session } = await import('../../src/client/session/store.js');
    session.saveAuth({
      accessToken: 'old-access',
      refreshToken: 'old-refresh',
      username: 'ADMIN',
      fullName: 'ADMIN',
    });
    const events: string[] = [];
    for (const name of ['lock', 'session-ended', 'connection-lost']) {
      http.sessionEvents.addEventListener(name, () => events.push(name));
    }
    return { http, session, storage, events };
  }

  it('sends the token, the refresh token and the current path', async () => {
    const { http } = await load();
    const fetch = vi.fn(async () => json(200, { result: 1 }));
    vi.stubGlobal('fetch', fetch);
    await http.apiCall('GET', '/api/x');
    const headers = (fetch.mock.calls[0] as unknown as [string, RequestInit])[1].headers as Headers;
    expect(headers.get('authorization')).toBe('Bearer old-access');
    expect(headers.get('x-refresh-token')).toBe('old-refresh');
    expect(headers.get('x-current-path')).toBe('/dashboard');
  });

  it('retries a request with no answer three times, two seconds apart, then opens the splash', async () => {
    const { http, events } = await load();
    const fetch = vi.fn(async () => {
      throw new TypeError('fetch failed');
    });
    vi.stubGlobal('fetch', fetch);
    const result = http.apiCall('GET', '/api/x').catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(1999);
    expect(fetch).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(fetch).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(2000);
    expect(fetch).toHaveBeenCalledTimes(3);
    const error = (await result) as { status: number; messageKey: string };
    expect(error.status).toBe(0);
    expect(error.messageKey).toBe('api.errors.NETWORK');
    expect(events).toEqual(['connection-lost']);
  });

  it('does not open the splash on the login page', async () => {
    const { http, events } = await load('/auth/login');
    vi.stubGlobal('fetch', async () => {
      throw new TypeError('fetch failed');
    });
    const result = http.apiCall('GET', '/api/x').catch(() => undefined);
    await vi.advanceTimersByTimeAsync(5000);
    await result;
    expect(events).toEqual([]);
  });

  it('saves a renewed token pair and replays the request once', async () => {
    const { http, session } = await load();
    const fetch = vi
      .fn()
      .mockResolvedValueOnce(
        json(
          401,
          { status: 401 },
          {
            'x-token-action': 'retry',
            'x-token-recreated': 'S',
            'x-access-token': 'new-access',
            'x-new-refresh-token': 'new-refresh',
          },
        ),
      )
      .mockResolvedValueOnce(json(200, { result: 'ok' }));
    vi.stubGlobal('fetch', fetch);
    expect(await http.apiCall('GET', '/api/x')).toBe('ok');
    expect(session.auth()).toMatchObject({ accessToken: 'new-access', refreshToken: 'new-refresh' });
    const replay = (fetch.mock.calls[1] as [string, RequestInit])[1].headers as Headers;
    expect(replay.get('authorization')).toBe('Bearer new-access');
  });

  /** An access token the console reads as ended (or not) by its exp claim. */
  const jwt = (exp: number) => `h.${btoa(JSON.stringify({ sub: 'ADMIN', exp })).replace(/=+$/, '')}.s`;

  it('renews an expired token once for requests sent together, and sends the others with the new one', async () => {
    const { http, session, events } = await load();
    const expired = jwt(Math.floor(Date.now() / 1000) - 60);
    session.saveTokens(expired, 'old-refresh');
    const fresh = jwt(Math.floor(Date.now() / 1000) + 900);
    const sent: Array<string | null> = [];
    let refreshes = 0;
    vi.stubGlobal('fetch', async (_url: string, init: RequestInit) => {
      const headers = init.headers as Headers;
      sent.push(headers.get('authorization'));
      if (headers.get('authorization') === `Bearer ${expired}`) {
        refreshes++;
        // The server spends the refresh token once; a second use would end the session.
        if (refreshes > 1) return json(401, { status: 401 }, { 'x-token-action': 'logout' });
        await new Promise((r) => setTimeout(r, 50));
        return json(
          401,
          { status: 401 },
          {
            'x-token-action': 'retry',
            'x-token-recreated': 'S',
            'x-access-token': fresh,
            'x-new-refresh-token': 'new-refresh',
          },
        );
      }
      return json(200, { result: 'ok' });
    });
    const calls = Array.from({ length: 6 }, () => http.apiCall('GET', '/api/x'));
    await vi.advanceTimersByTimeAsync(100);
    expect(await Promise.all(calls)).toEqual(Array(6).fill('ok'));
    expect(refreshes).toBe(1);
    expect(sent.filter((a) => a === `Bearer ${fresh}`)).toHaveLength(6);
    expect(session.auth()).toMatchObject({ accessToken: fresh, refreshToken: 'new-refresh' });
    expect(events).toEqual([]);
  });

  it('replays, rather than signs out, a request refused while another renewed the tokens', async () => {
    const { http, session, events } = await load();
    const fetch = vi.fn(async (_url: string, init: RequestInit) => {
      const headers = init.headers as Headers;
      if (headers.get('authorization') === 'Bearer old-access') {
        // Another request renewed the pair while this one was out.
        session.saveTokens('newer-access', 'newer-refresh');
        return json(401, { status: 401 }, { 'x-token-action': 'logout' });
      }
      return json(200, { result: 'ok' });
    });
    vi.stubGlobal('fetch', fetch);
    expect(await http.apiCall('GET', '/api/x')).toBe('ok');
    expect(fetch).toHaveBeenCalledTimes(2);
    expect(events).toEqual([]);
  });

  it('keeps the refresh token when a renewal answers with an access token alone', async () => {
    const { http, session } = await load();
    vi.stubGlobal(
      'fetch',
      vi
        .fn()
        .mockResolvedValueOnce(
          json(401, { status: 401 }, { 'x-token-action': 'retry', 'x-access-token': 'grace-access' }),
        )
        .mockResolvedValueOnce(json(200, { result: 'ok' })),
    );
    expect(await http.apiCall('GET', '/api/x')).toBe('ok');
    expect(session.auth()).toMatchObject({ accessToken: 'grace-access', refreshToken: 'old-refresh' });
  });

  it('asks for the lock, or ends the session, as the 401 says', async () => {
    const { http, events } = await load();
    vi.stubGlobal('fetch', async () =>
      json(
        401,
        { status: 401, message: 'x', code: 'UNAUTHORIZED', messageKey: 'k' },
        { 'x-token-action': 'lock' },
      ),
    );
    await http.apiCall('GET', '/api/x').catch(() => undefined);
    vi.stubGlobal('fetch', async () =>
      json(
        401,
        { status: 401, message: 'x', code: 'UNAUTHORIZED', messageKey: 'k' },
        { 'x-token-action': 'logout' },
      ),
    );
    await http.apiCall('GET', '/api/x').catch(() => undefined);
    expect(events).toEqual(['lock', 'session-ended']);
  });

  it('passes a 509 through and carries the server’s message on other errors', async () => {
    const { http } = await load();
    vi.stubGlobal('fetch', async () => json(509, { result: 'limit' }));
    expect(await http.apiCall('GET', '/api/x')).toBe('limit');
    vi.stubGlobal('fetch', async () =>
      json(400, {
        status: 400,
        code: 'BAD_REQUEST',
        messageKey: 'api.errors.BAD_REQUEST',
        message: 'La solicitud no es válida.',
      }),
    );
    const error = (await http.apiCall('GET', '/api/x').catch((e: unknown) => e)) as Error & {
      status: number;
      messageKey: string;
    };
    expect(error.message).toBe('La solicitud no es válida.');
    expect(error.status).toBe(400);
    expect(error.messageKey).toBe('api.errors.BAD_REQUEST');
  });
});
