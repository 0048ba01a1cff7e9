import { createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import type { Db } from '../db/connection.js';
import { Sealer } from '../services/sealer.js';
import { AUTH_TABLES } from './tables.js';

/** RFC 6238 as authenticator apps expect it: SHA-1, six digits, thirty seconds. */
export const TOTP_PERIOD = 30;
export const TOTP_DIGITS = 6;
/** A code of the step before or after the server's is accepted too (clocks drift). */
export const TOTP_WINDOW = 1;
export const TOTP_ISSUER = 'Acredita';
export const RECOVERY_CODES = 10;
/** Minutes a sign-in may take to give the app's code after its password, or to enrol. */
export const TOTP_STEP_MINUTES = 10;

const RECOVERY_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

export type TotpCheck = 'ok' | 'invalid' | 'replayed' | 'spent';

interface TotpRow {
  IdUsuario: string;
  Secreto: string | null;
  ActivadoEn: number | null;
  UltimoPaso: number | null;
  Pendiente: string | null;
  PasoHasta: number | null;
  Ticket: string | null;
  TicketHasta: number | null;
}

/** A recovery code as typed: upper-cased, without spaces or dashes. */
const normalRecovery = (code: string) => code.toUpperCase().replace(/[^A-Z0-9]/g, '');

/**
 * The second factor by authenticator app: a TOTP secret per user, kept encrypted with a key
 * derived from the server's secret (AES-256-GCM) and never handed out after its enrolment; the
 * last time step whose code was accepted, so no code works twice; ten recovery codes kept as keyed
 * hashes, each usable once; and the short windows in which a sign-in may give its code or enrol.
 */
export class Authenticator {
  private readonly sealer: Sealer;
  private readonly hashKey: Buffer;

  constructor(
    private readonly db: Db,
    secret: Uint8Array,
    private readonly now: () => number = Date.now,
  ) {
    this.sealer = new Sealer(secret);
    this.hashKey = createHmac('sha256', secret).update('totp:hash').digest();
  }

  private encrypt(userId: string, plain: string): string {
    return this.sealer.seal('totp', userId, plain);
  }

  private decrypt(userId: string, sealed: string): string | undefined {
    return this.sealer.open('totp', userId, sealed);
  }

  private hash(userId: string, kind: string, value: string): string {
    return createHmac('sha256', this.hashKey)
      .update(`${userId}\u0000${kind}\u0000${value}`)
      .digest('base64url');
  }

  private totp(userId: string, base32: string): TOTP {
    return new TOTP({
      issuer: TOTP_ISSUER,
      label: userId,
      algorithm: 'SHA1',
      digits: TOTP_DIGITS,
      period: TOTP_PERIOD,
      secret: Secret.fromBase32(base32),
    });
  }

  private async row(userId: string, db: Db = this.db): Promise<TotpRow | undefined> {
    return (await db
      .selectFrom(AUTH_TABLES.totp)
      .selectAll()
      .where('IdUsuario', '=', userId)
      .executeTakeFirst()) as TotpRow | undefined;
  }

  private async save(userId: string, values: Partial<Omit<TotpRow, 'IdUsuario'>>, db: Db = this.db) {
    await db
      .insertInto(AUTH_TABLES.totp)
      .values({ IdUsuario: userId, ...values })
      .onConflict((oc) => oc.column('IdUsuario').doUpdateSet(values))
      .execute();
  }

  async enrolled(userId: string): Promise<boolean> {
    const row = await this.row(userId);
    return Boolean(row?.Secreto && row.ActivadoEn !== null);
  }

  /** Whether the user is enrolled, and how many recovery codes are left. */
  async status(userId: string): Promise<{ activo: boolean; codigosRestantes: number }> {
    const activo = await this.enrolled(userId);
    if (!activo) return { activo, codigosRestantes: 0 };
    const left = (await this.db
      .selectFrom(AUTH_TABLES.totpRecovery)
      .select((eb) => eb.fn.countAll().as('n'))
      .where('IdUsuario', '=', userId)
      .where('UsadoEn', 'is', null)
      .executeTakeFirst()) as { n: number | string | bigint } | undefined;
    return { activo, codigosRestantes: Number(left?.n ?? 0) };
  }

  /** A new secret offered for enrolment (replacing any offered earlier): its URI and its text. */
  async offer(userId: string): Promise<{ secreto: string; uri: string }> {
    const secret = new Secret({ size: 20 }).base32;
    await this.save(userId, { Pendiente: this.encrypt(userId, secret) });
    return { secreto: secret, uri: this.totp(userId, secret).toString() };
  }

  /** The time step a code of this secret belongs to, within the window; undefined when wrong. */
  private step(userId: string, base32: string, code: string): number | undefined {
    if (!new RegExp(`^\\d{${TOTP_DIGITS}}$`).test(code)) return undefined;
    const now = this.now();
    const delta = this.totp(userId, base32).validate({ token: code, timestamp: now, window: TOTP_WINDOW });
    if (delta === null) return undefined;
    return Math.floor(now / 1000 / TOTP_PERIOD) + delta;
  }

  /**
   * Confirms the offered secret with one of its codes: the user is enrolled, and gets ten new
   * recovery codes (shown once; only their hashes are kept). Undefined when nothing was offered
   * or the code is wrong; then nothing changes.
   */
  async confirm(userId: string, code: string): Promise<string[] | 'none' | 'invalid'> {
    const row = await this.row(userId);
    const pending = row?.Pendiente ? this.decrypt(userId, row.Pendiente) : undefined;
    if (!row || !pending) return 'none';
    const step = this.step(userId, pending, code);
    if (step === undefined) return 'invalid';
    const codes = Array.from({ length: RECOVERY_CODES }, () => {
      const raw = Array.from({ length: 10 }, () => RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)]);
      return `${raw.slice(0, 5).join('')}-${raw.slice(5).join('')}`;
    });
    await this.db.transaction().execute(async (trx) => {
      await this.save(
        userId,
        { Secreto: row.Pendiente, Pendiente: null, ActivadoEn: this.now(), UltimoPaso: step },
        trx,
      );
      await trx.deleteFrom(AUTH_TABLES.totpRecovery).where('IdUsuario', '=', userId).execute();
      await trx
        .insertInto(AUTH_TABLES.totpRecovery)
        .values(
          codes.map((c) => ({ IdUsuario: userId, Hash: this.hash(userId, 'recovery', normalRecovery(c)) })),
        )
        .execute();
    });
    return codes;
  }

  /** Turns the second factor off: the secret and the recovery codes are gone. */
  async remove(userId: string): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom(AUTH_TABLES.totpRecovery).where('IdUsuario', '=', userId).execute();
      await trx.deleteFrom(AUTH_TABLES.totp).where('IdUsuario', '=', userId).execute();
    });
  }

  /**
   * Checks a code of the app (its step not used before: it is remembered) or, unless `appOnly`,
   * one of the recovery codes (spent by its use).
   */
  async verify(userId: string, code: string, { appOnly = false } = {}): Promise<TotpCheck> {
    const row = await this.row(userId);
    const secret = row?.Secreto && row.ActivadoEn !== null ? this.decrypt(userId, row.Secreto) : undefined;
    if (!secret) return 'invalid';
    const given = code.trim();
    if (/^\d+$/.test(given)) {
      const step = this.step(userId, secret, given);
      if (step === undefined) return 'invalid';
      // Only the first use of a step (or of a later one) moves the mark: a code works once.
      const moved = await this.db
        .updateTable(AUTH_TABLES.totp)
        .set({ UltimoPaso: step })
        .where('IdUsuario', '=', userId)
        .where((eb) => eb.or([eb('UltimoPaso', 'is', null), eb('UltimoPaso', '<', step)]))
        .executeTakeFirst();
      return Number(moved.numUpdatedRows) === 1 ? 'ok' : 'replayed';
    }
    if (appOnly) return 'invalid';
    const recovery = normalRecovery(given);
    if (recovery.length !== 10) return 'invalid';
    const hash = this.hash(userId, 'recovery', recovery);
    const found = (await this.db
      .selectFrom(AUTH_TABLES.totpRecovery)
      .select(['Id', 'Hash', 'UsadoEn'])
      .where('IdUsuario', '=', userId)
      .where('Hash', '=', hash)
      .executeTakeFirst()) as { Id: number; Hash: string; UsadoEn: number | null } | undefined;
    if (!found || !timingSafeEqual(Buffer.from(found.Hash), Buffer.from(hash))) return 'invalid';
    if (found.UsadoEn !== null) return 'spent';
    const spent = await this.db
      .updateTable(AUTH_TABLES.totpRecovery)
      .set({ UsadoEn: this.now() })
      .where('Id', '=', found.Id)
      .where('UsadoEn', 'is', null)
      .executeTakeFirst();
    return Number(spent.numUpdatedRows) === 1 ? 'ok' : 'spent';
  }

  /** The password was proven: the app's code may be given for the next minutes. */
  async awaitCode(userId: string): Promise<void> {
    await this.save(userId, { PasoHasta: this.now() + TOTP_STEP_MINUTES * 60_000 });
  }

  /** Whether a sign-in of this user is waiting for the app's code. */
  async awaitingCode(userId: string): Promise<boolean> {
    const row = await this.row(userId);
    return Boolean(
      row?.Secreto && row.ActivadoEn !== null && row.PasoHasta !== null && row.PasoHasta > this.now(),
    );
  }

  async codeGiven(userId: string): Promise<void> {
    await this.db
      .updateTable(AUTH_TABLES.totp)
      .set({ PasoHasta: null })
      .where('IdUsuario', '=', userId)
      .execute();
  }

  /** A ticket for the enrolment a sign-in owes (its setting requires the app): single use, short-lived. */
  async enrolmentTicket(userId: string): Promise<string> {
    const ticket = randomBytes(24).toString('base64url');
    await this.save(userId, {
      Ticket: this.hash(userId, 'ticket', ticket),
      TicketHasta: this.now() + TOTP_STEP_MINUTES * 60_000,
    });
    return ticket;
  }

  async ticketValid(userId: string, ticket: string): Promise<boolean> {
    if (!ticket) return false;
    const row = await this.row(userId);
    if (!row?.Ticket || row.TicketHasta === null || row.TicketHasta <= this.now()) return false;
    const expected = Buffer.from(row.Ticket);
    const given = Buffer.from(this.hash(userId, 'ticket', ticket));
    return expected.length === given.length && timingSafeEqual(expected, given);
  }

  async spendTicket(userId: string): Promise<void> {
    await this.db
      .updateTable(AUTH_TABLES.totp)
      .set({ Ticket: null, TicketHasta: null })
      .where('IdUsuario', '=', userId)
      .execute();
  }
}
