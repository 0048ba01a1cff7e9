import { nextLoginStep } from '../../../workflows/login.machine.js';
import type { LoginResponse, ProfileEntry } from '../../shared/session.js';
import { ApiError } from '../errors.js';
import type { Assignment, LoginSetting, UserRow } from './accounts.js';
import type { AuthContext } from './context.js';
import { loginError } from './login-errors.js';
import { ACCESS_TOKEN_MINUTES, type Tokens } from './sessions.js';

const DAY = 86_400_000;

/**
 * Whether a signed-in user may work, and in what: activity, profiles, divisions and companies
 * (the refusals 10, 02, 03, 11 and 12), the state of the password, the steps of the login machine
 * still owed, and the login response that tells the console all of it.
 */
export class Eligibility {
  constructor(private readonly ctx: AuthContext) {}

  /** Activity, profiles, divisions and companies: the refusals 10, 02, 03, 11 and 12. */
  async usableAssignments(user: UserRow, setting: LoginSetting): Promise<Assignment[]> {
    if (user.Activo !== 'S') throw loginError('10');
    if (setting.DiasInactivacion > 0 && user.FechaUltimoAcceso) {
      const idle = this.ctx.now() - Date.parse(user.FechaUltimoAcceso);
      if (idle > setting.DiasInactivacion * DAY) {
        await this.ctx.accounts.updateUser(user.IdUsuario, { Activo: 'N' });
        throw loginError('10');
      }
    }
    const all = await this.ctx.accounts.assignments(user.IdUsuario);
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

  passwordState(user: UserRow, setting: LoginSetting) {
    // A user the directory validates signs in with no password of this product: none expires.
    if (user.ValidarDirectorio === 'S') return { expired: false, daysLeft: null, firstChanged: 'S' as const };
    const expiresAt = user.FechaCaducidadClave ? Date.parse(user.FechaCaducidadClave) : null;
    const expires = setting.CaducaClave === 'S' && expiresAt !== null;
    return {
      expired: expires && (expiresAt as number) <= this.ctx.now(),
      daysLeft: expires ? Math.max(0, Math.ceil(((expiresAt as number) - this.ctx.now()) / DAY)) : null,
      firstChanged: setting.CambiarPrimeraClave === 'S' ? user.PrimeraClaveCambiada : ('S' as const),
    };
  }

  /**
   * Every path that turns a password into a working session passes the login machine's steps:
   * the code when double authentication asks for one and this sign-in has not given it, then
   * the forced change of an expired or first password. Only the profile step may open a session.
   * A user `enrolled` in an authenticator app the setting offers owes its code instead of the
   * e-mail's; one whose setting requires the app and who has none owes the enrolment.
   */
  requireProfileStep(user: UserRow, setting: LoginSetting, codeGiven: boolean, enrolled = false): void {
    const password = this.passwordState(user, setting);
    const app = enrolled && setting.AutenticadorApp !== 'N';
    const step = nextLoginStep({
      accessToken: codeGiven ? 'given' : '',
      autenticadorApp: app ? 'S' : 'N',
      enrolarAutenticador: setting.AutenticadorApp === 'S' && !enrolled ? 'S' : 'N',
      dobleAutenticacion: setting.DobleAutenticacion === 'S' && !app ? 'S' : 'N',
      cambiarClaveCaducada: password.expired ? 'S' : 'N',
      primeraClaveCambiada: password.firstChanged,
    });
    if (step === 'code' || step === 'appCode' || step === 'enrolApp') throw loginError('08');
    if (step === 'changePassword')
      throw new ApiError('FORBIDDEN', {
        messageKey: password.expired ? 'password.expired' : 'password.firstChange',
      });
  }

  loginResponse(
    user: UserRow,
    setting: LoginSetting,
    assignments: Assignment[],
    tokens: Tokens | undefined,
    double: boolean,
    app: Pick<LoginResponse, 'autenticadorApp' | 'enrolarAutenticador' | 'ticketAutenticador'> = {},
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
      autenticadorApp: app.autenticadorApp ?? 'N',
      enrolarAutenticador: app.enrolarAutenticador ?? 'N',
      ...(app.ticketAutenticador ? { ticketAutenticador: app.ticketAutenticador } : {}),
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

  async assignmentFor(userId: string, profileId: number, divisionId?: number): Promise<Assignment> {
    const user = await this.ctx.accounts.user(userId);
    if (!user) throw new ApiError('UNAUTHORIZED');
    const setting = await this.ctx.accounts.setting(user);
    const usable = await this.usableAssignments(user, setting);
    const chosen = usable.find(
      (a) => a.IdPerfil === profileId && (divisionId === undefined || a.IdDivision === divisionId),
    );
    if (!chosen) throw new ApiError('FORBIDDEN');
    return chosen;
  }

  async signedIn(user: UserRow): Promise<void> {
    await this.ctx.accounts.updateUser(user.IdUsuario, {
      FechaUltimoAcceso: new Date(this.ctx.now()).toISOString(),
    });
  }
}
