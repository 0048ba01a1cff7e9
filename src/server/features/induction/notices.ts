import type { Notifier } from '../../auth/notifier.js';
import type { Db } from '../../db/connection.js';
import type { InductionTables, Row } from './tables.js';
import { text } from './tables.js';

/** Who hears of a session's change: the requesters who made its open bookings and the booked people with an e-mail. */
async function recipients(db: Db, t: InductionTables, sessionId: number) {
  const rows = (await db
    .selectFrom(`${t.booking} as b`)
    .innerJoin(`${t.person} as p`, 'p.IdPersona', 'b.IdPersona')
    .leftJoin(`${t.user} as u`, 'u.IdUsuario', 'b.IdUsuarioReserva')
    .select(['b.IdUsuarioReserva', 'u.Correo', 'p.IdPersona', 'p.Email', 'p.Apellido', 'p.Nombre'])
    .where('b.IdSesion', '=', sessionId)
    .where('b.Estado', '=', 'R')
    .execute()) as Row[];
  const out = new Map<string, { userId: string; to: string }>();
  for (const r of rows) {
    if (r.Correo) out.set(text(r.Correo), { userId: text(r.IdUsuarioReserva), to: text(r.Correo) });
    if (r.Email) out.set(text(r.Email), { userId: `PERSONA:${r.IdPersona}`, to: text(r.Email) });
  }
  return [...out.values()];
}

/** A session's change as a message in both languages. */
export interface SessionNotice {
  clientId: number;
  sessionId: number;
  subject: string;
  text: string;
}

/** Mails a session's change to those it concerns (inside the caller's transaction: the outbox row goes with it). */
export async function tellBooked(db: Db, t: InductionTables, notifier: Notifier, notice: SessionNotice) {
  for (const { userId, to } of await recipients(db, t, notice.sessionId))
    await notifier.send(
      { clientId: notice.clientId, userId, channel: 'C', to, subject: notice.subject, text: notice.text },
      db,
    );
}
