import { PASSWORD } from '../../shared/constants.js';
import { passwordProblems } from '../../shared/password-policy.js';
import type { FieldProblem } from '../../shared/validation.js';
import type { Db } from '../db/connection.js';
import { databaseUnavailable } from '../db/errors.js';
import { ApiError } from '../errors.js';
import type { Principal } from '../principal.js';
import { Accounts, type LoginSetting, type UserRow } from './accounts.js';
import type { Attempts } from './attempts.js';
import { isCommonPassword } from './breached.js';
import type { AuthContext } from './context.js';
import type { Eligibility } from './eligibility.js';
import { hashPassword, verifyPassword } from './passwords.js';
import { ACCESS_TOKEN_MINUTES } from './sessions.js';
import type { SignIn } from './sign-in.js';

const DAY = 86_400_000;

/** Earlier passwords a new one must differ from (besides the current one). */
export const PASSWORD_HISTORY = 5;

/**
 * A password that could not be stored (spec section 8, "Error saving password information"): a
 * refusal stays as it is; a failure of the database or the server answers the spec's message, its
 * cause logged and never sent (503 with Retry-After while the database is out of reach, else 500).
 */
export function passwordSaveFailed(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  return new ApiError(databaseUnavailable(error) ? 'SERVICE_UNAVAILABLE' : 'INTERNAL', {
    messageKey: 'password.saveFailed',
    cause: error,
  });
}

/** Password changes: forced at sign-in, voluntary with the current one, recovery by e-mailed code, and the first one. */
export class Passwords {
  constructor(
    private readonly ctx: AuthContext,
    private readonly attempts: Attempts,
    private readonly eligibility: Eligibility,
    private readonly signIn: SignIn,
  ) {}

  async checkNewPassword(user: UserRow, setting: LoginSetting, password: string): Promise<void> {
    const problems: FieldProblem[] = passwordProblems(password, Accounts.policy(setting));
    if (!problems.length && isCommonPassword(password)) problems.push({ messageKey: 'password.common' });
    if (!problems.length && password.toLocaleUpperCase('es').includes(user.IdUsuario)) {
      problems.push({ messageKey: 'password.containsUser' });
    }
    if (problems.length) throw new ApiError('VALIDATION_FAILED', { fields: { Clave: problems[0] } });
  }

  async reused(userId: string, password: string): Promise<boolean> {
    for (const hash of await this.ctx.accounts.passwordHistory(userId, PASSWORD_HISTORY)) {
      if (await verifyPassword(hash, password)) return true;
    }
    return false;
  }

  /** Stores a password the policy accepts and resets expiry and the first-password flag. */
  async setPassword(
    user: UserRow,
    setting: LoginSetting,
    password: string,
    { firstChanged = 'S' as 'S' | 'N' } = {},
  ) {
    const now = this.ctx.now();
    const write = (fn: (db: Db) => Promise<void>) =>
      this.ctx.db.isTransaction ? fn(this.ctx.db) : this.ctx.db.transaction().execute(fn);
    try {
      const hash = await hashPassword(password);
      await write(async (trx) => {
        const accounts = this.ctx.accounts.with(trx);
        await accounts.storePassword(user.IdUsuario, hash, now);
        await accounts.updateUser(user.IdUsuario, {
          PrimeraClaveCambiada: firstChanged,
          FechaCaducidadClave:
            setting.CaducaClave === 'S'
              ? new Date(now + setting.PeriodoCaducidadDias * DAY).toISOString()
              : null,
        });
      });
    } catch (error) {
      throw passwordSaveFailed(error);
    }
  }

  /**
   * POST /api/SeguridadusuarioClave/actualizar: the change forced at sign-in (expired or first
   * password). Answers id 0 when saved, 2 when the password was used before. The session ends:
   * the user signs in again with the new password.
   */
  async changeForced(
    principal: Principal,
    input: { IdUsuario?: unknown; Clave?: unknown; ClaveAnterior?: unknown },
  ) {
    const userId = String(input.IdUsuario ?? principal.userId).toLocaleUpperCase('es');
    if (userId !== principal.userId) throw new ApiError('FORBIDDEN');
    const user = await this.ctx.accounts.user(userId);
    if (!user) throw new ApiError('UNAUTHORIZED');
    const setting = await this.ctx.accounts.setting(user);
    // Only the sign-in's forced step, whose session proved the password minutes ago, may change
    // it without the current one; anywhere else the current password is asked for.
    const state = this.eligibility.passwordState(user, setting);
    const forced = state.expired || state.firstChanged === 'N';
    const session = principal.sessionId ? await this.ctx.sessions.active(principal.sessionId) : undefined;
    const fresh =
      session?.Etapa === 'login' && this.ctx.now() - session.CreadoEn <= ACCESS_TOKEN_MINUTES * 60_000;
    if (!forced || !fresh) await this.checkCurrentPassword(user, input.ClaveAnterior);
    const password = String(input.Clave ?? '');
    await this.checkNewPassword(user, setting, password);
    if (await this.reused(userId, password)) return { id: 2, mensaje: 'password.mustDiffer' };
    await this.setPassword(user, setting, password);
    await this.ctx.sessions.revokeUser(userId, 'password');
    return { id: 0, mensaje: 'password.changed' };
  }

  /** POST /api/SeguridadusuarioClave/cambiarClave: the security page's change, with the previous password. */
  async changeOwn(principal: Principal, input: { ClaveAnterior?: unknown; Clave?: unknown }) {
    const user = await this.ctx.accounts.user(principal.userId);
    if (!user) throw new ApiError('UNAUTHORIZED');
    const setting = await this.ctx.accounts.setting(user);
    await this.checkCurrentPassword(user, input.ClaveAnterior);
    const password = String(input.Clave ?? '');
    await this.checkNewPassword(user, setting, password);
    if (await this.reused(user.IdUsuario, password)) return { id: 2, mensaje: 'password.mustDiffer' };
    await this.setPassword(user, setting, password);
    return { id: 0, mensaje: 'password.changed' };
  }

  /** The current password, asked before a change: a wrong one counts as a failed attempt. */
  async checkCurrentPassword(user: UserRow, given: unknown): Promise<void> {
    const password = typeof given === 'string' ? given : '';
    if (!password)
      throw new ApiError('VALIDATION_FAILED', {
        fields: { ClaveAnterior: { messageKey: 'password.previousRequired' } },
      });
    try {
      await this.attempts.checkPassword(user, await this.ctx.accounts.setting(user), password);
    } catch (error) {
      if (error instanceof ApiError && error.params?.codigo === '01')
        throw new ApiError('VALIDATION_FAILED', {
          fields: { ClaveAnterior: { messageKey: 'password.previousWrong' } },
        });
      throw error;
    }
  }

  /**
   * POST /api/SeguridadCodigoAutenticacion/RecuperarClave, in the three steps of its three views:
   * user and e-mail (a 6-digit code is sent), the code (checked), the code and the new password.
   */
  async recover(
    input: {
      Usuario?: unknown;
      Identificador?: unknown;
      Codigo?: unknown;
      NuevaContrasenia?: unknown;
      tokenClient?: unknown;
    },
    address: string,
  ) {
    const username = String(input.Usuario ?? '')
      .trim()
      .toLocaleUpperCase('es');
    if (!username)
      throw new ApiError('VALIDATION_FAILED', { fields: { Usuario: { messageKey: 'validation.required' } } });
    const code = input.Codigo === undefined || input.Codigo === null ? '' : String(input.Codigo).trim();
    // The step that sends a code pays the challenge; the code's own steps count wrong codes instead.
    if (code) await this.attempts.throttle(username, address);
    else await this.attempts.guard(username, address, input.tokenClient as string | undefined);
    const user = await this.ctx.accounts.user(username);
    const setting = user ? await this.ctx.accounts.setting(user) : undefined;
    const policy = {
      longitudClave: setting?.LongitudClave ?? PASSWORD.defaultMinLength,
      nivelSeguridadClave: setting?.NivelSeguridadClave ?? PASSWORD.defaultLevel,
    };

    if (!code) {
      const email = String(input.Identificador ?? '')
        .trim()
        .toLowerCase();
      if (!user || !setting || !user.Correo || user.Correo.toLowerCase() !== email || user.Activo !== 'S') {
        throw new ApiError('BAD_REQUEST', { messageKey: 'recovery.mismatch' });
      }
      await this.signIn.sendCode(user, setting, 'recovery', user.Correo);
      return { enviado: true, ...policy };
    }
    // The code first: until it is right, every answer is the same whoever the user and whatever
    // the password, and a wrong code counts toward the lock as the sign-in's codes do.
    if (!user || !setting) {
      await this.attempts.failed(username, address);
      throw new ApiError('CODE_INVALID', {
        messageKey: 'login.messages.codeInvalid',
        params: { codigo: '08', minutos: 0 },
      });
    }
    const checked = await this.ctx.codes.check(user.IdUsuario, 'recovery', code, { consume: false });
    if (checked !== 'ok') await this.attempts.codeFailed(user, setting, checked, address);
    await this.ctx.accounts.clearFailures(user.IdUsuario, 'IntentosCodigo');
    const newPassword =
      input.NuevaContrasenia === undefined || input.NuevaContrasenia === null
        ? ''
        : String(input.NuevaContrasenia);
    if (!newPassword) return { valido: true, ...policy };
    await this.checkNewPassword(user, setting, newPassword);
    if (await this.reused(user.IdUsuario, newPassword))
      return { id: 2, mensaje: 'password.mustDiffer', ...policy };
    // Spent now: of two uses of one code sent together, one sets the password.
    const spent = await this.ctx.codes.check(user.IdUsuario, 'recovery', code);
    if (spent !== 'ok') await this.attempts.codeFailed(user, setting, spent, address);
    await this.setPassword(user, setting, newPassword);
    await this.attempts.clearLocks(user.IdUsuario);
    await this.ctx.sessions.revokeUser(user.IdUsuario, 'recovery');
    return { id: 0, mensaje: 'password.changed', ...policy };
  }

  /** Sets a user's first password (new users, demo data) without the history check. */
  async initialPassword(userId: string, password: string, firstChanged: 'S' | 'N' = 'N'): Promise<void> {
    const user = await this.ctx.accounts.user(userId);
    if (!user) throw new ApiError('NOT_FOUND');
    await this.setPassword(user, await this.ctx.accounts.setting(user), password, { firstChanged });
  }
}
