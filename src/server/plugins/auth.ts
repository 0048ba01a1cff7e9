import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { TOKEN_HEADERS, type TokenAction } from '../../shared/session.js';
import { ApiError } from '../errors.js';
import { type Principal, workingPrincipal } from '../principal.js';

/** The built-in user the server acts as when it writes on its own (demo data, maintenance). */
export const SYSTEM_PRINCIPAL: Principal = Object.freeze({ userId: 'SISTEMA' });

function refuse(reply: FastifyReply, action: TokenAction, code: 'UNAUTHORIZED' = 'UNAUTHORIZED'): never {
  reply.header(TOKEN_HEADERS.recreated, action === 'retry' ? 'S' : 'N');
  reply.header(TOKEN_HEADERS.action, action);
  throw new ApiError(code);
}

/**
 * The one hook every /api route passes through. A route opts out with `config: { public: true }`
 * (sign-in, codes, recovery, health); `config: { stage: 'any' }` admits a session that has not
 * chosen its profile yet. Everything else needs a valid access token of a working session; the
 * principal it yields (user, profile, client, division, company, grants) is all later code trusts.
 *
 * An expired access token with a valid refresh token (X-Refresh-Token) is renewed here: the
 * answer is a 401 carrying the new pair and `X-Token-Recreated: S`, `X-Token-Action: retry`, and
 * the console replays the request. The same refresh token presented again within a few seconds
 * (requests sent in parallel) gets a new access token alone. Without a refresh token the console locks the screen; with a
 * refresh token that is unknown, spent or revoked it signs out.
 */
async function auth(fastify: FastifyInstance): Promise<void> {
  fastify.decorateRequest('principal', undefined as unknown as Principal);

  fastify.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    const config = request.routeOptions.config;
    if (config.public) return;
    const header = request.headers.authorization;
    const token = header?.startsWith('Bearer ') ? header.slice(7).trim() : '';
    if (!token) refuse(reply, 'logout');
    const sessions = fastify.auth.sessions;
    const claims = await sessions.verify(token, { allowExpired: config.allowExpired === true });
    if (claims === 'expired') {
      const refreshToken = request.headers[TOKEN_HEADERS.refresh];
      if (typeof refreshToken !== 'string' || !refreshToken) refuse(reply, 'lock');
      const refreshed = await sessions.refresh(refreshToken);
      if (refreshed.outcome === 'rotated') {
        reply.header(TOKEN_HEADERS.newAccess, refreshed.tokens.accessToken);
        reply.header(TOKEN_HEADERS.newRefresh, refreshed.tokens.refreshToken);
        refuse(reply, 'retry');
      }
      // A parallel request renewed this token a moment ago: a new access token, and the console
      // keeps the refresh token that renewal gave it.
      if (refreshed.outcome === 'grace') {
        reply.header(TOKEN_HEADERS.newAccess, refreshed.accessToken);
        refuse(reply, 'retry');
      }
      refuse(reply, 'logout');
    }
    if (!claims) refuse(reply, 'logout');
    const session = await sessions.active(claims.sid);
    if (!session || session.IdUsuario !== claims.sub) refuse(reply, 'logout');
    if (session.Etapa !== 'session' && config.stage !== 'any') throw new ApiError('FORBIDDEN');
    if (session.Etapa !== 'session' || session.IdPerfil === null) {
      request.principal = { userId: session.IdUsuario, sessionId: session.Id, stage: session.Etapa };
      return;
    }
    const grants = await fastify.grants.get(session.IdPerfil);
    request.principal = workingPrincipal(
      {
        userId: session.IdUsuario,
        profileId: session.IdPerfil,
        clientId: session.IdCliente ?? undefined,
        divisionId: session.IdDivision ?? undefined,
        companyId: session.IdCompania ?? undefined,
      },
      grants,
      session.Id,
      await fastify.dataProtection.classes(session.IdUsuario, grants),
    );
  });
}

export default fp(auth, { name: 'auth' });
