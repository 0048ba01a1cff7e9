import type { FastifyBaseLogger } from 'fastify';
import nodemailer, { type Transporter } from 'nodemailer';
import type { Db } from '../db/connection.js';

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
}

export const OUTBOX_TABLE = 'security_outbox';
/** What the outbox and the log show in place of a secret. */
export const SECRET_MASK = '••••••';

/**
 * Sends codes, temporary passwords and notices. E-mail goes through SMTP when SMTP_URL is set.
 * Every message is recorded in the outbox (which administrators read) and in the log, always with
 * its secret masked: only the recipient ever sees a code or a temporary password. Without SMTP,
 * a development server may print messages whole on its console (MAIL_CONSOLE).
 */
export class Notifier {
  private readonly transport?: Transporter;
  private readonly from: string;

  constructor(
    private readonly db: Db,
    private readonly log: FastifyBaseLogger,
    private readonly options: NotifierOptions = {},
  ) {
    this.transport = options.smtpUrl ? nodemailer.createTransport(options.smtpUrl) : undefined;
    this.from = options.from ?? 'Acreditación <acreditacion@localhost>';
  }

  /** Sends, and records in the outbox through `db` (the caller's transaction, when it has one). */
  async send(notice: Notice, db: Db = this.db): Promise<void> {
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
    let state: 'E' | 'R' | 'F' = 'R';
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
  }
}
