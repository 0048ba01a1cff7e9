import type { FastifyInstance, FastifyRequest } from 'fastify';
import { APPLICATION_ID, APPLICATION_TYPE } from '../../../shared/constants.js';
import { noChallenge } from '../../auth/challenge.js';
import { ApiError } from '../../errors.js';
import { field, objectOf, resultResponses } from '../../routes/responses.js';
import { signInStep } from './sign-in-step.js';

type Body = Record<string, unknown>;

const result = (description: string) => resultResponses(description, [400, 401, 403, 423, 429]);
const body = objectOf;
/** Longer than any user name (20), so a long one is an unknown user rather than a malformed call. */
const username = field.text(100);
const password = field.text(128);
const appFields = {
  idAplicacion: field.text(10, { default: APPLICATION_ID }),
  idTipoAplicacion: field.text(10, { default: APPLICATION_TYPE }),
  tokenClient: field.text(4096, {
    description:
      'The answer to a sign-in challenge of GET /api/auth/challenge (base64 of the ALTCHA payload): single use, expiring; a missing or wrong one is login code 07.',
  }),
};

function payload(request: FastifyRequest): Body {
  const value = request.body;
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value)) throw new ApiError('BAD_REQUEST');
  return value as Body;
}

/**
 * The sign-in calls of spec section 7 at their paths, answering inside `result`. The user name is
 * upper-cased; client, profile, division and company never come from the body but from the token.
 */
export default async function authRoutes(fastify: FastifyInstance): Promise<void> {
  const auth = fastify.auth;
  const tags = ['authentication'];
  const publicRoute = { config: { public: true } };

  fastify.get(
    '/auth/challenge',
    {
      ...publicRoute,
      schema: {
        tags,
        summary: 'A proof-of-work challenge for the next sign-in call (its answer is tokenClient)',
        description:
          'ALTCHA challenge (parameters, signature), answerable once within 10 minutes; harder after failed tries of the address or of `usuario`. `{ enabled: false }` when the server runs without it (SIGN_IN_CHALLENGE=off).',
        querystring: objectOf({ usuario: username }),
        response: {
          200: {
            type: 'object',
            additionalProperties: true,
            properties: { enabled: { type: 'boolean' }, signature: { type: 'string' } },
          },
        },
      },
    },
    async (request, reply) => {
      if (auth.challenges === noChallenge) return { enabled: false };
      const { usuario } = request.query as { usuario?: string };
      reply.header('cache-control', 'no-store');
      return auth.challenges.issue({
        address: request.ip,
        username: usuario?.trim().toLocaleUpperCase('es') || undefined,
      });
    },
  );

  fastify.post(
    '/usuario/authenticate',
    {
      ...publicRoute,
      schema: {
        tags,
        summary: 'Sign in with user name and password (step 1)',
        description:
          'Answers the login response of spec section 3. With double authentication the tokens are empty and a code is sent: continue with validatelogin. Refusals carry params.codigo 01–12 (and params.minutos for 04 and 09).',
        body: body({ username, password, ...appFields }, ['username', 'password']),
        response: result('Login response'),
      },
    },
    async (request) => signInStep(() => auth.signIn.authenticate(payload(request), request.ip)),
  );

  fastify.post(
    '/usuario/validatelogin',
    {
      ...publicRoute,
      schema: {
        tags,
        summary: 'Confirm the verification code of a double authentication',
        body: body({ username, codigo: field.text(10), ...appFields }, ['username', 'codigo']),
        response: result('Login response with tokens'),
      },
    },
    async (request) => signInStep(() => auth.signIn.validateLogin(payload(request), request.ip)),
  );

  fastify.post(
    '/usuario/resendcode',
    {
      ...publicRoute,
      schema: {
        tags,
        summary: 'Send the verification code again',
        body: body({ username, tokenClient: appFields.tokenClient }, ['username']),
        response: result('Message'),
      },
    },
    async (request) => signInStep(() => auth.signIn.resendCode(payload(request), request.ip)),
  );

  fastify.post(
    '/usuario/refreshTokenbyperfil',
    {
      config: { stage: 'any' },
      schema: {
        tags,
        summary: 'Choose (or switch) the profile and division of the session',
        body: body({ idPerfil: field.id(), idDivision: field.id(), tokenClient: appFields.tokenClient }, [
          'idPerfil',
        ]),
        response: result('accessToken, refreshToken and the current profile'),
      },
    },
    async (request) => signInStep(() => auth.profiles.selectProfile(request.principal, payload(request))),
  );

  fastify.post(
    '/usuario/refreshTokenPassword',
    {
      ...publicRoute,
      schema: {
        tags,
        summary: 'Sign in again with password and profile at once',
        body: body({ username, password, idPerfil: field.id(), idDivision: field.id(), ...appFields }, [
          'username',
          'password',
          'idPerfil',
        ]),
        response: result('accessToken, refreshToken and the current profile'),
      },
    },
    async (request) => signInStep(() => auth.profiles.refreshWithPassword(payload(request), request.ip)),
  );

  fastify.post(
    '/usuario/unlock',
    {
      ...publicRoute,
      schema: {
        tags,
        summary: 'Unlock the screen with the password, back into the same profile and division',
        description:
          'With the ticket POST /usuario/lock gave, the locked session resumes; without it this signs in again, which a user whose setting asks for a code cannot do here (code 08).',
        body: body(
          {
            idUsuario: username,
            password,
            idPerfil: field.id(),
            idDivision: field.id(),
            ticket: field.text(100),
            tokenClient: appFields.tokenClient,
          },
          ['idUsuario', 'password', 'idPerfil'],
        ),
        response: result('accessToken, refreshToken and the current profile'),
      },
    },
    async (request) => signInStep(() => auth.profiles.unlock(payload(request), request.ip)),
  );

  fastify.post(
    '/usuario/lock',
    {
      schema: {
        tags,
        summary: 'Lock the screen: the session’s refresh tokens stop working; a ticket for unlock',
        response: result('{ ticket }'),
      },
    },
    async (request) => ({ result: await auth.profiles.lockScreen(request.principal) }),
  );

  fastify.get(
    '/usuario/getUserByToken',
    {
      config: { stage: 'any' },
      schema: { tags, summary: 'The signed-in user and current profile', response: result('User') },
    },
    async (request) => {
      const session = await auth.sessions.active(request.principal.sessionId as string);
      return { result: await auth.profiles.whoAmI(request.principal, session) };
    },
  );

  fastify.post(
    '/accesskey/expiretoken',
    {
      config: { stage: 'any', allowExpired: true },
      schema: {
        tags,
        summary: 'Sign out: the session and its refresh tokens stop working',
        response: result('Done'),
      },
    },
    async (request) => {
      await auth.sessions.revoke(request.principal.sessionId as string, 'logout');
      return { result: { ok: true } };
    },
  );

  fastify.post(
    '/SeguridadusuarioClave/actualizar',
    {
      config: { stage: 'any' },
      schema: {
        tags,
        summary: 'Change an expired or first password (the password-change call of spec section 7)',
        description:
          'result.id: 0 saved (the session ends: sign in again), 2 the password was used before. Without ClaveAnterior only in the sign-in’s forced step (expired or first password, a session minutes old); otherwise ClaveAnterior is required.',
        body: body(
          {
            IdCliente: field.id(),
            IdUsuario: username,
            Clave: password,
            ClaveAnterior: password,
            IdUsuarioModificacion: username,
            IdTipoAplicacion: appFields.idTipoAplicacion,
          },
          ['Clave'],
        ),
        response: result('{ id, mensaje }'),
      },
    },
    async (request) => ({ result: await auth.passwords.changeForced(request.principal, payload(request)) }),
  );

  fastify.post(
    '/SeguridadusuarioClave/cambiarClave',
    {
      schema: {
        tags,
        summary: 'Change one’s own password (security page)',
        description: 'result.id: 0 saved, 2 the password was used before.',
        body: body({ IdCliente: field.id(), ClaveAnterior: password, Clave: password }, [
          'ClaveAnterior',
          'Clave',
        ]),
        response: result('{ id, mensaje }'),
      },
    },
    async (request) => ({ result: await auth.passwords.changeOwn(request.principal, payload(request)) }),
  );

  fastify.post(
    '/SeguridadCodigoAutenticacion/RecuperarClave',
    {
      ...publicRoute,
      schema: {
        tags,
        summary: 'Recover a forgotten password in three steps',
        description:
          'Usuario and Identificador (e-mail): a 6-digit code is sent. Usuario and Codigo: the code is checked. Usuario, Codigo and NuevaContrasenia: the password is changed (result.id 0, or 2 when used before). Every answer carries longitudClave and nivelSeguridadClave.',
        body: body(
          {
            IdAplicacion: appFields.idAplicacion,
            IdTipoAplicacion: appFields.idTipoAplicacion,
            Identificador: field.text(254),
            Usuario: username,
            NotificarPor: field.text(1),
            Codigo: field.text(10),
            NuevaContrasenia: password,
            tokenClient: appFields.tokenClient,
          },
          ['Usuario'],
        ),
        response: result('Step result'),
      },
    },
    async (request) => ({ result: await auth.passwords.recover(payload(request), request.ip) }),
  );

  fastify.get(
    '/SeguridadUsuarioPerfil/configuracionByUsuario',
    {
      config: { stage: 'any' },
      schema: {
        tags,
        summary: 'The signed-in user’s password policy and screen-lock timeout',
        querystring: objectOf({ IdUsuario: username }),
        response: result('Login setting'),
      },
    },
    async (request) => ({ result: await auth.profiles.settingOf(request.principal.userId) }),
  );
}
