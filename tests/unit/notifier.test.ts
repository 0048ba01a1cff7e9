import { describe, expect, it } from 'vitest';
import { type Mail, Notifier, SECRET_MASK } from '../../src/server/auth/notifier.js';
import type { Db } from '../../src/server/db/connection.js';

/** A database that keeps what the notifier writes to its outbox. */
function outbox() {
  const rows: Array<Record<string, unknown>> = [];
  const db = {
    insertInto: () => ({
      values: (row: Record<string, unknown>) => ({
        execute: async () => {
          rows.push(row);
        },
      }),
    }),
  } as unknown as Db;
  return { db, rows };
}

const quiet = { info() {}, error() {} } as never;

describe('the notifier', () => {
  it.each([
    ['a plain password', 'Ab3#kLmN9pQr'],
    ['"$&" (the matched text, in a string replacement)', 'Ab3$&kLmN9pQ'],
    ['"$$" (a dollar, in a string replacement)', 'A$$b3kLmN9pQ'],
    ['"$\'" and "$`"', "A$'b3$`kLmN9"],
  ])('sends the secret exactly as it was made, with %s', async (_name, secret) => {
    const { db, rows } = outbox();
    const sent: Mail[] = [];
    const notifier = new Notifier(db, quiet, { deliver: (mail) => sent.push(mail) });
    await notifier.send({
      clientId: 1,
      userId: 'NUEVO',
      channel: 'C',
      to: 'nuevo@minandes.com.pe',
      subject: 'Cuenta',
      text: 'Clave temporal: {secret}\nTemporary password: {secret}',
      secret,
    });
    expect(sent[0].text).toBe(`Clave temporal: ${secret}\nTemporary password: ${secret}`);
    // The outbox never holds it.
    expect(rows[0].Cuerpo).toBe(`Clave temporal: ${SECRET_MASK}\nTemporary password: ${SECRET_MASK}`);
  });
});
