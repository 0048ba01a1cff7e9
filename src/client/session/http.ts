import { HTTP_RETRY, SESSION } from '../../shared/constants.js';
import { isApiErrorBody } from '../../shared/errors.js';
import { TOKEN_HEADERS, type TokenAction } from '../../shared/session.js';
import { session } from './store.js';

/**
 * What the shell listens to: the server asked for the lock, the session ended, the server is
 * unreachable, or a screen is still at work for the user (`activity`).
 */
export type SessionEventName = 'lock' | 'session-ended' | 'connection-lost' | 'activity';
export const sessionEvents = new EventTarget();

function emit(name: SessionEventName): void {
  sessionEvents.dispatchEvent(new Event(name));
}

/**
 * A screen following a long job for the user (a bulk upload being checked or processed) counts
 * as activity: the screen does not lock, nor the session end, while the progress moves on it.
 */
export function keepSessionAlive(): void {
  emit('activity');
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

/** Seconds since the epoch at which an access token ends (0 when it cannot be read). */
function expiryOf(token: string): number {
  try {
    const payload = token.split('.')[1].replace(/-/g, '+').replace(/_/g, '/');
    const exp = (JSON.parse(atob(payload)) as { exp?: unknown }).exp;
    return typeof exp === 'number' ? exp : 0;
  } catch {
    return 0;
  }
}

/**
 * The one renewal under way. A request that leaves with an expired access token renews it (the
 * server answers its 401 with the new pair); requests made meanwhile wait for it and leave with
 * the new token, so one refresh token is never spent twice.
 */
let renewal: Promise<void> | undefined;

/**
 * Every call to the API goes through here (spec sections 7 and 8): the bearer token, the refresh
 * token and the current path travel with it; a request with no answer is retried three times,
 * two seconds apart, then the splash opens (not on the login page); a 401 that renews the token
 * saves the new pair and replays the request once; a 401 asking for the lock locks the screen, any
 * other 401 ends the session, unless another request renewed the tokens while this one was out,
 * in which case it is replayed with them; 509 answers as it is.
 */
export async function apiFetch(url: string, init: RequestInit = {}, replayed = false): Promise<Response> {
  while (renewal) await renewal;
  const headers = new Headers(init.headers);
  if (!headers.has('Accept')) headers.set('Accept', 'application/json');
  headers.set('Accept-Language', language());
  headers.set(TOKEN_HEADERS.path, window.location.pathname);
  const auth = session.auth();
  const sentAccess = headers.has('Authorization') ? undefined : auth?.accessToken;
  if (sentAccess) headers.set('Authorization', `Bearer ${sentAccess}`);
  if (auth?.refreshToken) headers.set(TOKEN_HEADERS.refresh, auth.refreshToken);

  let renewed: (() => void) | undefined;
  if (sentAccess && auth?.refreshToken && expiryOf(sentAccess) * 1000 <= Date.now()) {
    renewal = new Promise<void>((resolve) => {
      renewed = () => {
        renewal = undefined;
        resolve();
      };
    });
  }
  try {
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
      if (action === 'retry' && access && !replayed) {
        // A renewal moments after another one gets a new access token and keeps the refresh token.
        session.saveTokens(access, refresh ?? session.auth()?.refreshToken ?? '');
        renewed?.();
        headers.delete('Authorization');
        return apiFetch(url, { ...init, headers }, true);
      }
      const current = session.auth()?.accessToken;
      if (!replayed && sentAccess && current && current !== sentAccess) {
        renewed?.();
        headers.delete('Authorization');
        return apiFetch(url, { ...init, headers }, true);
      }
      emit(action === 'lock' ? 'lock' : 'session-ended');
    }
    return response;
  } finally {
    renewed?.();
  }
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
  let json: unknown;
  try {
    json = text ? (JSON.parse(text) as unknown) : undefined;
  } catch (error) {
    // A failure answered by something other than the API (a proxy's page) is still a failure of its status.
    if (response.ok) throw error;
  }
  if (!response.ok && response.status !== 509) {
    const message = isApiErrorBody(json) ? json.message : response.statusText;
    throw new ApiRequestError(message, response.status, json);
  }
  return (json as { result: T }).result;
}

/** A call's query string from its parameters, leaving out those not given (undefined or empty). */
export const queryString = (params: Record<string, string | number | undefined>): string =>
  new URLSearchParams(
    Object.entries(params).flatMap(([k, v]) => (v === undefined || v === '' ? [] : [[k, String(v)]])),
  ).toString();

export const RELOAD_DELAY_MS = SESSION.reloadDelayMs;
