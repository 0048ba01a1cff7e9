import { ApiError } from '../errors.js';
import type { LoginSetting, UserRow } from './accounts.js';
import type { CodeCheck } from './codes.js';
import type { AuthContext } from './context.js';
import { loginError } from './login-errors.js';
import { verifyNothing, verifyPassword } from './passwords.js';
import { AUTH_TABLES } from './tables.js';
import { allow } from './throttle.js';

/**
 * Failed attempts and their locks: the throttle per name and address before any hash is computed,
 * the password check that counts failures, wrong codes, and locks that lift by themselves.
 */
export class Attempts {
  constructor(private readonly ctx: AuthContext) {}

  /** Counts the try against the user name and the address before any hash is computed. */
  async throttle(username: string, address: string): Promise<void> {
    const now = this.ctx.now();
    const { perUser, perAddress, windowMs } = this.ctx.throttle;
    const byAddress = await allow(this.ctx.db, `ip:${address}`, perAddress, windowMs, now);
    const byUser = await allow(this.ctx.db, `user:${username}`, perUser, windowMs, now);
    if (!byAddress || !byUser) throw new ApiError('TOO_MANY_REQUESTS');
  }

  /**
   * The throttle, then the answer to the sign-in challenge (tokenClient): missing, forged, spent,
   * expired or easier than this address and name have earned is login code 07.
   */
  async guard(
    username: string,
    address: string,
    clientToken?: string,
    { byName = true } = {},
  ): Promise<void> {
    await this.throttle(username, address);
    const who = byName ? { address, username } : { address };
    if (!(await this.ctx.challenges.verify(clientToken, who))) {
      await this.ctx.challenges.failed(who);
      throw loginError('07', undefined, 'login.messages.challenge');
    }
  }

  /** A failed try makes the next challenges of this address and user name harder. */
  async failed(username: string, address?: string): Promise<void> {
    if (address !== undefined) await this.ctx.challenges.failed({ address, username });
  }

  /** A lock still running answers with its code and minutes; one past its time is lifted. */
  async checkLock(user: UserRow): Promise<void> {
    const state = await this.ctx.accounts.state(user.IdUsuario);
    const now = this.ctx.now();
    if (state.BloqueadoHasta !== null && state.BloqueadoHasta > now) {
      throw loginError(state.Motivo === '09' ? '09' : '04', Math.ceil((state.BloqueadoHasta - now) / 60_000));
    }
    if (state.BloqueadoHasta !== null || user.Bloqueado === 'S') {
      if (user.Bloqueado === 'S' && state.BloqueadoHasta === null) {
        // Locked by an administrator: only an administrator unlocks.
        throw loginError('04', 0);
      }
      await this.clearLocks(user.IdUsuario);
      user.Bloqueado = 'N';
    }
  }

  /** Clears failed attempts and any lock of a user. */
  async clearLocks(userId: UserRow['IdUsuario']): Promise<void> {
    await this.ctx.accounts.saveState(userId, {
      IntentosFallidos: 0,
      IntentosCodigo: 0,
      BloqueadoHasta: null,
      Motivo: null,
    });
    await this.ctx.accounts.updateUser(userId, { Bloqueado: 'N', FechaBloqueo: null });
  }

  /**
   * Locks a user for the setting's minutes. The failure counts stay as they are until the lock is
   * lifted (clearLocks), so a try that counted after the one that locked still sees the limit.
   */
  async lock(user: UserRow, setting: LoginSetting, reason: '04' | '09'): Promise<never> {
    const now = this.ctx.now();
    await this.ctx.db
      .updateTable(AUTH_TABLES.state)
      .set({ BloqueadoHasta: now + setting.MinutosDesbloqueo * 60_000, Motivo: reason })
      .where('IdUsuario', '=', user.IdUsuario)
      .execute();
    await this.ctx.accounts.updateUser(user.IdUsuario, {
      Bloqueado: 'S',
      FechaBloqueo: new Date(now).toISOString(),
    });
    await this.ctx.sessions.revokeUser(user.IdUsuario, 'locked');
    throw loginError(reason, setting.MinutosDesbloqueo);
  }

  /** Password check with the attempt count: the setting's number of failures locks the user. */
  async checkPassword(
    user: UserRow,
    setting: LoginSetting,
    password: string,
    address?: string,
  ): Promise<void> {
    const hash = await this.ctx.accounts.passwordHash(user.IdUsuario);
    let ok = false;
    if (hash) ok = await verifyPassword(hash, password);
    else await verifyNothing(password);
    if (ok) {
      await this.ctx.accounts.clearFailures(user.IdUsuario, 'IntentosFallidos');
      return;
    }
    await this.failed(user.IdUsuario, address);
    const failures = await this.ctx.accounts.countFailure(user.IdUsuario, 'IntentosFallidos');
    if (failures >= setting.NumeroIntentos) await this.lock(user, setting, '04');
    throw loginError('01');
  }

  async knownUser(username: string, password: string, address?: string): Promise<UserRow> {
    const user = await this.ctx.accounts.user(username);
    if (!user) {
      await this.failed(username, address);
      await verifyNothing(password);
      throw loginError('01');
    }
    if (user.ValidarDirectorio === 'S') {
      // Validated by the client's directory: no password of this product signs them in.
      await verifyNothing(password);
      throw new ApiError('LOGIN_REFUSED', { messageKey: 'login.directory.only', params: { codigo: '07' } });
    }
    return user;
  }

  /**
   * A wrong, spent or expired code (of the e-mail, or of the authenticator app with its own
   * `messageKey`): counted against the user, who is locked (09) at the setting's limit.
   */
  async codeFailed(
    user: UserRow,
    setting: LoginSetting,
    result: Exclude<CodeCheck, 'ok'>,
    address?: string,
    messageKey = 'login.messages.codeInvalid',
  ): Promise<never> {
    await this.failed(user.IdUsuario, address);
    const failures = await this.ctx.accounts.countFailure(user.IdUsuario, 'IntentosCodigo');
    if (failures >= setting.NumeroIntentos) await this.lock(user, setting, '09');
    // The spec's code confirmation shows the lock message with 0 minutes for a bad code.
    throw new ApiError('CODE_INVALID', {
      messageKey,
      params: { codigo: result === 'expired' ? '09' : '08', minutos: 0 },
    });
  }
}
