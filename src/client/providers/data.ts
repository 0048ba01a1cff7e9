import simpleRestProvider from 'ra-data-simple-rest';
import { type DataProvider, HttpError, type I18nProvider } from 'react-admin';
import { isApiErrorBody } from '../../shared/errors.js';
import type { CreateThrough } from '../features/types.js';
import { apiFetch } from '../session/http.js';

export const API_ROOT = '/api/rest';

/**
 * ra-data-simple-rest over the generic API, through the session's HTTP layer (tokens, renewal,
 * retries). Errors carry the server's message, already in the console's language.
 */
export function createDataProvider(
  i18n: I18nProvider,
  onWrite: (resource: string) => void = () => {},
  creates: Record<string, CreateThrough> = {},
): DataProvider {
  const httpClient = async (url: string, options: RequestInit = {}) => {
    const headers = new Headers(options.headers);
    if (options.body && !headers.has('Content-Type')) headers.set('Content-Type', 'application/json');
    let response: Response;
    try {
      response = await apiFetch(url, { ...options, headers });
    } catch {
      throw new HttpError(i18n.translate('api.errors.NETWORK'), 0, undefined);
    }
    const body = await response.text();
    let json: unknown;
    try {
      json = body ? JSON.parse(body) : undefined;
    } catch {
      json = undefined;
    }
    if (response.status < 200 || response.status >= 300) {
      const message = isApiErrorBody(json) ? json.message : response.statusText;
      // A server failure is titled with its status (spec section 8); refusals read as the server words them.
      throw new HttpError(
        response.status >= 500 ? `${response.status} · ${message}` : message,
        response.status,
        json,
      );
    }
    return { status: response.status, headers: response.headers, body, json };
  };
  const base = simpleRestProvider(API_ROOT, httpClient);
  const written =
    <A extends unknown[], R>(method: (resource: string, ...args: A) => Promise<R>) =>
    async (resource: string, ...args: A): Promise<R> => {
      const result = await method(resource, ...args);
      onWrite(resource);
      return result;
    };
  // A resource a feature creates through its own call (users: auth/register), with the same errors.
  const create: DataProvider['create'] = async (resource, params) => {
    const through = creates[resource];
    if (!through) return base.create(resource, params);
    const { json } = await httpClient(through.url, {
      method: 'POST',
      body: JSON.stringify(through.body(params.data as Record<string, unknown>)),
    });
    const record = through.record((json as { result?: unknown } | undefined)?.result);
    return { data: { ...params.data, ...record, id: record.id ?? params.data.id } } as never;
  };
  return {
    ...base,
    create: written(create),
    update: written(base.update),
    updateMany: written(base.updateMany),
    delete: written(base.delete),
    deleteMany: written(base.deleteMany),
  } as DataProvider;
}
