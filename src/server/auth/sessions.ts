import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { Db } from '../db/connection.js';
import type { SigningKeys } from './keys.js';
import { AUTH_TABLES } from './tables.js';

/** Minutes an access token lives (the login response's minutosCaduca). */
export const ACCESS_TOKEN_MINUTES = 15;
/** A refresh token, and the session it belongs to, last a working day at most. */
export const SESSION_HOURS = 12;

export type Stage = 'login' | 'session';

/** A session: after the password (stage login, only enough to pick a profile), or with a profile. */
export interface SessionRow {
  Id: string;
  IdUsuario: string;
  Etapa: Stage;
  IdUsuarioPerfil: number | null;
  IdPerfil: number | null;
  IdCliente: number | null;
  IdDivision: number | null;
  IdCompania: number | null;
  CreadoEn: number;
  ExpiraEn: number;
  RevocadoEn: number | null;
}

export interface Tokens {
  accessToken: string;
  refreshToken: string;
}

export interface AccessClaims {
  sub: string;
  sid: string;
  stg: Stage;
  prf?: number;
  cli?: number;
  div?: number;
  cmp?: number;
}

export type Refreshed =
  | { outcome: 'rotated'; session: SessionRow; tokens: Tokens }
  /** The token was replaced moments ago (parallel renewals): a new access token, same refresh token. */
  | { outcome: 'grace'; session: SessionRow; accessToken: string }
  | { outcome: 'reused' | 'invalid' };

/**
 * A refresh token replaced this recently is still honoured, from the same session: a console
 * that sent several requests with the same expired access token gets every one of them renewed.
 */
export const REFRESH_GRACE_MS = 10_000;

const sha256 = (value: string) => createHash('sha256').update(value).digest('base64url');
/** Lock tickets live among the refresh tokens under a prefixed hash, so neither passes for the other. */
const ticketHash = (ticket: string) => sha256(`lock:${ticket}`);

/**
 * Short-lived signed access tokens carrying user, profile, client, division and company; opaque
 * refresh tokens kept only as hashes, replaced on every use. A refresh token used twice means it
 * leaked: the whole session (every token descended from the same sign-in) is revoked.
 */
export class Sessions {
  constructor(
    private readonly db: Db,
    private readonly keys: SigningKeys,
    private readonly now: () => number = Date.now,
  ) {}

  async open(
    userId: string,
    stage: Stage,
    profile?: {
      IdUsuarioPerfil: number;
      IdPerfil: number;
      IdCliente: number;
      IdDivision: number;
      IdCompania: number | null;
    },
  ): Promise<{ session: SessionRow; tokens: Tokens }> {
    const now = this.now();
    const session: SessionRow = {
      Id: randomUUID(),
      IdUsuario: userId,
      Etapa: stage,
      IdUsuarioPerfil: profile?.IdUsuarioPerfil ?? null,
      IdPerfil: profile?.IdPerfil ?? null,
      IdCliente: profile?.IdCliente ?? null,
      IdDivision: profile?.IdDivision ?? null,
      IdCompania: profile?.IdCompania ?? null,
      CreadoEn: now,
      ExpiraEn: now + SESSION_HOURS * 3_600_000,
      RevocadoEn: null,
    };
    await this.db.insertInto(AUTH_TABLES.session).values(session).execute();
    return { session, tokens: await this.issue(session) };
  }

  private async issue(session: SessionRow): Promise<Tokens> {
    const refreshToken = randomBytes(32).toString('base64url');
    await this.db
      .insertInto(AUTH_TABLES.refresh)
      .values({
        Hash: sha256(refreshToken),
        IdSesion: session.Id,
        ExpiraEn: session.ExpiraEn,
        CreadoEn: this.now(),
      })
      .execute();
    return { accessToken: await this.sign(session), refreshToken };
  }

  /** A JWT signed with the current key (keys.ts): user, session, stage, and the profile's scope. */
  private async sign(session: SessionRow): Promise<string> {
    const claims: Omit<AccessClaims, 'sub'> = { sid: session.Id, stg: session.Etapa };
    if (session.IdPerfil !== null) claims.prf = session.IdPerfil;
    if (session.IdCliente !== null) claims.cli = session.IdCliente;
    if (session.IdDivision !== null) claims.div = session.IdDivision;
    if (session.IdCompania !== null) claims.cmp = session.IdCompania;
    return this.keys.sign(claims, ACCESS_TOKEN_MINUTES, session.IdUsuario);
  }

  /** The claims of a genuine access token, 'expired' for a genuine one past its time, else undefined. */
  async verify(token: string, { allowExpired = false } = {}): Promise<AccessClaims | 'expired' | undefined> {
    const verified = await this.keys.verify<AccessClaims>(token, { allowExpired });
    if (verified === undefined || verified === 'expired') return verified;
    const { claims } = verified;
    if (typeof claims.sub !== 'string' || typeof claims.sid !== 'string') return undefined;
    return claims;
  }

  /** The session behind a token, when it is still open. */
  async active(sessionId: string): Promise<SessionRow | undefined> {
    const row = (await this.db
      .selectFrom(AUTH_TABLES.session)
      .selectAll()
      .where('Id', '=', sessionId)
      .executeTakeFirst()) as SessionRow | undefined;
    if (!row || row.RevocadoEn !== null || row.ExpiraEn <= this.now()) return undefined;
    return row;
  }

  /** Trades a refresh token for a new pair; a token already used revokes its whole session. */
  async refresh(refreshToken: string): Promise<Refreshed> {
    const now = this.now();
    const hash = sha256(refreshToken);
    return this.db.transaction().execute(async (trx) => {
      const token = (await trx
        .selectFrom(AUTH_TABLES.refresh)
        .selectAll()
        .where('Hash', '=', hash)
        .executeTakeFirst()) as { IdSesion: string; ExpiraEn: number; UsadoEn: number | null } | undefined;
      if (!token) return { outcome: 'invalid' };
      const session = (await trx
        .selectFrom(AUTH_TABLES.session)
        .selectAll()
        .where('Id', '=', token.IdSesion)
        .executeTakeFirst()) as SessionRow | undefined;
      const live = session && session.RevocadoEn === null && token.ExpiraEn > now && session.ExpiraEn > now;
      if (token.UsadoEn !== null) {
        if (live && now - token.UsadoEn <= REFRESH_GRACE_MS)
          return { outcome: 'grace', session, accessToken: await this.sign(session) };
        await this.revokeWith(trx, token.IdSesion, 'reuse');
        return { outcome: 'reused' };
      }
      if (!live) return { outcome: 'invalid' };
      const claimed = await trx
        .updateTable(AUTH_TABLES.refresh)
        .set({ UsadoEn: now })
        .where('Hash', '=', hash)
        .where('UsadoEn', 'is', null)
        .executeTakeFirst();
      // Another renewal with the same token claimed it between our read and our write: a
      // parallel request of the same console, which the grace covers as above.
      if (Number(claimed.numUpdatedRows) !== 1)
        return { outcome: 'grace', session, accessToken: await this.sign(session) };
      return {
        outcome: 'rotated',
        session,
        tokens: await new Sessions(trx, this.keys, this.now).issue(session),
      };
    });
  }

  /**
   * The screen locks: the session's refresh tokens stop working and a lock ticket takes their
   * place. The ticket alone opens nothing; with the user's password it resumes this session
   * (which has passed its code already) instead of starting a new sign-in.
   */
  async lock(sessionId: string): Promise<string> {
    const ticket = randomBytes(32).toString('base64url');
    await this.db.transaction().execute(async (trx) => {
      const session = (await trx
        .selectFrom(AUTH_TABLES.session)
        .select('ExpiraEn')
        .where('Id', '=', sessionId)
        .executeTakeFirstOrThrow()) as { ExpiraEn: number };
      await trx.deleteFrom(AUTH_TABLES.refresh).where('IdSesion', '=', sessionId).execute();
      await trx
        .insertInto(AUTH_TABLES.refresh)
        .values({
          Hash: ticketHash(ticket),
          IdSesion: sessionId,
          ExpiraEn: session.ExpiraEn,
          CreadoEn: this.now(),
        })
        .execute();
    });
    return ticket;
  }

  /** The locked session a ticket names, if it is the user's and still open; the ticket is spent. */
  async resume(ticket: string, userId: string): Promise<{ session: SessionRow; tokens: Tokens } | undefined> {
    const now = this.now();
    return this.db.transaction().execute(async (trx) => {
      const row = (await trx
        .selectFrom(AUTH_TABLES.refresh)
        .select(['IdSesion', 'ExpiraEn'])
        .where('Hash', '=', ticketHash(ticket))
        .executeTakeFirst()) as { IdSesion: string; ExpiraEn: number } | undefined;
      if (!row || row.ExpiraEn <= now) return undefined;
      const session = await new Sessions(trx, this.keys, this.now).active(row.IdSesion);
      if (!session || session.IdUsuario !== userId || session.Etapa !== 'session') return undefined;
      await trx.deleteFrom(AUTH_TABLES.refresh).where('Hash', '=', ticketHash(ticket)).execute();
      return { session, tokens: await new Sessions(trx, this.keys, this.now).issue(session) };
    });
  }

  async revoke(sessionId: string, reason: string): Promise<void> {
    await this.revokeWith(this.db, sessionId, reason);
  }

  private async revokeWith(db: Db, sessionId: string, reason: string): Promise<void> {
    await db
      .updateTable(AUTH_TABLES.session)
      .set({ RevocadoEn: this.now(), Motivo: reason })
      .where('Id', '=', sessionId)
      .where('RevocadoEn', 'is', null)
      .execute();
  }

  /** Ends every open session of a user (after a password change, for instance). */
  async revokeUser(userId: string, reason: string): Promise<void> {
    await this.db
      .updateTable(AUTH_TABLES.session)
      .set({ RevocadoEn: this.now(), Motivo: reason })
      .where('IdUsuario', '=', userId)
      .where('RevocadoEn', 'is', null)
      .execute();
  }
}
