import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { APPLICATION_ID } from '../../../shared/constants.js';
import { DIRECTORY } from '../../../shared/directory.js';
import { FLOW_MINUTES } from '../../auth/directory.js';
import { ApiError } from '../../errors.js';
import { languageOf, t } from '../../i18n.js';
import { field, objectOf, resultResponses } from '../../routes/responses.js';

/** The popup's browser binding: a cookie only the callback receives. */
const BINDING_COOKIE = 'acr_directorio';
const BASE = '/api/UsuarioAD';
const CALLBACK_PATH = `${BASE}/callback`;

const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * The address the issuer sends the user back to: PUBLIC_URL (the console's public address, as
 * registered at the issuer) or, without it, the address this request came to.
 */
function redirectUri(request: FastifyRequest): string {
  const configured = process.env.PUBLIC_URL?.replace(/\/+$/, '');
  return `${configured || `${request.protocol}://${request.host}`}${CALLBACK_PATH}`;
}

function bindingOf(request: FastifyRequest): string | undefined {
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name === BINDING_COOKIE) return value.join('=') || undefined;
  }
  return undefined;
}

/**
 * The popup's page: it posts the ticket (or the refusal's message key) to the sign-in page that
 * opened it, on this origin only, and closes (window.js); it reads what to post from its own
 * markup, as the security policy allows no inline script.
 */
function popupPage(
  request: FastifyRequest,
  reply: FastifyReply,
  outcome: { ticket: string } | { messageKey: string },
  status = 200,
) {
  const language = languageOf(request.headers['accept-language']);
  const text =
    'ticket' in outcome ? t(language, 'login.directory.returning') : t(language, outcome.messageKey);
  const data =
    'ticket' in outcome
      ? `data-ticket="${escapeHtml(outcome.ticket)}"`
      : `data-error="${escapeHtml(outcome.messageKey)}"`;
  return (
    reply
      .code(status)
      .header('Cache-Control', 'no-store')
      .header('Referrer-Policy', 'no-referrer')
      // The popup keeps its opener across the trip to the issuer and back.
      .header('Cross-Origin-Opener-Policy', 'unsafe-none')
      .type('text/html; charset=utf-8')
      .send(
        `<!doctype html><html lang="${language}"><head><meta charset="utf-8"><title>${escapeHtml(
          t(language, 'login.directory.title'),
        )}</title></head><body><main id="directorio" ${data}><p>${escapeHtml(
          text,
        )}</p></main><script src="${BASE}/window.js"></script></body></html>`,
      )
  );
}

const WINDOW_SCRIPT = `(function () {
  var el = document.getElementById('directorio');
  if (!el || !window.opener || window.opener.closed) return;
  window.opener.postMessage(
    { type: '${DIRECTORY.message}', ticket: el.dataset.ticket || null, messageKey: el.dataset.error || null },
    window.location.origin
  );
  window.close();
})();
`;

function refusalOf(error: unknown, request: FastifyRequest): ApiError {
  if (!(error instanceof ApiError)) throw error;
  const kind = (error as ApiError & { kind?: unknown }).kind;
  request.log.warn({ messageKey: error.messageKey, kind }, 'directory sign-in refused');
  return error;
}

/**
 * The directory sign-in (spec sections 2, 7 and 9): whether the sign-in page offers it, the
 * popup's trip to the client's OpenID provider and back, and POST /api/UsuarioAD/authenticateAzureAD
 * with the callback's ticket as bearer. Query strings carrying codes, states and tickets are not
 * logged (the routes log from warn up).
 */
export default async function directoryRoutes(fastify: FastifyInstance): Promise<void> {
  const auth = fastify.auth;
  const tags = ['authentication'];
  // Requests are logged at info with their address: these routes log from warn (never above the server's level).
  const quieter = ['silent', 'fatal', 'error'] as const;
  const level = quieter.find((l) => l === fastify.log.level) ?? 'warn';
  const quiet = { config: { public: true }, logLevel: level as 'silent' | 'fatal' | 'error' | 'warn' };
  const clientQuery = objectOf({ IdCliente: field.id() });
  const requestedClient = (request: FastifyRequest) => {
    const id = (request.query as { IdCliente?: number }).IdCliente;
    return typeof id === 'number' ? id : undefined;
  };

  fastify.get(
    '/UsuarioAD/configuracion',
    {
      config: { public: true },
      schema: {
        tags,
        summary: 'Whether the sign-in page offers the corporate-account sign-in (directory flag S)',
        description:
          'IdCliente names the client; without it, the only active client. result.habilitado and result.idCliente.',
        querystring: clientQuery,
        response: resultResponses('{ habilitado, idCliente }', [400]),
      },
    },
    async (request) => ({ result: await auth.directory.status(requestedClient(request)) }),
  );

  fastify.get(
    '/UsuarioAD/iniciar',
    {
      ...quiet,
      schema: {
        tags,
        summary: 'The corporate-account popup: redirects to the client’s OpenID provider',
        querystring: clientQuery,
      },
    },
    async (request, reply) => {
      try {
        const { url, binding } = await auth.directory.start(
          requestedClient(request),
          redirectUri(request),
          request.ip,
        );
        const secure = redirectUri(request).startsWith('https:') ? '; Secure' : '';
        return reply
          .header('Cache-Control', 'no-store')
          .header('Cross-Origin-Opener-Policy', 'unsafe-none')
          .header(
            'Set-Cookie',
            `${BINDING_COOKIE}=${binding}; Path=${CALLBACK_PATH}; Max-Age=${FLOW_MINUTES * 60}; HttpOnly; SameSite=Lax${secure}`,
          )
          .redirect(url, 302);
      } catch (error) {
        const refusal = refusalOf(error, request);
        return popupPage(request, reply, { messageKey: refusal.messageKey as string }, refusal.status);
      }
    },
  );

  fastify.get(
    '/UsuarioAD/callback',
    {
      ...quiet,
      schema: {
        tags,
        summary:
          'Where the OpenID provider sends the user back: a page that hands the sign-in page its ticket',
      },
    },
    async (request, reply) => {
      const query = new URLSearchParams(request.url.split('?')[1] ?? '');
      // The binding is spent with the trip, whatever the outcome.
      reply.header(
        'Set-Cookie',
        `${BINDING_COOKIE}=; Path=${CALLBACK_PATH}; Max-Age=0; HttpOnly; SameSite=Lax`,
      );
      try {
        const ticket = await auth.directory.finish(query, bindingOf(request));
        return popupPage(request, reply, { ticket });
      } catch (error) {
        const refusal = refusalOf(error, request);
        return popupPage(request, reply, { messageKey: refusal.messageKey as string }, refusal.status);
      }
    },
  );

  fastify.get(
    '/UsuarioAD/window.js',
    { config: { public: true }, schema: { tags, summary: 'The popup page’s script' } },
    async (_request, reply) =>
      reply.header('Cache-Control', 'no-cache').type('text/javascript; charset=utf-8').send(WINDOW_SCRIPT),
  );

  fastify.post(
    '/UsuarioAD/authenticateAzureAD',
    {
      ...quiet,
      schema: {
        tags,
        summary: 'Sign in with the corporate account: the callback’s ticket as bearer',
        description:
          'Authorization: Bearer <ticket> (single use, two minutes). Answers the login response of /usuario/authenticate; refusals carry messageKey login.directory.* (or the sign-in codes 02–12).',
        body: objectOf({
          tokenClient: field.text(4096, {
            description: 'Captcha answer; checked by the configured verifier.',
          }),
          idAplicacion: field.text(10, { default: APPLICATION_ID }),
        }),
        response: resultResponses('Login response', [400, 401, 403, 423, 429]),
      },
    },
    async (request) => {
      const header = request.headers.authorization ?? '';
      const ticket = header.startsWith('Bearer ') ? header.slice(7).trim() : '';
      const body = (request.body ?? {}) as { tokenClient?: unknown };
      return { result: await auth.directory.authenticate(ticket, body, request.ip) };
    },
  );
}
