import { ApiError } from '../errors.js';
import type { Principal } from '../principal.js';
import type { Attempts } from './attempts.js';
import type { AuthContext } from './context.js';

/**
 * The security page's second factor: whether the user's setting offers the authenticator app and
 * whether the user is enrolled; enrolling (a secret offered, confirmed with a code, ten recovery
 * codes shown once) and turning it off with a current code where the setting does not require it.
 */
export class SecondFactor {
  constructor(
    private readonly ctx: AuthContext,
    private readonly attempts: Attempts,
  ) {}

  private async who(principal: Principal) {
    const user = await this.ctx.accounts.user(principal.userId);
    if (!user) throw new ApiError('UNAUTHORIZED');
    return { user, setting: await this.ctx.accounts.setting(user) };
  }

  /** GET /api/SeguridadSegundoFactor/estado. */
  async status(principal: Principal) {
    const { user, setting } = await this.who(principal);
    return {
      configuracion: setting.AutenticadorApp,
      ...(await this.ctx.authenticator.status(user.IdUsuario)),
    };
  }

  /** POST /api/SeguridadSegundoFactor/iniciar: a new secret to scan or type (until confirmed, nothing changes). */
  async offer(principal: Principal) {
    const { user, setting } = await this.who(principal);
    if (setting.AutenticadorApp === 'N') throw new ApiError('FORBIDDEN', { messageKey: 'totp.notOffered' });
    if (await this.ctx.authenticator.enrolled(user.IdUsuario))
      throw new ApiError('CONFLICT', { messageKey: 'totp.alreadyEnrolled' });
    return this.ctx.authenticator.offer(user.IdUsuario);
  }

  /** POST /api/SeguridadSegundoFactor/confirmar: a code of the offered secret enrols; the recovery codes, once. */
  async confirm(principal: Principal, input: { codigo?: unknown }, address: string) {
    const { user, setting } = await this.who(principal);
    if (setting.AutenticadorApp === 'N') throw new ApiError('FORBIDDEN', { messageKey: 'totp.notOffered' });
    await this.attempts.throttle(user.IdUsuario, address);
    if (await this.ctx.authenticator.enrolled(user.IdUsuario))
      throw new ApiError('CONFLICT', { messageKey: 'totp.alreadyEnrolled' });
    const codes = await this.ctx.authenticator.confirm(user.IdUsuario, String(input.codigo ?? '').trim());
    if (codes === 'none') throw new ApiError('CONFLICT', { messageKey: 'totp.noOffer' });
    if (codes === 'invalid') throw new ApiError('CODE_INVALID', { messageKey: 'totp.confirmInvalid' });
    return { codigosRecuperacion: codes };
  }

  /**
   * POST /api/SeguridadSegundoFactor/desactivar: a current code of the app turns it off, unless the
   * setting requires it. A wrong code counts like a wrong sign-in code.
   */
  async disable(principal: Principal, input: { codigo?: unknown }, address: string) {
    const { user, setting } = await this.who(principal);
    if (setting.AutenticadorApp === 'S') throw new ApiError('FORBIDDEN', { messageKey: 'totp.required' });
    if (!(await this.ctx.authenticator.enrolled(user.IdUsuario)))
      throw new ApiError('CONFLICT', { messageKey: 'totp.notEnrolled' });
    await this.attempts.throttle(user.IdUsuario, address);
    const result = await this.ctx.authenticator.verify(user.IdUsuario, String(input.codigo ?? ''), {
      appOnly: true,
    });
    if (result !== 'ok')
      await this.attempts.codeFailed(user, setting, 'invalid', address, `login.totp.${result}`);
    await this.ctx.authenticator.remove(user.IdUsuario);
    return { ok: true };
  }
}
