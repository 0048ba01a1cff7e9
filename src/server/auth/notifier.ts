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
  text: string;
}

export interface NotifierOptions {
  /** smtp://user:pass@host:port or smtps://…; without it messages stay in the outbox. */
  smtpUrl?: string;
  from?: string;
}

export const OUTBOX_TABLE = 'security_outbox';

/**
 * Sends codes and temporary passwords. E-mail goes through SMTP when SMTP_URL is set; the phone
 * channel, and e-mail without a server, keep the message in the outbox (which administrators read
 * in the console) and in the server log. Every message is recorded in the outbox either way.
 */
export class Notifier {
  private readonly transport?: Transporter;
  private readonly from: string;

  constructor(
    private readonly db: Db,
    private readonly log: FastifyBaseLogger,
    options: NotifierOptions = {},
  ) {
    this.transport = options.smtpUrl ? nodemailer.createTransport(options.smtpUrl) : undefined;
    this.from = options.from ?? 'Acreditación <acreditacion@localhost>';
  }

  /** Sends, and records in the outbox through `db` (the caller's transaction, when it has one). */
  async send(notice: Notice, db: Db = this.db): Promise<void> {
    let state: 'E' | 'R' | 'F' = 'R';
    let error: string | null = null;
    if (notice.channel === 'C' && this.transport) {
      try {
        await this.transport.sendMail({
          from: this.from,
          to: notice.to,
          subject: notice.subject,
          text: notice.text,
        });
        state = 'E';
      } catch (e) {
        state = 'F';
        error = String((e as Error).message).slice(0, 500);
        this.log.error({ to: notice.to, err: e }, 'mail not sent');
      }
    } else {
      this.log.info(
        { channel: notice.channel, to: notice.to, subject: notice.subject, text: notice.text },
        'message kept in the outbox',
      );
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
        Cuerpo: notice.text,
        Estado: state,
        Error: error,
        FechaEnvio: now,
        IdUsuarioCreacion: 'SISTEMA',
        FechaCreacion: now,
      })
      .execute();
  }
}
