import type { LoginResponse } from '../../shared/session.js';
import { ApiError } from '../errors.js';
import type { LoginSetting, UserRow } from './accounts.js';
import type { Attempts } from './attempts.js';
import { CODE_MINUTES, type CodePurpose } from './codes.js';
import type { AuthContext } from './context.js';
import type { Eligibility } from './eligibility.js';
import { loginError } from './login-errors.js';
import { smsNumber } from './sms.js';

/** A call of the authenticator app's step from a sign-in that is not at it (or of a name unknown). */
const notInStep = () =>
  new ApiError('CODE_INVALID', { messageKey: 'login.totp.notInStep', params: { codigo: '08', minutos: 0 } });

/** The first steps of the sign-in: password, verification code, a code sent again. */
export class SignIn {
  constructor(
    private readonly ctx: AuthContext,
    private readonly attempts: Attempts,
    private readonly eligibility: Eligibility,
  ) {}

  /** POST /api/usuario/authenticate. */
  async authenticate(
    input: { username?: unknown; password?: unknown; tokenClient?: unknown },
    address: string,
  ): Promise<LoginResponse> {
    const username = String(input.username ?? '')
      .trim()
      .toLocaleUpperCase('es');
    const password = String(input.password ?? '');
    if (!username || !password) throw loginError('01');
    await this.attempts.guard(username, address, input.tokenClient as string | undefined);
    const user = await this.attempts.knownUser(username, password, address);
    await this.attempts.checkLock(user);
    const setting = await this.ctx.accounts.setting(user);
    await this.attempts.checkPassword(user, setting, password, address);
    return this.proven(user, setting);
  }

  /**
   * A user who proved who they are (a password, or the directory's word): refused when they may
   * not work; asked for the authenticator app's code when enrolled in one the setting offers (it
   * takes the place of the e-mail code); else a code sent when their setting asks for one; else
   * on to the session.
   */
  async proven(user: UserRow, setting: LoginSetting): Promise<LoginResponse> {
    const assignments = await this.eligibility.usableAssignments(user, setting);
    if (setting.AutenticadorApp !== 'N' && (await this.ctx.authenticator.enrolled(user.IdUsuario))) {
      await this.ctx.authenticator.awaitCode(user.IdUsuario);
      return this.eligibility.loginResponse(user, setting, assignments, undefined, false, {
        autenticadorApp: 'S',
      });
    }
    if (setting.DobleAutenticacion === 'S') {
      await this.sendCode(user, setting, 'login');
      return this.eligibility.loginResponse(user, setting, assignments, undefined, true);
    }
    return this.afterFactors(user, setting, false);
  }

  /**
   * Every factor was given: a setting that requires the authenticator app of a user who has none
   * gets its enrolment first (a ticket for it, no tokens); else the session at the profile step.
   */
  async afterFactors(user: UserRow, setting: LoginSetting, double: boolean): Promise<LoginResponse> {
    const assignments = await this.eligibility.usableAssignments(user, setting);
    if (setting.AutenticadorApp === 'S' && !(await this.ctx.authenticator.enrolled(user.IdUsuario))) {
      const ticket = await this.ctx.authenticator.enrolmentTicket(user.IdUsuario);
      return this.eligibility.loginResponse(user, setting, assignments, undefined, double, {
        enrolarAutenticador: 'S',
        ticketAutenticador: ticket,
      });
    }
    await this.eligibility.signedIn(user);
    const { tokens } = await this.ctx.sessions.open(user.IdUsuario, 'login');
    return this.eligibility.loginResponse(user, setting, assignments, tokens, double);
  }

  /** A right code of a second factor: the code failures are forgotten and the sign-in goes on. */
  private async codeAccepted(user: UserRow, setting: LoginSetting, double: boolean): Promise<LoginResponse> {
    await this.ctx.accounts.clearFailures(user.IdUsuario, 'IntentosCodigo');
    return this.afterFactors(user, setting, double);
  }

  /** The user name and code of a code's call, both required, after the throttle. */
  private async codeGiven(input: { username?: unknown; codigo?: unknown }, address: string) {
    const username = String(input.username ?? '')
      .trim()
      .toLocaleUpperCase('es');
    const code = String(input.codigo ?? '').trim();
    if (!username) throw loginError('01');
    if (!code) throw loginError('08');
    await this.attempts.throttle(username, address);
    return { username, code };
  }

  /** POST /api/usuario/validatelogin: the code of a double authentication. */
  async validateLogin(
    input: { username?: unknown; codigo?: unknown },
    address: string,
  ): Promise<LoginResponse> {
    const { username, code } = await this.codeGiven(input, address);
    const user = await this.ctx.accounts.user(username);
    // An unknown name gets the answer of a wrong code: nobody learns which names exist.
    if (!user)
      throw new ApiError('CODE_INVALID', {
        messageKey: 'login.messages.codeInvalid',
        params: { codigo: '08', minutos: 0 },
      });
    await this.attempts.checkLock(user);
    const setting = await this.ctx.accounts.setting(user);
    const result = await this.ctx.codes.check(user.IdUsuario, 'login', code);
    if (result !== 'ok') await this.attempts.codeFailed(user, setting, result, address);
    return this.codeAccepted(user, setting, true);
  }

  /**
   * POST /api/usuario/validatetotp: the authenticator app's code (or a recovery code) of a sign-in
   * whose password was just proven. Wrong, replayed and spent codes count like wrong e-mail codes.
   */
  async validateTotp(
    input: { username?: unknown; codigo?: unknown },
    address: string,
  ): Promise<LoginResponse> {
    const { username, code } = await this.codeGiven(input, address);
    const user = await this.ctx.accounts.user(username);
    // Unknown, not enrolled or not waiting for the code read alike: nobody learns which names exist.
    if (!user || !(await this.ctx.authenticator.awaitingCode(user.IdUsuario))) throw notInStep();
    await this.attempts.checkLock(user);
    const setting = await this.ctx.accounts.setting(user);
    if (setting.AutenticadorApp === 'N') throw notInStep();
    const result = await this.ctx.authenticator.verify(user.IdUsuario, code);
    if (result !== 'ok')
      await this.attempts.codeFailed(user, setting, 'invalid', address, `login.totp.${result}`);
    await this.ctx.authenticator.codeGiven(user.IdUsuario);
    return this.codeAccepted(user, setting, false);
  }

  /** The user and setting of a sign-in that owes its enrolment in the app, with its ticket. */
  private async enrolling(input: { username?: unknown; ticket?: unknown }, address: string) {
    const username = String(input.username ?? '')
      .trim()
      .toLocaleUpperCase('es');
    const ticket = typeof input.ticket === 'string' ? input.ticket : '';
    if (!username) throw loginError('01');
    await this.attempts.throttle(username, address);
    const user = await this.ctx.accounts.user(username);
    if (!user || !(await this.ctx.authenticator.ticketValid(user.IdUsuario, ticket))) throw notInStep();
    await this.attempts.checkLock(user);
    const setting = await this.ctx.accounts.setting(user);
    if (setting.AutenticadorApp !== 'S' || (await this.ctx.authenticator.enrolled(user.IdUsuario)))
      throw notInStep();
    return { user, setting };
  }

  /** POST /api/usuario/enrolartotp: the secret of the enrolment a sign-in owes (QR URI and text). */
  async enrolOffer(input: { username?: unknown; ticket?: unknown }, address: string) {
    const { user } = await this.enrolling(input, address);
    return this.ctx.authenticator.offer(user.IdUsuario);
  }

  /**
   * POST /api/usuario/confirmartotp: a code of the offered secret enrols the user; the sign-in
   * goes on to its session, and the answer carries the recovery codes (shown once).
   */
  async enrolConfirm(
    input: { username?: unknown; ticket?: unknown; codigo?: unknown },
    address: string,
  ): Promise<LoginResponse & { codigosRecuperacion: string[] }> {
    const { user, setting } = await this.enrolling(input, address);
    const codes = await this.ctx.authenticator.confirm(user.IdUsuario, String(input.codigo ?? '').trim());
    if (codes === 'none') throw notInStep();
    if (codes === 'invalid') throw new ApiError('CODE_INVALID', { messageKey: 'totp.confirmInvalid' });
    await this.ctx.authenticator.spendTicket(user.IdUsuario);
    const answer = await this.afterFactors(user, setting, setting.DobleAutenticacion === 'S');
    return { ...answer, codigosRecuperacion: codes };
  }

  /** POST /api/usuario/resendcode. */
  async resendCode(
    input: { username?: unknown; tokenClient?: unknown },
    address: string,
  ): Promise<{ mensaje: string }> {
    const username = String(input.username ?? '')
      .trim()
      .toLocaleUpperCase('es');
    await this.attempts.guard(username, address, input.tokenClient as string | undefined);
    const user = await this.ctx.accounts.user(username);
    // Only a sign-in waiting for its code gets a new one; nobody learns whether a name exists.
    if (user && (await this.ctx.codes.pending(user.IdUsuario, 'login'))) {
      await this.sendCode(user, await this.ctx.accounts.setting(user), 'login');
    }
    return { mensaje: 'login.codeResent' };
  }

  async sendCode(user: UserRow, setting: LoginSetting, purpose: CodePurpose, to?: string): Promise<void> {
    const channel = purpose === 'login' ? setting.NotificarPor : 'C';
    // A phone number no SMS can reach is no phone: refused before any code is made.
    const destination = to ?? (channel === 'T' ? smsNumber(user.Telefono) : user.Correo);
    if (!destination) throw loginError(channel === 'T' ? '06' : '05');
    const code = await this.ctx.codes.issue(user.IdUsuario, purpose);
    const login = purpose === 'login';
    const state = await this.ctx.notifier.send({
      clientId: user.IdCliente,
      userId: user.IdUsuario,
      channel,
      to: destination,
      subject: login
        ? 'Código de verificación / Verification code'
        : 'Recuperación de clave / Password recovery',
      text: login
        ? `Su código de verificación es {secret}. Vence en ${CODE_MINUTES} minutos.\nYour verification code is {secret}. It expires in ${CODE_MINUTES} minutes.`
        : `Su código para recuperar la clave es {secret}. Vence en ${CODE_MINUTES} minutos.\nYour password recovery code is {secret}. It expires in ${CODE_MINUTES} minutes.`,
      secret: code,
    });
    // The SMS centre refused or did not answer (the outbox keeps why): the user waits for no code.
    if (channel === 'T' && state === 'F')
      throw new ApiError('LOGIN_REFUSED', {
        messageKey: 'login.messages.smsNotSent',
        params: { codigo: '07' },
      });
  }
}
