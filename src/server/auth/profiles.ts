import {
  type SessionProfile as CurrentProfile,
  profileTypeOf,
  type SessionAnswer,
} from '../../shared/session.js';
import { ApiError } from '../errors.js';
import type { Principal } from '../principal.js';
import type { Assignment, UserRow } from './accounts.js';
import type { Attempts } from './attempts.js';
import type { AuthContext } from './context.js';
import type { Eligibility } from './eligibility.js';
import { characteristicsOf } from './permissions.js';
import type { SessionRow, Tokens } from './sessions.js';

function optionalNumber(value: unknown): number | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  const n = Number(value);
  return Number.isFinite(n) ? n : undefined;
}

/**
 * Profiles and divisions: choosing one at sign-in or switching, signing in again with password and
 * profile at once, locking and unlocking the screen, and who is signed in.
 */
export class Profiles {
  constructor(
    private readonly ctx: AuthContext,
    private readonly attempts: Attempts,
    private readonly eligibility: Eligibility,
  ) {}

  /**
   * POST /api/usuario/refreshTokenbyperfil: picks a profile and division, at sign-in or to switch
   * from the header. The session it came from ends.
   */
  async selectProfile(
    principal: Principal,
    input: { idPerfil?: unknown; idDivision?: unknown },
  ): Promise<SessionAnswer> {
    if (!principal.sessionId) throw new ApiError('UNAUTHORIZED');
    const user = await this.ctx.accounts.user(principal.userId);
    if (!user) throw new ApiError('UNAUTHORIZED');
    // A session exists only once the password, and the code where one is asked, were given.
    this.eligibility.requireProfileStep(user, await this.ctx.accounts.setting(user), true);
    const assignment = await this.eligibility.assignmentFor(
      principal.userId,
      Number(input.idPerfil),
      optionalNumber(input.idDivision),
    );
    const opened = await this.openProfile(principal.userId, assignment);
    await this.ctx.sessions.revoke(principal.sessionId, 'profile');
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
  ): Promise<SessionAnswer> {
    const user = await this.passwordChecked(input.username, input, address, false);
    const assignment = await this.eligibility.assignmentFor(
      user.IdUsuario,
      Number(input.idPerfil),
      optionalNumber(input.idDivision),
    );
    await this.eligibility.signedIn(user);
    const opened = await this.openProfile(user.IdUsuario, assignment);
    return {
      accessToken: opened.tokens.accessToken,
      refreshToken: opened.tokens.refreshToken,
      perfil: opened.perfil,
    };
  }

  /**
   * The password steps every path to a session shares: throttle, known user, lock, password, and
   * the login machine's word on whether this user may go straight to a profile (no code or forced
   * change pending; `resuming` a locked session that gave its code at sign-in).
   */
  private async passwordChecked(
    rawUsername: unknown,
    input: { password?: unknown; tokenClient?: unknown },
    address: string,
    resuming: boolean,
  ) {
    const username = String(rawUsername ?? '')
      .trim()
      .toLocaleUpperCase('es');
    const password = String(input.password ?? '');
    await this.attempts.guard(username, address, input.tokenClient as string | undefined);
    const user = await this.attempts.knownUser(username, password, address);
    await this.attempts.checkLock(user);
    const setting = await this.ctx.accounts.setting(user);
    await this.attempts.checkPassword(user, setting, password, address);
    this.eligibility.requireProfileStep(
      user,
      setting,
      resuming,
      await this.ctx.authenticator.enrolled(user.IdUsuario),
    );
    return user;
  }

  /** POST /api/usuario/lock: the screen locks; the ticket and the password bring the session back. */
  async lockScreen(principal: Principal): Promise<{ ticket: string }> {
    if (!principal.sessionId) throw new ApiError('UNAUTHORIZED');
    return { ticket: await this.ctx.sessions.lock(principal.sessionId) };
  }

  /**
   * POST /api/usuario/unlock: the lock screen's password. With the ticket the lock gave, the locked
   * session resumes in its profile and division (it gave its code at sign-in); without one this
   * is signing in again, and a user whose setting asks for a code must go through the sign-in.
   */
  async unlock(
    input: {
      idUsuario?: unknown;
      password?: unknown;
      idPerfil?: unknown;
      idDivision?: unknown;
      ticket?: unknown;
      tokenClient?: unknown;
    },
    address: string,
  ): Promise<SessionAnswer> {
    const ticket = typeof input.ticket === 'string' ? input.ticket : '';
    if (!ticket) return this.refreshWithPassword({ ...input, username: input.idUsuario }, address);
    const user = await this.passwordChecked(input.idUsuario, input, address, true);
    const resumed = await this.ctx.sessions.resume(ticket, user.IdUsuario);
    if (!resumed) throw new ApiError('UNAUTHORIZED', { messageKey: 'lock.ticketInvalid' });
    const assignment = await this.eligibility.assignmentFor(
      user.IdUsuario,
      resumed.session.IdPerfil as number,
      resumed.session.IdDivision as number,
    );
    return {
      accessToken: resumed.tokens.accessToken,
      refreshToken: resumed.tokens.refreshToken,
      perfil: await this.currentProfile(user, assignment),
    };
  }

  /** GET /api/usuario/getUserByToken: who is signed in, and in which profile. */
  async whoAmI(principal: Principal, session?: SessionRow) {
    const user = await this.ctx.accounts.user(principal.userId);
    if (!user) throw new ApiError('UNAUTHORIZED');
    const setting = await this.ctx.accounts.setting(user);
    const assignments = await this.eligibility
      .usableAssignments(user, setting)
      .catch(() => [] as Assignment[]);
    const login = this.eligibility.loginResponse(
      user,
      setting,
      assignments,
      undefined,
      setting.DobleAutenticacion === 'S',
    );
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
    const user = await this.ctx.accounts.user(userId);
    if (!user) throw new ApiError('NOT_FOUND');
    const setting = await this.ctx.accounts.setting(user);
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

  async openProfile(
    userId: string,
    assignment: Assignment,
  ): Promise<{ tokens: Tokens; perfil: CurrentProfile }> {
    const { tokens } = await this.ctx.sessions.open(userId, 'session', {
      IdUsuarioPerfil: assignment.IdUsuarioPerfil,
      IdPerfil: assignment.IdPerfil,
      IdCliente: assignment.IdCliente,
      IdDivision: assignment.IdDivision as number,
      IdCompania: assignment.IdCompania,
    });
    const user = (await this.ctx.accounts.user(userId)) as UserRow;
    return { tokens, perfil: await this.currentProfile(user, assignment) };
  }

  async currentProfile(user: UserRow, a: Assignment): Promise<CurrentProfile> {
    const characteristics = await characteristicsOf(this.ctx.db, this.ctx.registry, a.IdPerfil);
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
}
