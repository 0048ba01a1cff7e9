import { createHmac, randomInt } from 'node:crypto';
import { type Challenge, createChallenge, type Payload, verifySolution } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import type { Db } from '../db/connection.js';
import { AUTH_TABLES } from './tables.js';
import { allow } from './throttle.js';

/**
 * The sign-in calls carry the answer to a proof-of-work challenge (tokenClient): the browser
 * derives keys (PBKDF2) until it finds the one the server chose, which costs a person a moment
 * while typing and a script that moment on every try. Self-hosted (ALTCHA's protocol, the
 * `altcha` widget and `altcha-lib`): no third party sees who signs in.
 */
export interface ClientTokenVerifier {
  /** Issues a challenge whose cost follows the recent failures of the address and the user name. */
  issue(who: Who): Promise<Challenge>;
  /** Whether `token` answers a genuine, unexpired, unspent challenge hard enough for `who`; spends it. */
  verify(token: string | undefined, who: Who): Promise<boolean>;
  /** Counts a failed sign-in (wrong password, unknown user, bad code, bad answer) against `who`. */
  failed(who: Who): Promise<void>;
}

export interface Who {
  address: string;
  username?: string;
}

export interface ChallengePolicy {
  /** PBKDF2 iterations of one try. */
  cost: number;
  /** The tries a person's browser makes at most with no failures behind it (on average about three quarters). */
  tries: number;
  /** Failures (in `failureWindowMs`) after which every further one doubles the tries, up to `maxDoublings`. */
  freeFailures: number;
  maxDoublings: number;
  failureWindowMs: number;
  /** How long a challenge may be answered. */
  lifetimeMs: number;
}

export const DEFAULT_CHALLENGE: ChallengePolicy = {
  cost: 1_000,
  tries: 1_500,
  freeFailures: 2,
  maxDoublings: 6,
  failureWindowMs: 15 * 60_000,
  lifetimeMs: 10 * 60_000,
};

export const CHALLENGE_ALGORITHM = 'PBKDF2/SHA-256';

/** With the challenge off (SIGN_IN_CHALLENGE=off: a closed network, scripts that call the API) every answer passes. */
export const noChallenge: ClientTokenVerifier = {
  issue: async () => {
    throw new Error('the sign-in challenge is off');
  },
  verify: async () => true,
  failed: async () => {},
};

const failureKeys = (who: Who) => [
  `fail:ip:${who.address}`,
  ...(who.username ? [`fail:user:${who.username.toUpperCase()}`] : []),
];

function decode(token: string): Payload | undefined {
  try {
    const payload = JSON.parse(Buffer.from(token, 'base64').toString('utf8')) as Payload;
    if (!payload?.challenge?.parameters || !payload.solution) return undefined;
    return payload;
  } catch {
    return undefined;
  }
}

/**
 * Challenges signed with keys derived from the server's secret (every server process shares it),
 * each answerable once (the spent ones are kept in the database until they expire) and before its
 * expiry, at a difficulty no lower than what the address and user name have earned by failing.
 */
export class Challenges implements ClientTokenVerifier {
  private readonly signatureSecret: string;
  private readonly keySecret: string;

  constructor(
    private readonly db: Db,
    secret: Uint8Array,
    private readonly policy: ChallengePolicy = DEFAULT_CHALLENGE,
    private readonly now: () => number = Date.now,
  ) {
    const derive = (label: string) => createHmac('sha256', secret).update(label).digest('hex');
    this.signatureSecret = derive('sign-in challenge');
    this.keySecret = derive('sign-in challenge key');
  }

  async issue(who: Who): Promise<Challenge> {
    const level = await this.level(who);
    const most = this.policy.tries * 2 ** level;
    return createChallenge({
      algorithm: CHALLENGE_ALGORITHM,
      cost: this.policy.cost,
      deriveKey,
      // The answer is one counter among `most`: a browser finds it after `counter` tries.
      counter: randomInt(Math.floor(most / 2), most + 1),
      // Expiry and level in the signed data: checked against the server's clock, not the library's.
      data: { exp: Math.floor((this.now() + this.policy.lifetimeMs) / 1000), lvl: level },
      hmacSignatureSecret: this.signatureSecret,
      hmacKeySignatureSecret: this.keySecret,
    });
  }

  async verify(token: string | undefined, who: Who): Promise<boolean> {
    if (!token || token.length > 4096) return false;
    const payload = decode(token);
    if (!payload) return false;
    const { challenge, solution } = payload;
    const { exp, lvl } = challenge.parameters.data ?? {};
    if (typeof exp !== 'number' || typeof lvl !== 'number' || exp * 1000 <= this.now()) return false;
    if (
      challenge.parameters.algorithm !== CHALLENGE_ALGORITHM ||
      challenge.parameters.cost !== this.policy.cost
    )
      return false;
    let verified = false;
    try {
      ({ verified } = await verifySolution({
        challenge,
        solution,
        deriveKey,
        hmacSignatureSecret: this.signatureSecret,
        hmacKeySignatureSecret: this.keySecret,
      }));
    } catch {
      return false;
    }
    // Easier than what this address or name has earned since it was issued: not enough.
    if (!verified || lvl < (await this.level(who))) return false;
    return this.spend(String(challenge.signature), exp * 1000);
  }

  async failed(who: Who): Promise<void> {
    for (const key of failureKeys(who))
      await allow(this.db, key, Number.MAX_SAFE_INTEGER, this.policy.failureWindowMs, this.now());
  }

  /** Doublings earned: failures of the address or the user name in the window, past the free ones. */
  private async level(who: Who): Promise<number> {
    const rows = (await this.db
      .selectFrom(AUTH_TABLES.throttle)
      .select('Cuenta')
      .where('Clave', 'in', failureKeys(who))
      .where('Ventana', '>', this.now() - this.policy.failureWindowMs)
      .execute()) as { Cuenta: number }[];
    const failures = Math.max(0, ...rows.map((row) => Number(row.Cuenta)));
    return Math.min(this.policy.maxDoublings, Math.max(0, failures - this.policy.freeFailures));
  }

  /** An answer counts once: a second use of the same challenge is refused (by the primary key). */
  private async spend(signature: string, expiresAt: number): Promise<boolean> {
    const now = this.now();
    await this.db.deleteFrom(AUTH_TABLES.spentChallenge).where('ExpiraEn', '<=', now).execute();
    const inserted = await this.db
      .insertInto(AUTH_TABLES.spentChallenge)
      .values({ Firma: signature, ExpiraEn: expiresAt })
      .onConflict((oc) => oc.column('Firma').doNothing())
      .executeTakeFirst();
    return Number(inserted.numInsertedOrUpdatedRows ?? 0n) === 1;
  }
}
