import { randomUUID } from 'node:crypto';
import {
  type CryptoKey,
  decodeProtectedHeader,
  exportJWK,
  generateKeyPair,
  importJWK,
  type JWK,
  type JWTPayload,
  errors as joseErrors,
  jwtVerify,
  SignJWT,
} from 'jose';
import type { Db } from '../db/connection.js';
import { AUTH_TABLES } from './tables.js';

/** Access tokens are signed with ECDSA P-256: every JWT library of another service verifies it. */
export const SIGNING_ALGORITHM = 'ES256';
/** Who issues the tokens and for whom (the `iss` and `aud` another service checks). */
export const TOKEN_ISSUER = 'acreditacion';
export const TOKEN_AUDIENCE = 'acreditacion-api';

export interface KeyPolicy {
  /** Days a key signs before a new one takes over. */
  rotateAfterDays: number;
  /** Minutes a retired key still verifies: the longest an access token it signed can live, and a margin. */
  retireMinutes: number;
}

interface KeyRow {
  Kid: string;
  Privada: string;
  Publica: string;
  CreadaEn: number;
  RetiradaEn: number | null;
}

interface LoadedKey {
  kid: string;
  createdAt: number;
  retiredAt: number | null;
  privateKey: CryptoKey;
  publicKey: CryptoKey;
  publicJwk: JWK;
}

/** How long a server trusts its copy of the key set before reading it again (another server may have rotated). */
const RELOAD_MS = 60_000;

export type Verified<T> = { claims: T & JWTPayload } | 'expired' | undefined;

/**
 * The keys that sign access tokens, kept in the database so every server of a deployment shares
 * them. One key signs (the newest); a key replaced by a newer one keeps verifying until the last
 * token it signed has expired, then it is deleted — so a rotation signs nobody out, and a token
 * signed with a removed key is refused. The public halves are published as a JWKS.
 */
export class SigningKeys {
  private keys: LoadedKey[] = [];
  private loadedAt = Number.NEGATIVE_INFINITY;
  private loading?: Promise<void>;

  constructor(
    private readonly db: Db,
    private readonly policy: KeyPolicy,
    private readonly now: () => number = Date.now,
  ) {}

  /** Signs `claims` with the current key (rotating first when it is due), for `minutes`. */
  async sign(claims: JWTPayload, minutes: number, subject: string): Promise<string> {
    const key = await this.current();
    const issued = Math.floor(this.now() / 1000);
    return new SignJWT(claims)
      .setProtectedHeader({ alg: SIGNING_ALGORITHM, kid: key.kid, typ: 'JWT' })
      .setIssuer(TOKEN_ISSUER)
      .setAudience(TOKEN_AUDIENCE)
      .setSubject(subject)
      .setIssuedAt(issued)
      .setExpirationTime(issued + minutes * 60)
      .sign(key.privateKey);
  }

  /**
   * The claims of a genuine token of ours: signed by a key still kept, by us, for us. 'expired' for
   * a genuine one past its time (unless `allowExpired`), undefined for anything else.
   */
  async verify<T>(token: string, { allowExpired = false } = {}): Promise<Verified<T>> {
    let kid: string | undefined;
    try {
      const header = decodeProtectedHeader(token);
      if (header.alg !== SIGNING_ALGORITHM || typeof header.kid !== 'string') return undefined;
      kid = header.kid;
    } catch {
      return undefined;
    }
    const key = await this.find(kid);
    if (!key) return undefined;
    const options = {
      algorithms: [SIGNING_ALGORITHM],
      issuer: TOKEN_ISSUER,
      audience: TOKEN_AUDIENCE,
      requiredClaims: ['sub', 'exp', 'iat'],
      currentDate: new Date(this.now()),
      clockTolerance: 0,
    };
    try {
      const { payload } = await jwtVerify(token, key.publicKey, options);
      return { claims: payload as T & JWTPayload };
    } catch (error) {
      if (!(error instanceof joseErrors.JWTExpired)) return undefined;
      if (!allowExpired) return 'expired';
      // Genuine but past its time, where the caller accepts that (signing out): checked again
      // with the clock set back to the token's own issue instant.
      const issuedAt = Number(error.payload.iat);
      if (!Number.isFinite(issuedAt)) return undefined;
      try {
        const { payload } = await jwtVerify(token, key.publicKey, {
          ...options,
          currentDate: new Date(issuedAt * 1000),
        });
        return { claims: payload as T & JWTPayload };
      } catch {
        return undefined;
      }
    }
  }

  /** The public keys that verify tokens today (JWKS), the signing one first. */
  async jwks(): Promise<{ keys: JWK[] }> {
    await this.fresh();
    return { keys: this.usable().map((key) => key.publicJwk) };
  }

  /** Starts a new signing key now; the one it replaces keeps verifying for `retireMinutes`. */
  async rotate(): Promise<string> {
    const now = this.now();
    const { privateKey, publicKey } = await generateKeyPair(SIGNING_ALGORITHM, { extractable: true });
    const kid = randomUUID();
    const publicJwk = { ...(await exportJWK(publicKey)), kid, alg: SIGNING_ALGORITHM, use: 'sig' };
    const privateJwk = { ...(await exportJWK(privateKey)), kid, alg: SIGNING_ALGORITHM };
    await this.db.transaction().execute(async (trx) => {
      await trx
        .updateTable(AUTH_TABLES.signingKey)
        .set({ RetiradaEn: now })
        .where('RetiradaEn', 'is', null)
        .execute();
      await trx
        .insertInto(AUTH_TABLES.signingKey)
        .values({
          Kid: kid,
          Privada: JSON.stringify(privateJwk),
          Publica: JSON.stringify(publicJwk),
          CreadaEn: now,
          RetiradaEn: null,
        })
        .execute();
    });
    await this.reload();
    return kid;
  }

  private async current(): Promise<LoadedKey> {
    await this.fresh();
    const signing = this.keys.find((key) => key.retiredAt === null);
    const due = (key: LoadedKey) => this.now() - key.createdAt >= this.policy.rotateAfterDays * 86_400_000;
    if (!signing || due(signing)) {
      // Read again before rotating: another server may have rotated a moment ago.
      await this.reload();
      const again = this.keys.find((key) => key.retiredAt === null);
      if (again && !due(again)) return again;
      await this.rotate();
      return this.keys.find((key) => key.retiredAt === null) as LoadedKey;
    }
    return signing;
  }

  private async find(kid: string): Promise<LoadedKey | undefined> {
    await this.fresh();
    let key = this.usable().find((k) => k.kid === kid);
    // A key this server has not seen yet: another server rotated since the last read.
    if (!key && this.now() - this.loadedAt > 1_000) {
      await this.reload();
      key = this.usable().find((k) => k.kid === kid);
    }
    return key;
  }

  private usable(): LoadedKey[] {
    const limit = this.now() - this.policy.retireMinutes * 60_000;
    return this.keys.filter((key) => key.retiredAt === null || key.retiredAt > limit);
  }

  private async fresh(): Promise<void> {
    if (this.now() - this.loadedAt < RELOAD_MS && this.now() >= this.loadedAt) return;
    await this.reload();
  }

  /** Reads the key set (one read at a time), deleting the keys whose tokens have all expired. */
  private reload(): Promise<void> {
    this.loading ??= (async () => {
      try {
        const limit = this.now() - this.policy.retireMinutes * 60_000;
        await this.db.deleteFrom(AUTH_TABLES.signingKey).where('RetiradaEn', '<=', limit).execute();
        const rows = (await this.db
          .selectFrom(AUTH_TABLES.signingKey)
          .selectAll()
          .orderBy('CreadaEn', 'desc')
          .execute()) as KeyRow[];
        this.keys = await Promise.all(
          rows.map(async (row) => {
            const publicJwk = JSON.parse(row.Publica) as JWK;
            return {
              kid: row.Kid,
              createdAt: Number(row.CreadaEn),
              retiredAt: row.RetiradaEn === null ? null : Number(row.RetiradaEn),
              privateKey: (await importJWK(JSON.parse(row.Privada), SIGNING_ALGORITHM)) as CryptoKey,
              publicKey: (await importJWK(publicJwk, SIGNING_ALGORITHM)) as CryptoKey,
              publicJwk,
            };
          }),
        );
        // The signing key first, then the retired ones, newest first.
        this.keys.sort((a, b) => (a.retiredAt === null ? 0 : 1) - (b.retiredAt === null ? 0 : 1));
        this.loadedAt = this.now();
      } finally {
        this.loading = undefined;
      }
    })();
    return this.loading;
  }
}
