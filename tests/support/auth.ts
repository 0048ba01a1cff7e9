import type { FastifyInstance } from 'fastify';
import { AUTH_TABLES } from '../../src/server/auth/tables.js';
import { DEMO_PASSWORD } from '../../src/server/demo/security.js';
import { call, mailboxes } from './app.js';

/** A clock the tests move by hand: sessions, codes, locks and throttles all read it. */
export function testClock(start = Date.parse('2026-11-21T12:00:00Z')) {
  let now = start;
  return {
    now: () => now,
    advance(ms: number) {
      now += ms;
    },
  };
}

export const MINUTE = 60_000;

let address = 0;
/** A fresh client address per call, so the per-address throttle only bites where a test wants it. */
export const freshAddress = () => `10.20.${Math.floor(++address / 250)}.${address % 250}`;

export function authenticate(
  app: FastifyInstance,
  username: string,
  password = DEMO_PASSWORD,
  remoteAddress = freshAddress(),
) {
  return call(app, {
    method: 'POST',
    url: '/api/usuario/authenticate',
    remoteAddress,
    payload: { username, password },
  });
}

/**
 * The latest message sent to a user (codes and temporary passwords), whole, as its recipient got
 * it; with `about`, the latest whose text matches (the daily jobs may mail an authoriser at any
 * time: an expiry notice is no temporary password).
 */
export async function lastMessage(
  app: FastifyInstance,
  userId: string,
  about?: RegExp,
): Promise<{ Cuerpo: string; Destinatario: string; Canal: string }> {
  const mail = [...(mailboxes.get(app) ?? [])]
    .reverse()
    .find((m) => m.userId === userId && (!about || about.test(m.text)));
  if (!mail) throw new Error(`no message${about ? ` about ${about}` : ''} was sent to ${userId}`);
  return { Cuerpo: mail.text, Destinatario: mail.to, Canal: mail.channel };
}

export function codeIn(text: string, digits: number): string {
  const match = new RegExp(`\\b(\\d{${digits}})\\b`).exec(text);
  if (!match) throw new Error(`no ${digits}-digit code in: ${text}`);
  return match[1];
}

/** Clears the locks and counters of a user between tests. */
export async function unlockUser(app: FastifyInstance, userId: string): Promise<void> {
  await app.database.db.deleteFrom(AUTH_TABLES.state).where('IdUsuario', '=', userId).execute();
  await app.database.db
    .updateTable('security_user')
    .set({ Bloqueado: 'N', FechaBloqueo: null })
    .where('IdUsuario', '=', userId)
    .execute();
}
