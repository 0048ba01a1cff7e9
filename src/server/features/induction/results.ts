import { verifyToken } from '../../../shared/badge-token.js';
import { siteDate } from '../../../shared/dates.js';
import { passes, validUntil } from '../../../shared/induction.js';
import { writeAudit } from '../../crud/audit.js';
import type { Db } from '../../db/connection.js';
import { ApiError } from '../../errors.js';
import type { Registry } from '../../registry.js';
import { signingKeys } from '../../services/site/signing-keys.js';
import { bookingOf, requireScheduled, type SessionRow, sessionOf } from './bookings.js';
import type { InductionOffice } from './office.js';
import { type InductionTables, type Row, text } from './tables.js';

const refusal = (messageKey: string, params: Record<string, string | number> = {}) =>
  new ApiError('BUSINESS_RULE', { messageKey: `induction.refusals.${messageKey}`, params });

/** One booking's attendance and score as the trainer enters them. */
export interface Result {
  IdInscripcion: number;
  Asistio: 'S' | 'N';
  Nota?: number | null;
}

/** The trainer's office: a requester never marks nor scores. */
function requireTrainer(office: InductionOffice): void {
  if (office.companyId !== undefined) throw new ApiError('FORBIDDEN');
}

/**
 * Who a scanned or typed code names: a badge's signed token (its holder), else a credential
 * number of the client, else a person's document.
 */
async function personOfCode(db: Db, t: InductionTables, office: InductionOffice, code: string) {
  const trimmed = code.trim();
  if (trimmed.startsWith('AC1.')) {
    const checked = await verifyToken(trimmed, await (await signingKeys(db)).verifier);
    if (!checked.ok) throw refusal('badgeNotGenuine');
    if (checked.claims.IdCliente !== office.clientId || !checked.claims.Titular.startsWith('P:'))
      throw refusal('badgeNotGenuine');
    return Number(checked.claims.Titular.slice(2));
  }
  const card = (await db
    .selectFrom(t.credential)
    .select('IdPersona')
    .where('IdCliente', '=', office.clientId)
    .where('Numero', '=', trimmed)
    .where('IdPersona', 'is not', null)
    .executeTakeFirst()) as Row | undefined;
  if (card) return Number(card.IdPersona);
  const person = (await db
    .selectFrom(t.person)
    .select('IdPersona')
    .where('IdCliente', '=', office.clientId)
    .where('Documento', '=', trimmed.toUpperCase())
    .executeTakeFirst()) as Row | undefined;
  if (!person) throw refusal('codeUnknown', { code: trimmed.slice(0, 40) });
  return Number(person.IdPersona);
}

/** Marks a booked person present, found by a badge's QR, a card number or a document. */
export async function markPresent(
  db: Db,
  t: InductionTables,
  office: InductionOffice,
  sessionId: number,
  code: string,
) {
  requireTrainer(office);
  const session = await sessionOf(db, t, office, sessionId);
  requireScheduled(session);
  const personId = await personOfCode(db, t, office, code);
  const booking = (await db
    .selectFrom(`${t.booking} as b`)
    .innerJoin(`${t.person} as p`, 'p.IdPersona', 'b.IdPersona')
    .select(['b.IdInscripcion', 'p.Apellido', 'p.Nombre'])
    .where('b.IdSesion', '=', sessionId)
    .where('b.IdPersona', '=', personId)
    .where('b.Estado', '=', 'R')
    .executeTakeFirst()) as Row | undefined;
  if (!booking) throw refusal('notBooked');
  await db
    .updateTable(t.booking)
    .set({ Asistio: 'S' })
    .where('IdInscripcion', '=', Number(booking.IdInscripcion))
    .execute();
  return {
    IdInscripcion: Number(booking.IdInscripcion),
    IdPersona: personId,
    Persona: `${text(booking.Apellido)} ${text(booking.Nombre)}`,
    Asistio: 'S',
  };
}

/** Saves attendance and scores of a scheduled session's open bookings, in one transaction. */
export async function saveResults(
  db: Db,
  t: InductionTables,
  office: InductionOffice,
  sessionId: number,
  results: Result[],
) {
  requireTrainer(office);
  return db.transaction().execute(async (trx) => {
    const session = await sessionOf(trx, t, office, sessionId);
    requireScheduled(session);
    for (const r of results) {
      const changed = await trx
        .updateTable(t.booking)
        .set({ Asistio: r.Asistio, Nota: r.Asistio === 'S' ? (r.Nota ?? null) : null })
        .where('IdInscripcion', '=', r.IdInscripcion)
        .where('IdSesion', '=', sessionId)
        .where('Estado', '=', 'R')
        .executeTakeFirst();
      if (!Number(changed.numUpdatedRows))
        throw new ApiError('NOT_FOUND', { params: { resource: 'training-booking', id: r.IdInscripcion } });
    }
    return { IdSesion: sessionId, guardados: results.length };
  });
}

/** A passed induction's record row for a booking. */
function recordOf(session: SessionRow, booking: Row, office: InductionOffice, on: string) {
  return {
    IdCliente: office.clientId,
    IdDivision: session.IdDivision,
    IdPersona: Number(booking.IdPersona),
    IdCompania: Number(booking.IdCompania),
    IdCurso: session.IdCurso,
    IdSesion: session.IdSesion,
    IdInscripcion: Number(booking.IdInscripcion),
    Fecha: on,
    Nota: Number(booking.Nota),
    VenceEl: validUntil(on, session.VigenciaMeses),
    Modalidad: session.Modalidad,
    IdInstructor: session.IdInstructor,
    Estado: 'V',
  };
}

/**
 * Closes a session on or after its day: every open booking is settled (attended with the passing
 * score: passed, and the person's induction recorded valid for the course's months; attended
 * otherwise: failed, free to book again; else absent), all in one transaction.
 */
export async function closeSession(
  db: Db,
  t: InductionTables,
  office: InductionOffice,
  sessionId: number,
  now: number,
  country: string | null,
) {
  requireTrainer(office);
  return db.transaction().execute(async (trx) => {
    const session = await sessionOf(trx, t, office, sessionId);
    requireScheduled(session);
    if (session.Fecha > siteDate(country, now)) throw refusal('sessionNotHeld');
    // Claimed first: a booking or a test racing the closing waits on the session's row, then finds it closed.
    const claimed = await trx
      .updateTable(t.session)
      .set({ Estado: 'C' })
      .where('IdSesion', '=', sessionId)
      .where('Estado', '=', 'P')
      .executeTakeFirst();
    if (!Number(claimed.numUpdatedRows)) throw refusal('sessionClosed');
    const open = (await trx
      .selectFrom(t.booking)
      .selectAll()
      .where('IdSesion', '=', sessionId)
      .where('Estado', '=', 'R')
      .execute()) as Row[];
    const state = (b: Row) =>
      passes(b.Asistio === 'S', b.Nota as number | null, session.NotaMinima)
        ? 'A'
        : b.Asistio === 'S'
          ? 'D'
          : 'N';
    for (const s of ['A', 'D', 'N']) {
      const ids = open.filter((b) => state(b) === s).map((b) => Number(b.IdInscripcion));
      for (let i = 0; i < ids.length; i += 500)
        await trx
          .updateTable(t.booking)
          .set({ Estado: s })
          .where('IdInscripcion', 'in', ids.slice(i, i + 500))
          .where('Estado', '=', 'R')
          .execute();
    }
    const records = open
      .filter((b) => state(b) === 'A')
      .map((b) => recordOf(session, b, office, session.Fecha));
    for (let i = 0; i < records.length; i += 100)
      await trx
        .insertInto(t.record)
        .values(records.slice(i, i + 100))
        .onConflict((oc) => oc.columns(['IdPersona', 'IdCurso', 'Fecha']).doNothing())
        .execute();
    const count = (s: string) => open.filter((b) => state(b) === s).length;
    return { IdSesion: sessionId, aprobados: count('A'), desaprobados: count('D'), ausentes: count('N') };
  });
}

/** What an administrator's change of a closed result did to the person's induction. */
export interface Amended {
  booking: Row;
  /** The record the change revoked (now failing), for the requirements it filled. */
  revoked?: number;
  /** The record it created (now passing). */
  created?: boolean;
}

/**
 * An administrator's change of a closed session's result, with the reason, audited: a pass
 * becoming a fail revokes the induction (its record, R, with the reason); a fail becoming a pass
 * records it. `onRevoked` runs in the same transaction (the requirements it filled expire).
 */
export async function amendResult(
  db: Db,
  registry: Registry,
  t: InductionTables,
  office: InductionOffice,
  input: { id: number; Asistio: 'S' | 'N'; Nota: number | null; Motivo: string },
  onRevoked: (trx: Db, recordId: number, on: string) => Promise<void>,
  today: string,
): Promise<Amended> {
  if (!office.administrator) throw refusal('onlyAdministrator');
  return db.transaction().execute(async (trx) => {
    const before = await bookingOf(trx, t, office, input.id);
    const session = await sessionOf(trx, t, office, Number(before.IdSesion));
    if (session.Estado !== 'C') throw refusal('sessionNotClosed');
    if (before.Estado === 'X') throw refusal('bookingNotOpen');
    const passed = passes(input.Asistio === 'S', input.Nota, session.NotaMinima);
    const Estado = passed ? 'A' : input.Asistio === 'S' ? 'D' : 'N';
    const change = { Asistio: input.Asistio, Nota: input.Nota, Estado, Observacion: input.Motivo };
    await trx.updateTable(t.booking).set(change).where('IdInscripcion', '=', input.id).execute();
    const after = { ...before, ...change };
    await writeAudit(
      trx,
      registry,
      registry.require('training-booking'),
      'U',
      office.principal,
      input.id,
      before,
      after,
      true,
    );
    const record = (await trx
      .selectFrom(t.record)
      .select(['IdRegistro', 'Estado'])
      .where('IdInscripcion', '=', input.id)
      .executeTakeFirst()) as Row | undefined;
    if (!passed && record?.Estado === 'V') {
      const id = Number(record.IdRegistro);
      await trx
        .updateTable(t.record)
        .set({ Estado: 'R', Motivo: input.Motivo })
        .where('IdRegistro', '=', id)
        .execute();
      await onRevoked(trx, id, today);
      return { booking: after, revoked: id };
    }
    if (!passed) return { booking: after };
    // The day's record of the course: this booking's, or one the person already has for that day.
    const made = recordOf(session, after, office, session.Fecha);
    await trx
      .insertInto(t.record)
      .values({ ...made, Motivo: input.Motivo })
      .onConflict((oc) =>
        oc.columns(['IdPersona', 'IdCurso', 'Fecha']).doUpdateSet({
          Estado: 'V',
          Nota: made.Nota,
          VenceEl: made.VenceEl,
          IdSesion: made.IdSesion,
          IdInscripcion: made.IdInscripcion,
          Motivo: input.Motivo,
        }),
      )
      .execute();
    return { booking: after, created: !record };
  });
}
