import { fromPromise } from 'xstate';
import type { AppEnrolment, LoginAnswer, SessionAnswer } from '../../../../workflows/login.machine.js';
import { APPLICATION_ID, APPLICATION_TYPE, SESSION } from '../../../shared/constants.js';
import { withChallenge } from '../../challenge/challenge.js';
import { apiCall } from '../../session/http.js';
import { type CurrentProfile, type DivisionChoice, type MenuItem, session } from '../../session/store.js';

const APP = { idAplicacion: APPLICATION_ID, idTipoAplicacion: APPLICATION_TYPE };

type Answer = LoginAnswer & {
  division: DivisionChoice[];
  segundosInactividad: number;
};

/**
 * Keeps what the console needs of a session with a profile (spec section 3's auth state and
 * profile store): the tokens, the user, the current profile, the ones to switch to, the menu.
 */
export async function keepSession(
  user: { username: string; fullName: string },
  chosen: SessionAnswer,
  lists: {
    profiles: Array<{ IdPerfil: number; Perfil: string }>;
    divisions: DivisionChoice[];
    lockSeconds: number;
  },
): Promise<void> {
  session.saveAuth({ accessToken: chosen.accessToken, refreshToken: chosen.refreshToken, ...user });
  const current = chosen.perfil as CurrentProfile;
  const query = new URLSearchParams({
    IdCliente: String(current.IdCliente),
    IdPerfil: String(current.IdPerfil),
    IdUsuario: user.username,
    IdAplicacion: APPLICATION_ID,
  });
  const menu = await apiCall<MenuItem[]>('GET', `/api/SeguridadMenu/obtenerMenu?${query}`);
  session.saveProfile({ current, menu, ...lists });
  session.setLocked(false);
}

/** The sign-in calls of spec section 7, as the login machine's actors. */
export const loginActors = {
  authenticate: fromPromise<LoginAnswer, { username: string; password: string }>(({ input }) =>
    withChallenge(input.username, (tokenClient) =>
      apiCall<LoginAnswer>('POST', '/api/usuario/authenticate', { ...input, ...APP, tokenClient }),
    ),
  ),
  validateCode: fromPromise<LoginAnswer, { username: string; code: string }>(({ input }) =>
    apiCall<LoginAnswer>('POST', '/api/usuario/validatelogin', {
      username: input.username,
      codigo: input.code,
      ...APP,
    }),
  ),
  validateAppCode: fromPromise<LoginAnswer, { username: string; code: string }>(({ input }) =>
    apiCall<LoginAnswer>('POST', '/api/usuario/validatetotp', {
      username: input.username,
      codigo: input.code,
    }),
  ),
  offerApp: fromPromise<AppEnrolment, { username: string; ticket: string }>(({ input }) =>
    apiCall<AppEnrolment>('POST', '/api/usuario/enrolartotp', input),
  ),
  confirmApp: fromPromise<
    { answer: LoginAnswer; codes: string[] },
    { username: string; ticket: string; code: string }
  >(async ({ input }) => {
    const { codigosRecuperacion, ...answer } = await apiCall<LoginAnswer & { codigosRecuperacion: string[] }>(
      'POST',
      '/api/usuario/confirmartotp',
      { username: input.username, ticket: input.ticket, codigo: input.code },
    );
    return { answer, codes: codigosRecuperacion };
  }),
  resendCode: fromPromise<unknown, { username: string }>(({ input }) =>
    withChallenge(input.username, (tokenClient) =>
      apiCall('POST', '/api/usuario/resendcode', { username: input.username, tokenClient }),
    ),
  ),
  changePassword: fromPromise<{ id: number }, { answer: LoginAnswer; password: string }>(({ input }) =>
    apiCall<{ id: number }>(
      'POST',
      '/api/SeguridadusuarioClave/actualizar',
      {
        IdUsuario: input.answer.username,
        Clave: input.password,
        IdUsuarioModificacion: input.answer.username,
        IdTipoAplicacion: APPLICATION_TYPE,
      },
      input.answer.accessToken,
    ),
  ),
  selectProfile: fromPromise<SessionAnswer, { answer: LoginAnswer; idPerfil: number; idDivision: number }>(
    async ({ input }) => {
      const answer = input.answer as Answer;
      const chosen = await apiCall<SessionAnswer>(
        'POST',
        '/api/usuario/refreshTokenbyperfil',
        { idPerfil: input.idPerfil, idDivision: input.idDivision, tokenClient: '' },
        answer.accessToken,
      );
      await keepSession({ username: answer.username, fullName: answer.fullName }, chosen, {
        profiles: answer.perfil,
        divisions: answer.division,
        // A setting saved before the minimum existed still locks no sooner than it.
        lockSeconds: Math.max(answer.segundosInactividad, SESSION.minimumLockSeconds),
      });
      return chosen;
    },
  ),
};

/** The forgotten-password calls: one endpoint, three steps. */
export const forgotActors = {
  sendCode: fromPromise<
    { longitudClave: number; nivelSeguridadClave: string },
    { username: string; email: string }
  >(({ input }) =>
    withChallenge(input.username, (tokenClient) =>
      apiCall('POST', '/api/SeguridadCodigoAutenticacion/RecuperarClave', {
        IdAplicacion: APPLICATION_ID,
        IdTipoAplicacion: APPLICATION_TYPE,
        Usuario: input.username,
        Identificador: input.email,
        NotificarPor: 'C',
        tokenClient,
      }),
    ),
  ),
  checkCode: fromPromise<
    { longitudClave: number; nivelSeguridadClave: string },
    { username: string; code: string }
  >(({ input }) =>
    apiCall('POST', '/api/SeguridadCodigoAutenticacion/RecuperarClave', {
      Usuario: input.username,
      Codigo: input.code,
    }),
  ),
  savePassword: fromPromise<
    { id: number; longitudClave: number; nivelSeguridadClave: string },
    { username: string; code: string; password: string }
  >(({ input }) =>
    apiCall('POST', '/api/SeguridadCodigoAutenticacion/RecuperarClave', {
      Usuario: input.username,
      Codigo: input.code,
      NuevaContrasenia: input.password,
    }),
  ),
};
