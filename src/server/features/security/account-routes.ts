import type { FastifyInstance } from 'fastify';
import { ApiError } from '../../errors.js';
import type { Principal } from '../../principal.js';
import { field, resultResponses } from '../../routes/responses.js';

const result = (description: string) => resultResponses(description, [401, 403]);

function client(principal: Principal): number {
  if (principal.clientId === undefined) throw new ApiError('FORBIDDEN');
  return principal.clientId;
}

function page(query: { NumPagina?: unknown; TamPagina?: unknown }) {
  const size = Math.min(Math.max(Number(query.TamPagina) || 10, 1), 100);
  const number = Math.max(Number(query.NumPagina) || 1, 1);
  return { size, offset: (number - 1) * size };
}

/** The security calls of spec section 7 that read profiles, settings and menus (the user record: own-record-routes.ts). */
export default async function securityRoutes(fastify: FastifyInstance): Promise<void> {
  const { registry } = fastify;
  const db = () => fastify.database.db;
  const tags = ['security'];

  fastify.get(
    '/SeguridadMenu/obtenerMenu',
    {
      schema: {
        tags,
        summary: 'The menu of the session’s profile (the menu fetch of spec section 7)',
        description: 'IdCliente, IdPerfil, IdUsuario and IdAplicacion are taken from the token.',
        querystring: {
          type: 'object',
          properties: {
            IdCliente: field.text(20),
            IdPerfil: field.text(20),
            IdUsuario: field.text(20),
            IdAplicacion: field.text(10),
          },
        },
        response: result(
          'Menu items: IdMenu, IdMenuPadre, Modulo, Ruta, Orden, Tag, Icono, Color, Color2, IdAplicacion',
        ),
      },
    },
    async (request) => ({ result: request.principal.grants?.menu ?? [] }),
  );

  fastify.get(
    '/SeguridadConfiguracionLogeo/obtenerTodos',
    {
      schema: {
        tags,
        summary: 'Login security settings of the session’s client',
        querystring: { type: 'object', properties: { IdCliente: field.text(20) } },
        response: result('Settings'),
      },
    },
    async (request) => {
      const principal = request.principal;
      let qb = db()
        .selectFrom(registry.require('login-setting').table)
        .selectAll()
        .where('IdCliente', '=', client(principal))
        .where('Activo', '=', 'S');
      // Who does not keep the settings sees only the one that applies to them.
      if (!principal.grants?.resources.has('login-setting')) {
        const own = await fastify.auth.profiles.settingOf(principal.userId);
        qb = qb.where('IdConfiguracionLogeo', '=', own.IdConfiguracionLogeo);
      }
      return { result: await qb.orderBy('Descripcion').execute() };
    },
  );

  fastify.get<{ Querystring: { IdPerfil?: string; NumPagina?: string; TamPagina?: string } }>(
    '/SeguridadPerfilCaracteristica/listar',
    {
      schema: {
        tags,
        summary: 'Characteristics of a profile of the session’s client, paged',
        querystring: {
          type: 'object',
          properties: {
            IdCliente: field.text(20),
            IdPerfil: field.id(),
            NumPagina: field.integer(1, 100_000),
            TamPagina: field.integer(1, 100),
          },
        },
        response: result('{ data, totalCount, totalPages }'),
      },
    },
    async (request) => {
      const profileId = Number(request.query.IdPerfil ?? request.principal.profileId);
      // Another profile's characteristics are for those who keep profiles.
      if (
        profileId !== request.principal.profileId &&
        !request.principal.grants?.resources.has('profile-characteristic')
      )
        throw new ApiError('FORBIDDEN');
      const { size, offset } = page(request.query);
      const base = db()
        .selectFrom(registry.require('profile-characteristic').table)
        .where('IdCliente', '=', client(request.principal))
        .where('IdPerfil', '=', profileId);
      const data = await base
        .selectAll()
        .orderBy('IdPerfilCaracteristica')
        .limit(size)
        .offset(offset)
        .execute();
      const { total } = (await base
        .select((eb) => eb.fn.countAll().as('total'))
        .executeTakeFirstOrThrow()) as { total: number | string };
      return { result: { data, totalCount: Number(total), totalPages: Math.ceil(Number(total) / size) } };
    },
  );

  fastify.put<{ Body: { IdPerfil?: number; IdUsuario?: string } }>(
    '/SeguridadUsuarioPerfil/listarbyPerfil',
    {
      schema: {
        tags,
        summary: 'Profile assignments of the session’s client, by profile or user',
        body: { type: 'object', properties: { IdPerfil: field.id(), IdUsuario: field.text(100) } },
        response: result('Assignments'),
      },
    },
    async (request) => {
      const principal = request.principal;
      const ownOnly = principal.grants?.resources.get('user-profile') === undefined;
      let qb = db()
        .selectFrom(registry.require('user-profile').table)
        .selectAll()
        .where('IdCliente', '=', client(principal))
        .where('Activo', '=', 'S');
      if (request.body?.IdPerfil !== undefined) qb = qb.where('IdPerfil', '=', Number(request.body.IdPerfil));
      const userId = ownOnly ? principal.userId : request.body?.IdUsuario?.toLocaleUpperCase('es');
      if (userId) qb = qb.where('IdUsuario', '=', userId);
      return { result: await qb.orderBy('IdUsuario').execute() };
    },
  );
}
