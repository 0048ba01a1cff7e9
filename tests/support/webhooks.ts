import { execFileSync } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A certificate for 127.0.0.1 signed by itself: the receiver's, and the one authority the app trusts. */
export function selfSigned(): { key: string; cert: string } {
  const dir = mkdtempSync(join(tmpdir(), 'acr-webhook-tls-'));
  try {
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-keyout',
        join(dir, 'key.pem'),
        '-out',
        join(dir, 'cert.pem'),
        '-days',
        '2',
        '-subj',
        '/CN=127.0.0.1',
        '-addext',
        'subjectAltName=IP:127.0.0.1',
      ],
      { stdio: 'ignore' },
    );
    return {
      key: readFileSync(join(dir, 'key.pem'), 'utf8'),
      cert: readFileSync(join(dir, 'cert.pem'), 'utf8'),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export interface Received {
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  // biome-ignore lint/suspicious/noExplicitAny: the delivery's JSON
  json: any;
}

/** Another system's HTTPS receiver: keeps what it is sent, answers what it is told, can be stopped and started. */
export class Receiver {
  readonly received: Received[] = [];
  status = 200;
  private server?: Server;
  port = 0;

  constructor(private readonly tls: { key: string; cert: string }) {}

  async start(): Promise<void> {
    const server = createServer(this.tls, (req, res) => {
      let body = '';
      req.setEncoding('utf8');
      req.on('data', (chunk: string) => {
        body += chunk;
      });
      req.on('end', () => {
        this.received.push({ path: req.url ?? '', headers: req.headers, body, json: JSON.parse(body) });
        res
          .writeHead(this.status, { 'content-type': 'text/plain' })
          .end(this.status < 300 ? 'ok' : 'down for maintenance');
      });
    });
    await new Promise<void>((resolve) => server.listen(this.port, '127.0.0.1', resolve));
    this.port = (server.address() as AddressInfo).port;
    this.server = server;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  url(path = '/hooks'): string {
    return `https://127.0.0.1:${this.port}${path}`;
  }

  at(path: string): Received[] {
    return this.received.filter((r) => r.path === path);
  }
}

/** Checks a delivery's signature as the receiving system would: HMAC-SHA256 of "t.body" under the secret. */
export function signedBy(secret: string, r: Received): boolean {
  const header = String(r.headers['x-acreditacion-firma']);
  const match = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(header);
  if (!match) return false;
  const expected = createHmac('sha256', secret).update(`${match[1]}.${r.body}`).digest('hex');
  return expected === match[2];
}
