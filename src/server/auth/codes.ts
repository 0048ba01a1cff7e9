import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from '../db/connection.js';
import { AUTH_TABLES } from './tables.js';

/** Spec section 5: four digits at sign-in, six for password recovery. */
export const CODE_DIGITS = { login: 4, recovery: 6 } as const;
export type CodePurpose = keyof typeof CODE_DIGITS;
export const CODE_MINUTES = 10;
/** Wrong tries one code allows before it is spent. */
export const CODE_ATTEMPTS = 3;

export type CodeCheck = 'ok' | 'invalid' | 'expired' | 'exhausted' | 'missing';

interface CodeRow {
  Id: number;
  Hash: string;
  ExpiraEn: number;
  Intentos: number;
}

/** One-time codes: random digits, kept as keyed hashes, single use, short-lived, few tries. */
export class Codes {
  constructor(
    private readonly db: Db,
    private readonly key: Uint8Array,
    private readonly now: () => number = Date.now,
  ) {}

  private hash(userId: string, purpose: CodePurpose, code: string): string {
    return createHmac('sha256', this.key)
      .update(`${userId}\u0000${purpose}\u0000${code}`)
      .digest('base64url');
  }

  /** A new code; any earlier unused code of the same purpose stops working. */
  async issue(userId: string, purpose: CodePurpose): Promise<string> {
    const digits = CODE_DIGITS[purpose];
    const code = String(randomInt(0, 10 ** digits)).padStart(digits, '0');
    const now = this.now();
    await this.db
      .updateTable(AUTH_TABLES.code)
      .set({ UsadoEn: now })
      .where('IdUsuario', '=', userId)
      .where('Proposito', '=', purpose)
      .where('UsadoEn', 'is', null)
      .execute();
    await this.db
      .insertInto(AUTH_TABLES.code)
      .values({
        IdUsuario: userId,
        Proposito: purpose,
        Hash: this.hash(userId, purpose, code),
        ExpiraEn: now + CODE_MINUTES * 60_000,
        Intentos: 0,
        CreadoEn: now,
      })
      .execute();
    return code;
  }

  /** Whether there is a code of this purpose still usable (for resending). */
  async pending(userId: string, purpose: CodePurpose): Promise<boolean> {
    return (await this.latest(userId, purpose)) !== undefined;
  }

  private async latest(userId: string, purpose: CodePurpose): Promise<CodeRow | undefined> {
    return (await this.db
      .selectFrom(AUTH_TABLES.code)
      .select(['Id', 'Hash', 'ExpiraEn', 'Intentos'])
      .where('IdUsuario', '=', userId)
      .where('Proposito', '=', purpose)
      .where('UsadoEn', 'is', null)
      .orderBy('Id', 'desc')
      .limit(1)
      .executeTakeFirst()) as CodeRow | undefined;
  }

  /** Checks a code; with `consume`, a right code is spent. */
  async check(
    userId: string,
    purpose: CodePurpose,
    code: string,
    { consume = true } = {},
  ): Promise<CodeCheck> {
    const row = await this.latest(userId, purpose);
    if (!row) return 'missing';
    if (row.ExpiraEn <= this.now()) return 'expired';
    if (row.Intentos >= CODE_ATTEMPTS) return 'exhausted';
    const expected = Buffer.from(row.Hash);
    const given = Buffer.from(this.hash(userId, purpose, String(code)));
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) {
      // One statement counts the try and spends the code at the limit: wrong tries sent together
      // each get their own number, never more than the code allows.
      const counted = (await this.db
        .updateTable(AUTH_TABLES.code)
        .set({
          Intentos: sql`${sql.ref('Intentos')} + 1`,
          UsadoEn: sql`case when ${sql.ref('Intentos')} + 1 >= ${CODE_ATTEMPTS} then ${this.now()} else ${sql.ref('UsadoEn')} end`,
        })
        .where('Id', '=', row.Id)
        .where('UsadoEn', 'is', null)
        .returning('Intentos')
        .executeTakeFirst()) as { Intentos: number } | undefined;
      return counted && Number(counted.Intentos) < CODE_ATTEMPTS ? 'invalid' : 'exhausted';
    }
    if (!consume) return 'ok';
    // A right code is spent once: of two uses sent together, only the first is accepted.
    const spent = await this.db
      .updateTable(AUTH_TABLES.code)
      .set({ UsadoEn: this.now() })
      .where('Id', '=', row.Id)
      .where('UsadoEn', 'is', null)
      .executeTakeFirst();
    return Number(spent.numUpdatedRows) === 1 ? 'ok' : 'missing';
  }
}
