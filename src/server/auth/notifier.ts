import type { FastifyBaseLogger } from 'fastify';
import nodemailer, { type Transporter } from 'nodemailer';
import type { Db } from '../db/connection.js';
import { SmsSender, smsNumber } from './sms.js';

export type Channel = 'C' | 'T';

export interface Notice {
  clientId: number | null;
  userId: string;
  channel: Channel;
  to: string;
  subject: string;
  /** The message; `{secret}` marks where the secret goes. */
  text: string;
  /** A code or a temporary password: it reaches the recipient and nothing else keeps it. */
  secret?: string;
}

/** A message as it leaves for its recipient, secret included. */
export interface Mail {
  userId: string;
  channel: Channel;
  to: string;
  subject: string;
  text: string;
}

export interface NotifierOptions {
  /** smtp://user:pass@host:port or smtps://…; without it messages are not delivered by mail. */
  smtpUrl?: string;
  from?: string;
  /** Without SMTP, print each message whole on standard output (development, demos). */
  console?: boolean;
  /** Receives every message whole as it is sent (tests read codes here). */
  deliver?: (mail: Mail) => void;
  /** smpp://system_id:password@host:port (or ssmpp://); without it messages are not delivered by SMS. */
  smppUrl?: string;
  /** The SMS sender id (source_addr); the SMS centre's own when absent. */
  smppSource?: string;
  /** How long the SMS centre may take to bind or to answer a message (10 s by default). */
  smppTimeoutMs?: number;
}

/** An outbox row's state: E sent, F failed, R recorded only (no server to deliver it through). */
export type OutboxState = 'E' | 'R' | 'F';

export const OUTBOX_TABLE = 'security_outbox';
/** What the outbox and the log show in place of a secret. */
export const SECRET_MASK = '••••••';

/**
 * Sends codes, temporary passwords and notices. E-mail goes through SMTP when SMTP_URL is set, SMS
 * (the phone channel) through an SMS centre over SMPP when SMPP_URL is set. Every message is
 * recorded in the outbox (which administrators read) and in the log, always with its secret
 * masked: only the recipient ever sees a code or a temporary password. Without a server for its
 * channel, a development server may print a message whole on its console (MAIL_CONSOLE).
 */
export class Notifier {
  private readonly transport?: Transporter;
  private readonly sms?: SmsSender;
  private readonly from: string;

  constructor(
    private readonly db: Db,
    private readonly log: FastifyBaseLogger,
    private readonly options: NotifierOptions = {},
  ) {
    this.transport = options.smtpUrl ? nodemailer.createTransport(options.smtpUrl) : undefined;
    this.sms = options.smppUrl
      ? new SmsSender(
          { url: options.smppUrl, source: options.smppSource, timeoutMs: options.smppTimeoutMs },
          log,
        )
      : undefined;
    this.from = options.from ?? 'Acreditación <acreditacion@localhost>';
  }

  /** Whether the phone channel delivers (an SMS centre is configured). */
  get sendsSms(): boolean {
    return this.sms !== undefined;
  }

  /** Closes the SMS centre's session, if one is open (on the application's shutdown). */
  async close(): Promise<void> {
    await this.sms?.close();
  }

  /**
   * Sends, and records in the outbox through `db` (the caller's transaction, when it has one).
   * Resolves with the outbox state: E sent, F failed (the error recorded), R no server to send through.
   */
  async send(notice: Notice, db: Db = this.db): Promise<OutboxState> {
    // A function, not a string: "$&" or "$$" in a password are no replacement patterns.
    const whole = notice.text.replaceAll('{secret}', () => notice.secret ?? '');
    const masked = notice.text.replaceAll('{secret}', () => (notice.secret === undefined ? '' : SECRET_MASK));
    const mail: Mail = {
      userId: notice.userId,
      channel: notice.channel,
      to: notice.to,
      subject: notice.subject,
      text: whole,
    };
    this.options.deliver?.(mail);
    let state: OutboxState = 'R';
    let error: string | null = null;
    if (notice.channel === 'C' && this.transport) {
      try {
        await this.transport.sendMail({
          from: this.from,
          to: notice.to,
          subject: notice.subject,
          text: whole,
        });
        state = 'E';
      } catch (e) {
        state = 'F';
        error = String((e as Error).message).slice(0, 500);
        this.log.error({ to: notice.to, error }, 'mail not sent');
      }
    } else if (notice.channel === 'T' && this.sms) {
      const number = smsNumber(notice.to);
      try {
        if (!number) throw new Error('the phone number is malformed (an optional + and 8 to 15 digits)');
        const id = await this.sms.send(number, whole);
        state = 'E';
        this.log.info({ to: number, id }, 'SMS sent');
      } catch (e) {
        state = 'F';
        error = String((e as Error).message).slice(0, 500);
        this.log.error({ to: notice.to, error }, 'SMS not sent');
      }
    } else if (notice.channel === 'T') {
      this.log.info(
        { channel: notice.channel, to: notice.to, subject: notice.subject },
        'message not delivered: no SMS centre',
      );
      if (this.options.console)
        process.stdout.write(`\n=== ${notice.subject} → ${notice.to}\n${whole}\n===\n`);
    } else {
      this.log.info(
        { channel: notice.channel, to: notice.to, subject: notice.subject },
        'message not delivered: no mail server',
      );
      if (this.options.console)
        process.stdout.write(`\n=== ${notice.subject} → ${notice.to}\n${whole}\n===\n`);
    }
    const now = new Date().toISOString();
    await db
      .insertInto(OUTBOX_TABLE)
      .values({
        IdCliente: notice.clientId,
        IdUsuario: notice.userId,
        Canal: notice.channel,
        Destinatario: notice.to,
        Asunto: notice.subject,
        Cuerpo: masked,
        Estado: state,
        Error: error,
        FechaEnvio: now,
        IdUsuarioCreacion: 'SISTEMA',
        FechaCreacion: now,
      })
      .execute();
    return state;
  }
}
