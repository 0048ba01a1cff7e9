import { useNotify } from 'react-admin';
import { isApiErrorBody } from '../../../shared/errors.js';
import { apiFetch } from '../../session/http.js';

/** POSTs one of the webhook calls; answers its result, or undefined after telling the user why not. */
export function useWebhookCall() {
  const notify = useNotify();
  return async (url: string): Promise<Record<string, unknown> | undefined> => {
    const response = await apiFetch(url, { method: 'POST' });
    const body: unknown = await response.json().catch(() => undefined);
    if (!response.ok) {
      notify(isApiErrorBody(body) ? body.message : 'ra.notification.http_error', { type: 'warning' });
      return undefined;
    }
    return (body as { result: Record<string, unknown> }).result;
  };
}
