import { request } from 'node:https';

/** What an endpoint answered: its HTTP status and the first characters of its body. */
export interface Answer {
  status: number;
  body: string;
}

/** Sends one signed delivery; throws when no answer came (refused, timed out, a bad certificate). */
export type Transport = (url: string, body: string, headers: Record<string, string>) => Promise<Answer>;

export interface TransportOptions {
  /** Certificate authorities trusted besides the system's (an internal CA), PEM (WEBHOOK_CA_FILE). */
  ca?: string;
  /** How long an endpoint may take to answer (10 s). */
  timeoutMs?: number;
}

const KEEP_CHARS = 500;

/**
 * POSTs over HTTPS only, following no redirect, and keeps at most the first 500 characters of the
 * answer (an endpoint's error page is not stored whole).
 */
export function httpsTransport({ ca, timeoutMs = 10_000 }: TransportOptions = {}): Transport {
  return (url, body, headers) =>
    new Promise<Answer>((resolve, reject) => {
      const target = new URL(url);
      if (target.protocol !== 'https:') return reject(new Error('not an https address'));
      const req = request(
        target,
        {
          method: 'POST',
          headers: { ...headers, 'content-length': Buffer.byteLength(body) },
          timeout: timeoutMs,
          // A connection of its own each time: a kept-alive one the endpoint has since closed would
          // fail a delivery that a fresh one makes.
          agent: false,
          ...(ca ? { ca: [ca] } : {}),
        },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => {
            if (text.length < KEEP_CHARS) text += chunk;
          });
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text.slice(0, KEEP_CHARS) }));
          res.on('error', reject);
        },
      );
      req.on('timeout', () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
      req.on('error', reject);
      req.end(body);
    });
}
