import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from '../../errors.js';
import { field, objectOf, resultResponses } from '../../routes/responses.js';
import { signInStep } from './sign-in-step.js';

type Body = Record<string, unknown>;

const result = (description: string) => resultResponses(description, [400, 401, 403, 409, 423, 429]);
const username = field.text(100);
/** Six digits of the app, or a recovery code (ten characters, a dash allowed). */
const codigo = field.text(20);
const ticket = field.text(100);

function payload(request: FastifyRequest): Body {
  const value = request.body;
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value)) throw new ApiError('BAD_REQUEST');
  return value as Body;
}

/**
 * The second factor by authenticator app (TOTP): the sign-in's step after the password, the
 * enrolment a setting that requires the app owes at sign-in, and the security page's enrolment.
 */
export default async function totpRoutes(fastify: FastifyInstance): Promise<void> {
  const auth = fastify.auth;
  const tags = ['authentication'];
  const publicRoute = { config: { public: true } };

  fastify.post(
    '/usuario/validatetotp',
    {
      ...publicRoute,
      schema: {
        tags,
        summary: 'Confirm the authenticator app’s code (or a recovery code) of a sign-in',
        description:
          'After /usuario/authenticate answered autenticadorApp S (tokens empty), within 10 minutes. Answers the login response with tokens, as validatelogin. A wrong, replayed or spent code counts like a wrong e-mail code (lock 09).',
        body: objectOf({ username, codigo }, ['username', 'codigo']),
        response: result('Login response with tokens'),
      },
    },
    async (request) => signInStep(() => auth.signIn.validateTotp(payload(request), request.ip)),
  );

  fastify.post(
    '/usuario/enrolartotp',
    {
      ...publicRoute,
      schema: {
        tags,
        summary: 'The secret of the authenticator app a sign-in must enrol (its setting requires it)',
        description:
          'With the ticketAutenticador of a login response whose enrolarAutenticador is S: { secreto, uri } (otpauth:// for the QR).',
        body: objectOf({ username, ticket }, ['username', 'ticket']),
        response: result('{ secreto, uri }'),
      },
    },
    async (request) => ({ result: await auth.signIn.enrolOffer(payload(request), request.ip) }),
  );

  fastify.post(
    '/usuario/confirmartotp',
    {
      ...publicRoute,
      schema: {
        tags,
        summary: 'Confirm the enrolment a sign-in owes with a code of the app',
        description:
          'The login response with tokens, and codigosRecuperacion: ten recovery codes shown this once.',
        body: objectOf({ username, ticket, codigo }, ['username', 'ticket', 'codigo']),
        response: result('Login response with tokens and codigosRecuperacion'),
      },
    },
    async (request) => ({ result: await auth.signIn.enrolConfirm(payload(request), request.ip) }),
  );

  fastify.get(
    '/SeguridadSegundoFactor/estado',
    {
      schema: {
        tags,
        summary:
          'The signed-in user’s second factor: what the setting says (N, O, S), enrolled, recovery codes left',
        response: result('{ configuracion, activo, codigosRestantes }'),
      },
    },
    async (request) => ({ result: await auth.secondFactor.status(request.principal) }),
  );

  fastify.post(
    '/SeguridadSegundoFactor/iniciar',
    {
      schema: {
        tags,
        summary: 'Offer a new authenticator-app secret to the signed-in user',
        response: result('{ secreto, uri }'),
      },
    },
    async (request) => ({ result: await auth.secondFactor.offer(request.principal) }),
  );

  fastify.post(
    '/SeguridadSegundoFactor/confirmar',
    {
      schema: {
        tags,
        summary: 'Confirm the offered secret with a code of the app: enrolled, ten recovery codes shown once',
        body: objectOf({ codigo }, ['codigo']),
        response: result('{ codigosRecuperacion }'),
      },
    },
    async (request) => ({
      result: await auth.secondFactor.confirm(request.principal, payload(request), request.ip),
    }),
  );

  fastify.post(
    '/SeguridadSegundoFactor/desactivar',
    {
      schema: {
        tags,
        summary: 'Turn the authenticator app off with a current code (not when the setting requires it)',
        body: objectOf({ codigo }, ['codigo']),
        response: result('{ ok }'),
      },
    },
    async (request) => ({
      result: await auth.secondFactor.disable(request.principal, payload(request), request.ip),
    }),
  );
}
