import { HTTP_RETRY, SESSION } from '../../shared/constants.js';
import { isApiErrorBody } from '../../shared/errors.js';
import { TOKEN_HEADERS, type TokenAction } from '../../shared/session.js';
import { session } from './store.js';

/** What the shell listens to: the server asked for the lock, the session ended, the server is unreachable. */
export type SessionEventName = 'lock' | 'session-ended' | 'connection-lost';
export const sessionEvents = new EventTarget();

function emit(name: SessionEventName): void {
  sessionEvents.dispatchEvent(new Event(name));
}

export class ApiRequestError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly body: unknown,
  ) {
    super(message);
  }

  /** What the screens show: the server's translation key and parameters (or the connection error's). */
  get messageKey(): string | undefined {
    const body = this.body as { messageKey?: unknown } | undefined;
    return typeof body?.messageKey === 'string' ? body.messageKey : undefined;
  }

  get params(): Record<string, string | number> | undefined {
    return isApiErrorBody(this.body) ? this.body.params : undefined;
  }
}

let language = () => 'es';
/** The console's language, sent with every call so the server's messages come back in it. */
export function setLanguageSource(getLocale: () => string): void {
  language = getLocale;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const onLoginPage = () => window.location.pathname.startsWith('/auth');

/**
 * Every call to the API goes through here (spec sections 7 and 8): the bearer token, the refresh
 * token and the current path travel with it; a request with no answer is retried three times,
 * two seconds apart, then the splash opens (not on the login page); a 401 that renews the token
 * saves the new pair and replays the request once; a 401 asking for the lock locks the screen, any
 * other 401 ends the session; 509 answers as it is.
 */
export async function apiFetch(url: string, init: RequestInit = {}, replayed = false): Promise<Response> {
  const headers = new Headers(init.headers);
  if (!headers.has('Accept')) headers.set('Accept', 'application/json');
  headers.set('Accept-Language', language());
  headers.set(TOKEN_HEADERS.path, window.location.pathname);
  const auth = session.auth();
  if (auth?.accessToken && !headers.has('Authorization'))
    headers.set('Authorization', `Bearer ${auth.accessToken}`);
  if (auth?.refreshToken) headers.set(TOKEN_HEADERS.refresh, auth.refreshToken);

  let response: Response | undefined;
  for (let attempt = 1; ; attempt++) {
    try {
      response = await fetch(url, { ...init, headers });
      break;
    } catch {
      if (attempt >= HTTP_RETRY.attempts) {
        if (!onLoginPage()) emit('connection-lost');
        throw new ApiRequestError('network', 0, { messageKey: 'api.errors.NETWORK' });
      }
      await sleep(HTTP_RETRY.delayMs);
    }
  }

  // A locked screen has no tokens on purpose: its refusals are expected, not a reason to sign out.
  if (response.status === 401 && !onLoginPage() && !session.locked()) {
    const action = response.headers.get(TOKEN_HEADERS.action) as TokenAction | null;
    const access = response.headers.get(TOKEN_HEADERS.newAccess);
    const refresh = response.headers.get(TOKEN_HEADERS.newRefresh);
    if (action === 'retry' && access && refresh && !replayed) {
      session.saveTokens(access, refresh);
      headers.delete('Authorization');
      return apiFetch(url, { ...init, headers }, true);
    }
    emit(action === 'lock' ? 'lock' : 'session-ended');
  }
  return response;
}

/**
 * A JSON call of the spec's kind: the answer's `result`, or an ApiRequestError with the server's
 * message. `token` overrides the session's (the sign-in steps before a profile is chosen).
 */
export async function apiCall<T>(method: string, url: string, body?: unknown, token?: string): Promise<T> {
  const headers = new Headers();
  if (body !== undefined) headers.set('Content-Type', 'application/json');
  if (token) headers.set('Authorization', `Bearer ${token}`);
  const response = await apiFetch(url, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  const json = text ? (JSON.parse(text) as unknown) : undefined;
  if (!response.ok && response.status !== 509) {
    const message = isApiErrorBody(json) ? json.message : response.statusText;
    throw new ApiRequestError(message, response.status, json);
  }
  return (json as { result: T }).result;
}

export const RELOAD_DELAY_MS = SESSION.reloadDelayMs;
