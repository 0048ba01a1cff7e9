import type { FastifyBaseLogger } from 'fastify';
import smpp, { type PDU, type Session } from 'smpp';

/** How long connecting, binding or a submission may take before the message counts as not sent. */
export const SMS_TIMEOUT_MS = 10_000;
/** A bound session unused this long is unbound and closed; the next message binds again. */
const SMS_IDLE_MS = 60_000;

/**
 * A phone number an SMS can go to: an optional +, then 8 to 15 digits (ITU E.164's most), spaces
 * and dashes aside. Undefined for anything else.
 */
export function smsNumber(raw: unknown): string | undefined {
  if (typeof raw !== 'string') return undefined;
  const compact = raw.replace(/[\s-]/g, '');
  return /^\+?\d{8,15}$/.test(compact) ? compact : undefined;
}

/** A sender id an SMS centre accepts: up to 11 letters, digits and spaces, or a number of up to 15 digits. */
export function smsSourceValid(source: string): boolean {
  return /^\+?\d{1,15}$/.test(source) || /^[A-Za-z0-9 ]{1,11}$/.test(source);
}

/** smpp://system_id:password@host:port (ssmpp:// over TLS): undefined when it is well formed, else why not. */
export function smppUrlProblem(url: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'not a URL';
  }
  if (parsed.protocol !== 'smpp:' && parsed.protocol !== 'ssmpp:')
    return 'the scheme must be smpp: or ssmpp:';
  if (!parsed.hostname) return 'the host is missing';
  if (!parsed.username) return 'the system id (the user before @) is missing';
  return undefined;
}

export interface SmsOptions {
  /** smpp://system_id:password@host:port, or ssmpp:// for TLS (port 2775, or 3550 over TLS, by default). */
  url: string;
  /** Sender id (source_addr) shown on the phone; the SMS centre's own when absent. */
  source?: string;
  timeoutMs?: number;
}

/** A refusal or a silence of the SMS centre, in words for the outbox (never the message itself). */
export class SmsError extends Error {}
/** The connection ended before the centre answered a message. */
class ConnectionLost extends SmsError {}

function statusName(status: number): string {
  const name = Object.entries(smpp.errors).find(([, value]) => value === status)?.[0];
  return `${name ?? 'status'} (0x${status.toString(16).padStart(8, '0')})`;
}

function address(number: string): { ton: number; npi: number; addr: string } {
  if (number.startsWith('+'))
    return { ton: smpp.TON.INTERNATIONAL, npi: smpp.NPI.ISDN, addr: number.slice(1) };
  if (/^\d+$/.test(number)) return { ton: smpp.TON.UNKNOWN, npi: smpp.NPI.ISDN, addr: number };
  return { ton: smpp.TON.ALPHANUMERIC, npi: smpp.NPI.UNKNOWN, addr: number };
}

/**
 * Sends SMS through an operator's SMS centre over SMPP 3.4: binds as a transmitter on the first
 * message, keeps the session for the next ones, answers the centre's keep-alives, and binds again
 * after the centre closes it or it stayed idle. Every step is bounded by `timeoutMs`: a silent
 * centre fails the message, it never holds up the caller.
 */
export class SmsSender {
  private readonly timeoutMs: number;
  private bound?: Promise<Session>;
  /** The session connecting or bound, if any. */
  private session?: Session;
  private idle?: NodeJS.Timeout;
  private closed = false;

  constructor(
    private readonly options: SmsOptions,
    private readonly log: FastifyBaseLogger,
  ) {
    this.timeoutMs = options.timeoutMs ?? SMS_TIMEOUT_MS;
  }

  /** Submits one message; resolves with the centre's message id, or rejects with an SmsError. */
  async send(to: string, text: string): Promise<string> {
    if (this.closed) throw new SmsError('the server is shutting down');
    const reused = this.bound !== undefined;
    let session = await this.bind();
    try {
      return await this.submit(session, to, text);
    } catch (error) {
      // A kept session the centre had already closed (an idle timeout on its side): bind again, once.
      if (!reused || !(error instanceof ConnectionLost) || this.closed) throw error;
      this.forget(session);
      session.destroy();
      session = await this.bind();
      return await this.submit(session, to, text);
    } finally {
      this.keepIdle(session);
    }
  }

  /** Unbinds and closes the session (on the application's shutdown). */
  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.idle);
    const session = this.session;
    if (session) await this.end(session);
  }

  private bind(): Promise<Session> {
    this.bound ??= this.open().catch((error: unknown) => {
      this.bound = undefined;
      throw error;
    });
    return this.bound;
  }

  private open(): Promise<Session> {
    const url = new URL(this.options.url);
    const tls = url.protocol === 'ssmpp:';
    return new Promise<Session>((resolve, reject) => {
      let settled = false;
      const session = smpp.connect(
        {
          host: url.hostname,
          port: Number(url.port) || (tls ? 3550 : 2775),
          tls,
          ...(tls ? { servername: url.hostname } : {}),
        },
        () => {
          session.bind_transmitter(
            {
              system_id: decodeURIComponent(url.username),
              password: decodeURIComponent(url.password),
              interface_version: 0x34,
            },
            (pdu) => {
              if (pdu.command_status === 0) {
                settled = true;
                clearTimeout(timer);
                resolve(session);
              } else fail(new SmsError(`the SMS centre refused the bind: ${statusName(pdu.command_status)}`));
            },
          );
        },
      );
      this.session = session;
      const fail = (error: Error) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        this.forget(session);
        session.destroy();
        reject(error);
      };
      const timer = setTimeout(
        () => fail(new SmsError(`the SMS centre did not bind within ${this.timeoutMs} ms`)),
        this.timeoutMs,
      );
      session.on('error', (error: Error) => {
        if (!settled) fail(new SmsError(`the SMS centre is out of reach: ${error.message}`));
        else {
          this.log.warn({ error: error.message }, 'SMS centre connection failed');
          this.forget(session);
          session.destroy();
        }
      });
      session.on('close', () => {
        fail(new SmsError('the SMS centre closed the connection'));
        this.forget(session);
      });
      session.on('enquire_link', (pdu: PDU) => session.send(pdu.response()));
      session.on('unbind', (pdu: PDU) => {
        this.forget(session);
        session.send(pdu.response());
        session.close();
      });
    });
  }

  private submit(session: Session, to: string, text: string): Promise<string> {
    const destination = address(to);
    const source = this.options.source ? address(this.options.source) : undefined;
    const encoding = smpp.encodings.detect(text);
    const bytes = smpp.encodings[encoding].encode(text);
    // What one SMS carries (160 GSM characters, 140 octets otherwise); a longer text goes in
    // message_payload, which the centre splits.
    const single = bytes.length <= (encoding === 'ASCII' ? 160 : 140);
    return new Promise<string>((resolve, reject) => {
      const done = (error?: Error, id?: string) => {
        clearTimeout(timer);
        session.off('close', closed);
        if (error) reject(error);
        else resolve(id ?? '');
      };
      const closed = () => done(new ConnectionLost('the SMS centre closed the connection before answering'));
      const timer = setTimeout(() => {
        // Whatever the centre does with it later, the session is no longer to be trusted.
        this.forget(session);
        session.destroy();
        done(new SmsError(`the SMS centre did not answer within ${this.timeoutMs} ms`));
      }, this.timeoutMs);
      session.once('close', closed);
      const written = session.submit_sm(
        {
          source_addr_ton: source?.ton ?? smpp.TON.UNKNOWN,
          source_addr_npi: source?.npi ?? smpp.NPI.UNKNOWN,
          source_addr: source?.addr ?? '',
          dest_addr_ton: destination.ton,
          dest_addr_npi: destination.npi,
          destination_addr: destination.addr,
          registered_delivery: 0,
          data_coding: smpp.ENCODING[encoding],
          ...(single ? { short_message: bytes } : { short_message: Buffer.alloc(0), message_payload: bytes }),
        },
        (pdu) => {
          if (pdu.command_status === 0) done(undefined, String(pdu.message_id ?? ''));
          else done(new SmsError(`the SMS centre refused the message: ${statusName(pdu.command_status)}`));
        },
      );
      if (!written) done(new ConnectionLost('the connection to the SMS centre is closed'));
    });
  }

  private keepIdle(session: Session): void {
    clearTimeout(this.idle);
    if (this.session !== session || this.closed) return;
    this.idle = setTimeout(() => {
      if (this.session === session) void this.end(session);
    }, SMS_IDLE_MS);
    this.idle.unref();
  }

  /** Unbinds and closes, giving the centre a bounded moment to answer the unbind. */
  private end(session: Session): Promise<void> {
    this.forget(session);
    return new Promise<void>((resolve) => {
      if (session.socket.destroyed) return resolve();
      const timer = setTimeout(() => session.destroy(), Math.min(this.timeoutMs, 2_000));
      session.socket.once('close', () => {
        clearTimeout(timer);
        resolve();
      });
      if (!session.unbind(() => session.close())) session.destroy();
    });
  }

  private forget(session: Session): void {
    if (this.session !== session) return;
    this.session = undefined;
    this.bound = undefined;
  }
}
