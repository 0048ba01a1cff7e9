import { PASSWORD } from '../../shared/constants.js';
import { passwordProblems } from '../../shared/password-policy.js';
import { profileTypeOf, type CurrentProfile as SharedProfile } from '../../shared/session.js';
import type { FieldProblem } from '../../shared/validation.js';
import type { Db } from '../db/connection.js';
import { ApiError } from '../errors.js';
import type { Principal } from '../principal.js';
import type { Registry } from '../registry.js';
import { Accounts, type Assignment, type LoginSetting, type UserRow } from './accounts.js';
import { isCommonPassword } from './breached.js';
import { acceptAnyClientToken, type ClientTokenVerifier } from './captcha.js';
import { CODE_MINUTES, type CodeCheck, type CodePurpose, type Codes } from './codes.js';
import type { Notifier } from './notifier.js';
import { hashPassword, verifyNothing, verifyPassword } from './passwords.js';
import { characteristicsOf } from './permissions.js';
import { ACCESS_TOKEN_MINUTES, type SessionRow, type Sessions, type Tokens } from './sessions.js';
import { allow, DEFAULT_THROTTLE, type ThrottleLimits } from './throttle.js';

/** Earlier passwords a new one must differ from (besides the current one). */
export const PASSWORD_HISTORY = 5;
const DAY = 86_400_000;

export type LoginCode =
  | '00'
  | '01'
  | '02'
  | '03'
  | '04'
  | '05'
  | '06'
  | '07'
  | '08'
  | '09'
  | '10'
  | '11'
  | '12';

const STATUS_OF: Record<
  LoginCode,
  'LOGIN_FAILED' | 'LOGIN_REFUSED' | 'ACCOUNT_LOCKED' | 'INTERNAL' | 'BAD_REQUEST'
> = {
  '00': 'INTERNAL',
  '01': 'LOGIN_FAILED',
  '02': 'LOGIN_REFUSED',
  '03': 'LOGIN_REFUSED',
  '04': 'ACCOUNT_LOCKED',
  '05': 'LOGIN_REFUSED',
  '06': 'LOGIN_REFUSED',
  '07': 'LOGIN_REFUSED',
  '08': 'BAD_REQUEST',
  '09': 'ACCOUNT_LOCKED',
  '10': 'LOGIN_REFUSED',
  '11': 'LOGIN_REFUSED',
  '12': 'LOGIN_REFUSED',
};

/** A refused sign-in with the spec's message code (section 8) and, for locks, the minutes left. */
export function loginError(codigo: LoginCode, minutos?: number): ApiError {
  return new ApiError(STATUS_OF[codigo], {
    messageKey: `login.messages.${codigo}`,
    params: minutos === undefined ? { codigo } : { codigo, minutos },
  });
}

export interface ProfileEntry {
  IdPerfil: number;
  Perfil: string;
  IdUsuario: string;
  NombreCompleto: string;
}

export interface DivisionEntry {
  IdDivision: number;
  IdCliente: number;
  Cliente: string;
  Division: string;
  IdPerfil: number;
  IdPais: string | null;
  IdUsuarioPerfil: number;
  IdCompania: number | null;
  Compania: string | null;
}

/** The login response of spec section 3, and the few fields the console needs besides. */
export interface LoginResponse {
  username: string;
  firstName: string;
  lastName: string;
  fullName: string;
  accessToken: string;
  refreshToken: string;
  cambiarClaveCaducada: 'S' | 'N';
  dobleAutenticacion: 'S' | 'N';
  flagTelefono: 'S' | 'N';
  primeraClaveCambiada: 'S' | 'N';
  minutosCaduca: number;
  longitudClave: number;
  nivelSeguridadClave: string;
  perfil: ProfileEntry[];
  division: DivisionEntry[];
  contratista: 'S' | 'N';
  responsableContratista: 'S' | 'N';
  idCompania: number | null;
  compania: string | null;
  rolAcreditacion: string | null;
  /** Days until the password expires (null when it does not): the notice at 6 or fewer. */
  diasCaducidadClave: number | null;
  segundosInactividad: number;
}

/** The current profile of spec section 3, with the profile's characteristics. */
export interface CurrentProfile extends SharedProfile {
  caracteristicas: string[];
}

export interface AuthOptions {
  verifyClientToken?: ClientTokenVerifier;
  throttle?: ThrottleLimits;
  now?: () => number;
}

/**
 * Sign-in and everything around it: the outcomes 00 to 12, locks after failed passwords or
 * codes that lift by themselves, codes by e-mail or phone, forced and voluntary password changes,
 * recovery, profile selection and switching, unlocking the screen.
 */
export class AuthService {
  readonly now: () => number;
  private readonly verifyClientToken: ClientTokenVerifier;
  private readonly throttle: ThrottleLimits;
  private readonly accounts: Accounts;

  constructor(
    private readonly db: Db,
    private readonly registry: Registry,
    readonly sessions: Sessions,
    readonly codes: Codes,
    private readonly notifier: Notifier,
    options: AuthOptions = {},
  ) {
    this.now = options.now ?? Date.now;
    this.verifyClientToken = options.verifyClientToken ?? acceptAnyClientToken;
    this.throttle = options.throttle ?? DEFAULT_THROTTLE;
    this.accounts = new Accounts(db, registry);
  }

  /** Counts the try against the user name and the address before any hash is computed. */
  private async guard(username: string, address: string, clientToken?: string): Promise<void> {
    const now = this.now();
    const { perUser, perAddress, windowMs } = this.throttle;
    const byAddress = await allow(this.db, `ip:${address}`, perAddress, windowMs, now);
    const byUser = await allow(this.db, `user:${username}`, perUser, windowMs, now);
    if (!byAddress || !byUser) throw new ApiError('TOO_MANY_REQUESTS');
    if (!(await this.verifyClientToken(clientToken, address))) throw loginError('07');
  }

  /** A lock still running answers with its code and minutes; one past its time is lifted. */
  private async checkLock(user: UserRow): Promise<void> {
    const state = await this.accounts.state(user.IdUsuario);
    const now = this.now();
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
  private async clearLocks(userId: UserRow['IdUsuario']): Promise<void> {
    await this.accounts.saveState(userId, {
      IntentosFallidos: 0,
      IntentosCodigo: 0,
      BloqueadoHasta: null,
      Motivo: null,
    });
    await this.accounts.updateUser(userId, { Bloqueado: 'N', FechaBloqueo: null });
  }

  private async lock(user: UserRow, setting: LoginSetting, reason: '04' | '09'): Promise<never> {
    const now = this.now();
    await this.accounts.saveState(user.IdUsuario, {
      IntentosFallidos: 0,
      IntentosCodigo: 0,
      BloqueadoHasta: now + setting.MinutosDesbloqueo * 60_000,
      Motivo: reason,
    });
    await this.accounts.updateUser(user.IdUsuario, {
      Bloqueado: 'S',
      FechaBloqueo: new Date(now).toISOString(),
    });
    await this.sessions.revokeUser(user.IdUsuario, 'locked');
    throw loginError(reason, setting.MinutosDesbloqueo);
  }

  /** Password check with the attempt count: the setting's number of failures locks the user. */
  private async checkPassword(user: UserRow, setting: LoginSetting, password: string): Promise<void> {
    const hash = await this.accounts.passwordHash(user.IdUsuario);
    let ok = false;
    if (hash) ok = await verifyPassword(hash, password);
    else await verifyNothing(password);
    const state = await this.accounts.state(user.IdUsuario);
    if (ok) {
      if (state.IntentosFallidos)
        await this.accounts.saveState(user.IdUsuario, { ...state, IntentosFallidos: 0 });
      return;
    }
    const failures = state.IntentosFallidos + 1;
    if (failures >= setting.NumeroIntentos) await this.lock(user, setting, '04');
    await this.accounts.saveState(user.IdUsuario, { ...state, IntentosFallidos: failures });
    throw loginError('01');
  }

  private async knownUser(username: string, password: string): Promise<UserRow> {
    const user = await this.accounts.user(username);
    if (!user) {
      await verifyNothing(password);
      throw loginError('01');
    }
    return user;
  }

  /** Activity, profiles, divisions and companies: the refusals 10, 02, 03, 11 and 12. */
  private async usableAssignments(user: UserRow, setting: LoginSetting): Promise<Assignment[]> {
    if (user.Activo !== 'S') throw loginError('10');
    if (setting.DiasInactivacion > 0 && user.FechaUltimoAcceso) {
      const idle = this.now() - Date.parse(user.FechaUltimoAcceso);
      if (idle > setting.DiasInactivacion * DAY) {
        await this.accounts.updateUser(user.IdUsuario, { Activo: 'N' });
        throw loginError('10');
      }
    }
    const all = await this.accounts.assignments(user.IdUsuario);
    if (!all.length) throw loginError('02');
    const withDivision = all.filter((a) => a.IdDivision !== null && a.DivisionActiva === 'S');
    if (!withDivision.length) throw loginError('03');
    if (user.Contratista !== 'S') return withDivision;
    const withCompany = withDivision.filter((a) => a.IdCompania !== null);
    if (!withCompany.length) throw loginError('11');
    const current = withCompany.filter((a) => a.CompaniaActiva === 'S');
    if (!current.length) throw loginError('12');
    return current;
  }

  private passwordState(user: UserRow, setting: LoginSetting) {
    const expiresAt = user.FechaCaducidadClave ? Date.parse(user.FechaCaducidadClave) : null;
    const expires = setting.CaducaClave === 'S' && expiresAt !== null;
    return {
      expired: expires && (expiresAt as number) <= this.now(),
      daysLeft: expires ? Math.max(0, Math.ceil(((expiresAt as number) - this.now()) / DAY)) : null,
      firstChanged: setting.CambiarPrimeraClave === 'S' ? user.PrimeraClaveCambiada : ('S' as const),
    };
  }

  private response(
    user: UserRow,
    setting: LoginSetting,
    assignments: Assignment[],
    tokens: Tokens | undefined,
    double: boolean,
  ): LoginResponse {
    const fullName = `${user.Nombre} ${user.Apellido}`.trim();
    const profiles = new Map<number, ProfileEntry>();
    for (const a of assignments) {
      profiles.set(a.IdPerfil, {
        IdPerfil: a.IdPerfil,
        Perfil: a.Perfil,
        IdUsuario: user.IdUsuario,
        NombreCompleto: fullName,
      });
    }
    const first = assignments[0];
    const password = this.passwordState(user, setting);
    return {
      username: user.IdUsuario,
      firstName: user.Nombre,
      lastName: user.Apellido,
      fullName,
      accessToken: tokens?.accessToken ?? '',
      refreshToken: tokens?.refreshToken ?? '',
      cambiarClaveCaducada: password.expired ? 'S' : 'N',
      dobleAutenticacion: double ? 'S' : 'N',
      flagTelefono: setting.NotificarPor === 'T' ? 'S' : 'N',
      primeraClaveCambiada: password.firstChanged,
      minutosCaduca: ACCESS_TOKEN_MINUTES,
      longitudClave: setting.LongitudClave,
      nivelSeguridadClave: setting.NivelSeguridadClave,
      perfil: [...profiles.values()],
      division: assignments.map((a) => ({
        IdDivision: a.IdDivision as number,
        IdCliente: a.IdCliente,
        Cliente: a.Cliente,
        Division: a.Division as string,
        IdPerfil: a.IdPerfil,
        IdPais: a.IdPais,
        IdUsuarioPerfil: a.IdUsuarioPerfil,
        IdCompania: a.IdCompania,
        Compania: a.Compania,
      })),
      contratista: user.Contratista,
      responsableContratista: user.Contratista === 'S' && first?.IdCompania !== null ? 'S' : 'N',
      idCompania: first?.IdCompania ?? null,
      compania: first?.Compania ?? null,
      rolAcreditacion: first?.RolAcreditacion ?? null,
      diasCaducidadClave: password.daysLeft,
      segundosInactividad: setting.SegundosInactividad,
    };
  }

  private async sendCode(
    user: UserRow,
    setting: LoginSetting,
    purpose: CodePurpose,
    to?: string,
  ): Promise<void> {
    const channel = purpose === 'login' ? setting.NotificarPor : 'C';
    const destination = to ?? (channel === 'T' ? user.Telefono : user.Correo);
    if (!destination) throw loginError(channel === 'T' ? '06' : '05');
    const code = await this.codes.issue(user.IdUsuario, purpose);
    const login = purpose === 'login';
    await this.notifier.send({
      clientId: user.IdCliente,
      userId: user.IdUsuario,
      channel,
      to: destination,
      subject: login
        ? 'Código de verificación / Verification code'
        : 'Recuperación de clave / Password recovery',
      text: login
        ? `Su código de verificación es ${code}. Vence en ${CODE_MINUTES} minutos.\nYour verification code is ${code}. It expires in ${CODE_MINUTES} minutes.`
        : `Su código para recuperar la clave es ${code}. Vence en ${CODE_MINUTES} minutos.\nYour password recovery code is ${code}. It expires in ${CODE_MINUTES} minutes.`,
    });
  }

  private async signedIn(user: UserRow): Promise<void> {
    await this.accounts.updateUser(user.IdUsuario, { FechaUltimoAcceso: new Date(this.now()).toISOString() });
  }

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
    await this.guard(username, address, input.tokenClient as string | undefined);
    const user = await this.knownUser(username, password);
    await this.checkLock(user);
    const setting = await this.accounts.setting(user);
    await this.checkPassword(user, setting, password);
    const assignments = await this.usableAssignments(user, setting);
    if (setting.DobleAutenticacion === 'S') {
      await this.sendCode(user, setting, 'login');
      return this.response(user, setting, assignments, undefined, true);
    }
    await this.signedIn(user);
    const { tokens } = await this.sessions.open(user.IdUsuario, 'login');
    return this.response(user, setting, assignments, tokens, false);
  }

  /** POST /api/usuario/validatelogin: the code of a double authentication. */
  async validateLogin(
    input: { username?: unknown; codigo?: unknown },
    address: string,
  ): Promise<LoginResponse> {
    const username = String(input.username ?? '')
      .trim()
      .toLocaleUpperCase('es');
    const code = String(input.codigo ?? '').trim();
    if (!username) throw loginError('01');
    if (!code) throw loginError('08');
    await this.guard(username, address);
    const user = await this.accounts.user(username);
    if (!user)
      throw new ApiError('CODE_INVALID', {
        messageKey: 'login.messages.codeInvalid',
        params: { codigo: '09', minutos: 0 },
      });
    await this.checkLock(user);
    const setting = await this.accounts.setting(user);
    const result = await this.codes.check(user.IdUsuario, 'login', code);
    if (result !== 'ok') await this.codeFailed(user, setting, result);
    await this.accounts.saveState(user.IdUsuario, {
      ...(await this.accounts.state(user.IdUsuario)),
      IntentosCodigo: 0,
    });
    const assignments = await this.usableAssignments(user, setting);
    await this.signedIn(user);
    const { tokens } = await this.sessions.open(user.IdUsuario, 'login');
    return this.response(user, setting, assignments, tokens, true);
  }

  /** A wrong, spent or expired code: counted against the user, who is locked (09) at the setting's limit. */
  private async codeFailed(
    user: UserRow,
    setting: LoginSetting,
    result: Exclude<CodeCheck, 'ok'>,
  ): Promise<never> {
    const state = await this.accounts.state(user.IdUsuario);
    const failures = state.IntentosCodigo + 1;
    if (failures >= setting.NumeroIntentos) await this.lock(user, setting, '09');
    await this.accounts.saveState(user.IdUsuario, { ...state, IntentosCodigo: failures });
    // The spec's code confirmation shows the lock message with 0 minutes for a bad code.
    throw new ApiError('CODE_INVALID', {
      messageKey: 'login.messages.codeInvalid',
      params: { codigo: result === 'expired' ? '09' : '08', minutos: 0 },
    });
  }

  /** POST /api/usuario/resendcode. */
  async resendCode(input: { username?: unknown }, address: string): Promise<{ mensaje: string }> {
    const username = String(input.username ?? '')
      .trim()
      .toLocaleUpperCase('es');
    await this.guard(username, address);
    const user = await this.accounts.user(username);
    // Only a sign-in waiting for its code gets a new one; nobody learns whether a name exists.
    if (user && (await this.codes.pending(user.IdUsuario, 'login'))) {
      await this.sendCode(user, await this.accounts.setting(user), 'login');
    }
    return { mensaje: 'login.codeResent' };
  }

  private async assignmentFor(userId: string, profileId: number, divisionId?: number): Promise<Assignment> {
    const user = await this.accounts.user(userId);
    if (!user) throw new ApiError('UNAUTHORIZED');
    const setting = await this.accounts.setting(user);
    const usable = await this.usableAssignments(user, setting);
    const chosen = usable.find(
      (a) => a.IdPerfil === profileId && (divisionId === undefined || a.IdDivision === divisionId),
    );
    if (!chosen) throw new ApiError('FORBIDDEN');
    return chosen;
  }

  private async openProfile(
    userId: string,
    assignment: Assignment,
  ): Promise<{ tokens: Tokens; perfil: CurrentProfile }> {
    const { tokens } = await this.sessions.open(userId, 'session', {
      IdUsuarioPerfil: assignment.IdUsuarioPerfil,
      IdPerfil: assignment.IdPerfil,
      IdCliente: assignment.IdCliente,
      IdDivision: assignment.IdDivision as number,
      IdCompania: assignment.IdCompania,
    });
    const user = (await this.accounts.user(userId)) as UserRow;
    return { tokens, perfil: await this.currentProfile(user, assignment) };
  }

  async currentProfile(user: UserRow, a: Assignment): Promise<CurrentProfile> {
    const characteristics = await characteristicsOf(this.db, this.registry, a.IdPerfil);
    const tipoPerfil = profileTypeOf(characteristics);
    return {
      IdPerfil: a.IdPerfil,
      Perfil: a.Perfil,
      IdCliente: a.IdCliente,
      IdDivision: a.IdDivision as number,
      Cliente: a.Cliente,
      Division: a.Division as string,
      IdPais: a.IdPais,
      Contratista: user.Contratista,
      ResponsableContratista: user.Contratista === 'S' && a.IdCompania !== null ? 'S' : 'N',
      IdCompania: a.IdCompania,
      Compania: a.Compania,
      RolAcreditacion: a.RolAcreditacion,
      IdUsuarioPerfil: a.IdUsuarioPerfil,
      tipoPerfil,
      esAutorizador: characteristics.includes('AUT') || characteristics.includes('ADM'),
      caracteristicas: characteristics,
    };
  }

  /**
   * POST /api/usuario/refreshTokenbyperfil: picks a profile and division, at sign-in or to switch
   * from the header. The session it came from ends.
   */
  async selectProfile(principal: Principal, input: { idPerfil?: unknown; idDivision?: unknown }) {
    if (!principal.sessionId) throw new ApiError('UNAUTHORIZED');
    const user = await this.accounts.user(principal.userId);
    if (!user) throw new ApiError('UNAUTHORIZED');
    const setting = await this.accounts.setting(user);
    const password = this.passwordState(user, setting);
    if (password.expired || password.firstChanged === 'N') {
      throw new ApiError('FORBIDDEN', {
        messageKey: password.expired ? 'password.expired' : 'password.firstChange',
      });
    }
    const assignment = await this.assignmentFor(
      principal.userId,
      Number(input.idPerfil),
      optionalNumber(input.idDivision),
    );
    const opened = await this.openProfile(principal.userId, assignment);
    await this.sessions.revoke(principal.sessionId, 'profile');
    return {
      accessToken: opened.tokens.accessToken,
      refreshToken: opened.tokens.refreshToken,
      perfil: opened.perfil,
    };
  }

  /** POST /api/usuario/refreshTokenPassword: password and profile at once (signing in again). */
  async refreshWithPassword(
    input: {
      username?: unknown;
      password?: unknown;
      idPerfil?: unknown;
      idDivision?: unknown;
      tokenClient?: unknown;
    },
    address: string,
  ) {
    const username = String(input.username ?? '')
      .trim()
      .toLocaleUpperCase('es');
    const password = String(input.password ?? '');
    await this.guard(username, address, input.tokenClient as string | undefined);
    const user = await this.knownUser(username, password);
    await this.checkLock(user);
    const setting = await this.accounts.setting(user);
    await this.checkPassword(user, setting, password);
    const assignment = await this.assignmentFor(
      user.IdUsuario,
      Number(input.idPerfil),
      optionalNumber(input.idDivision),
    );
    const opened = await this.openProfile(user.IdUsuario, assignment);
    return {
      accessToken: opened.tokens.accessToken,
      refreshToken: opened.tokens.refreshToken,
      perfil: opened.perfil,
    };
  }

  /** POST /api/usuario/unlock: the lock screen's password, back into the same profile and division. */
  async unlock(
    input: {
      idUsuario?: unknown;
      password?: unknown;
      idPerfil?: unknown;
      idDivision?: unknown;
      tokenClient?: unknown;
    },
    address: string,
  ) {
    return this.refreshWithPassword({ ...input, username: input.idUsuario }, address);
  }

  private async checkNewPassword(user: UserRow, setting: LoginSetting, password: string): Promise<void> {
    const problems: FieldProblem[] = passwordProblems(password, Accounts.policy(setting));
    if (!problems.length && isCommonPassword(password)) problems.push({ messageKey: 'password.common' });
    if (!problems.length && password.toLocaleUpperCase('es').includes(user.IdUsuario)) {
      problems.push({ messageKey: 'password.containsUser' });
    }
    if (problems.length) throw new ApiError('VALIDATION_FAILED', { fields: { Clave: problems[0] } });
  }

  private async reused(userId: string, password: string): Promise<boolean> {
    for (const hash of await this.accounts.passwordHistory(userId, PASSWORD_HISTORY)) {
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
    const now = this.now();
    const hash = await hashPassword(password);
    const write = (fn: (db: Db) => Promise<void>) =>
      this.db.isTransaction ? fn(this.db) : this.db.transaction().execute(fn);
    await write(async (trx) => {
      const accounts = this.accounts.with(trx);
      await accounts.storePassword(user.IdUsuario, hash, now);
      await accounts.updateUser(user.IdUsuario, {
        PrimeraClaveCambiada: firstChanged,
        FechaCaducidadClave:
          setting.CaducaClave === 'S'
            ? new Date(now + setting.PeriodoCaducidadDias * DAY).toISOString()
            : null,
      });
    });
  }

  /**
   * POST /api/SeguridadusuarioClave/actualizar: the change forced at sign-in (expired or first
   * password). Answers id 0 when saved, 2 when the password was used before. The session ends:
   * the user signs in again with the new password.
   */
  async changeForced(principal: Principal, input: { IdUsuario?: unknown; Clave?: unknown }) {
    const userId = String(input.IdUsuario ?? principal.userId).toLocaleUpperCase('es');
    if (userId !== principal.userId) throw new ApiError('FORBIDDEN');
    const user = await this.accounts.user(userId);
    if (!user) throw new ApiError('UNAUTHORIZED');
    const setting = await this.accounts.setting(user);
    const password = String(input.Clave ?? '');
    await this.checkNewPassword(user, setting, password);
    if (await this.reused(userId, password)) return { id: 2, mensaje: 'password.mustDiffer' };
    await this.setPassword(user, setting, password);
    await this.sessions.revokeUser(userId, 'password');
    return { id: 0, mensaje: 'password.changed' };
  }

  /** POST /api/SeguridadusuarioClave/cambiarClave: the security page's change, with the previous password. */
  async changeOwn(principal: Principal, input: { ClaveAnterior?: unknown; Clave?: unknown }) {
    const user = await this.accounts.user(principal.userId);
    if (!user) throw new ApiError('UNAUTHORIZED');
    const setting = await this.accounts.setting(user);
    const hash = await this.accounts.passwordHash(user.IdUsuario);
    if (!hash || !(await verifyPassword(hash, String(input.ClaveAnterior ?? '')))) {
      throw new ApiError('VALIDATION_FAILED', {
        fields: { ClaveAnterior: { messageKey: 'password.previousWrong' } },
      });
    }
    const password = String(input.Clave ?? '');
    await this.checkNewPassword(user, setting, password);
    if (await this.reused(user.IdUsuario, password)) return { id: 2, mensaje: 'password.mustDiffer' };
    await this.setPassword(user, setting, password);
    return { id: 0, mensaje: 'password.changed' };
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
    await this.guard(username, address, input.tokenClient as string | undefined);
    const user = await this.accounts.user(username);
    const setting = user ? await this.accounts.setting(user) : undefined;
    const policy = {
      longitudClave: setting?.LongitudClave ?? PASSWORD.defaultMinLength,
      nivelSeguridadClave: setting?.NivelSeguridadClave ?? PASSWORD.defaultLevel,
    };
    const code = input.Codigo === undefined || input.Codigo === null ? '' : String(input.Codigo).trim();

    if (!code) {
      const email = String(input.Identificador ?? '')
        .trim()
        .toLowerCase();
      if (!user || !setting || !user.Correo || user.Correo.toLowerCase() !== email || user.Activo !== 'S') {
        throw new ApiError('BAD_REQUEST', { messageKey: 'recovery.mismatch' });
      }
      await this.sendCode(user, setting, 'recovery', user.Correo);
      return { enviado: true, ...policy };
    }
    if (!user || !setting) throw new ApiError('CODE_INVALID', { messageKey: 'login.messages.codeInvalid' });
    const newPassword =
      input.NuevaContrasenia === undefined || input.NuevaContrasenia === null
        ? ''
        : String(input.NuevaContrasenia);
    if (!newPassword) {
      if ((await this.codes.check(user.IdUsuario, 'recovery', code, { consume: false })) !== 'ok') {
        throw new ApiError('CODE_INVALID', { messageKey: 'login.messages.codeInvalid' });
      }
      return { valido: true, ...policy };
    }
    await this.checkNewPassword(user, setting, newPassword);
    if (await this.reused(user.IdUsuario, newPassword))
      return { id: 2, mensaje: 'password.mustDiffer', ...policy };
    if ((await this.codes.check(user.IdUsuario, 'recovery', code)) !== 'ok') {
      throw new ApiError('CODE_INVALID', { messageKey: 'login.messages.codeInvalid' });
    }
    await this.setPassword(user, setting, newPassword);
    await this.clearLocks(user.IdUsuario);
    await this.sessions.revokeUser(user.IdUsuario, 'recovery');
    return { id: 0, mensaje: 'password.changed', ...policy };
  }

  /** GET /api/usuario/getUserByToken: who is signed in, and in which profile. */
  async whoAmI(principal: Principal, session?: SessionRow) {
    const user = await this.accounts.user(principal.userId);
    if (!user) throw new ApiError('UNAUTHORIZED');
    const setting = await this.accounts.setting(user);
    const assignments = await this.usableAssignments(user, setting).catch(() => [] as Assignment[]);
    const login = this.response(user, setting, assignments, undefined, setting.DobleAutenticacion === 'S');
    const current = assignments.find((a) => a.IdUsuarioPerfil === session?.IdUsuarioPerfil);
    const { accessToken: _a, refreshToken: _r, ...rest } = login;
    return {
      ...rest,
      correo: user.Correo,
      perfilActual: current ? await this.currentProfile(user, current) : null,
    };
  }

  /** GET /api/SeguridadUsuarioPerfil/configuracionByUsuario: the user's password policy and lock timeout. */
  async settingOf(userId: string) {
    const user = await this.accounts.user(userId);
    if (!user) throw new ApiError('NOT_FOUND');
    const setting = await this.accounts.setting(user);
    return {
      IdConfiguracionLogeo: setting.IdConfiguracionLogeo,
      longitudClave: setting.LongitudClave,
      nivelSeguridadClave: setting.NivelSeguridadClave,
      dobleAutenticacion: setting.DobleAutenticacion,
      notificarPor: setting.NotificarPor,
      segundosInactividad: setting.SegundosInactividad,
      caducaClave: setting.CaducaClave,
      periodoCaducidadDias: setting.PeriodoCaducidadDias,
    };
  }

  /** Sets a user's first password (new users, demo data) without the history check. */
  async initialPassword(userId: string, password: string, firstChanged: 'S' | 'N' = 'N'): Promise<void> {
    const user = await this.accounts.user(userId);
    if (!user) throw new ApiError('NOT_FOUND');
    await this.setPassword(user, await this.accounts.setting(user), password, { firstChanged });
  }
}

function optionalNumber(value: unknown): number | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  const n = Number(value);
  return Number.isFinite(n) ? n : undefined;
}
