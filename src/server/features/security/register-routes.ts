import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { PropertySchema } from '../../../shared/schema/types.js';
import { checkReferences } from '../../crud/checks.js';
import type { ApiRecord, Row } from '../../crud/types.js';
import { ApiError } from '../../errors.js';
import type { Entity } from '../../registry.js';
import { field, objectOf, resultResponses } from '../../routes/responses.js';
import { UserRights } from './rights.js';

type Body = Record<string, unknown>;

/** Profile assignments a registration may carry at once. */
const MAX_PROFILES = 20;

function payload(request: FastifyRequest): Body {
  const value = request.body;
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value)) throw new ApiError('BAD_REQUEST');
  return value as Body;
}

/** An entity's writable properties as OpenAPI shows them (the x- keywords left out). */
function writableProperties(entity: Entity, leaveOut: string[] = []): Record<string, unknown> {
  const props = entity.schema.properties;
  return Object.fromEntries(
    entity.writable
      .filter((name) => !leaveOut.includes(name))
      .map((name) => [
        name,
        Object.fromEntries(
          Object.entries(props[name] as PropertySchema).filter(([k]) => !k.startsWith('x-')),
        ),
      ]),
  );
}

/** The body reaches the entity's own validation (the users screen's messages): no Fastify check first. */
const entityValidation = { validatorCompiler: () => (value: unknown) => ({ value }) };

/**
 * The two calls of spec section 7 whose payload the spec leaves open: the first step of a password
 * recovery, and an administrator's registration of a user of their own client (users are never
 * self-made: administrators make them).
 */
export default async function registerRoutes(fastify: FastifyInstance): Promise<void> {
  const auth = fastify.auth;
  const tags = ['authentication'];
  const userEntity = fastify.registry.require('user');
  const assignmentEntity = fastify.registry.require('user-profile');

  fastify.post(
    '/auth/forgot-password',
    {
      config: { public: true },
      schema: {
        tags,
        summary: 'Forgot password: a 6-digit recovery code is sent by e-mail',
        description:
          'The first step of POST /api/SeguridadCodigoAutenticacion/RecuperarClave, with its throttle, sign-in challenge (tokenClient), answers and refusals: user name (Usuario or username) and e-mail (Identificador or email) of an active user send a 6-digit code to that e-mail; result { enviado, longitudClave, nivelSeguridadClave }. A name and e-mail that do not match answer 400 recovery.mismatch. The code is checked, and the new password set, through RecuperarClave (Usuario and Codigo, then Usuario, Codigo and NuevaContrasenia).',
        body: objectOf({
          Usuario: field.text(100),
          username: field.text(100),
          Identificador: field.text(254),
          email: field.text(254),
          IdAplicacion: field.text(10),
          IdTipoAplicacion: field.text(10),
          tokenClient: field.text(4096, {
            description:
              'The answer to a sign-in challenge of GET /api/auth/challenge; a missing or wrong one is login code 07.',
          }),
        }),
        response: resultResponses('{ enviado, longitudClave, nivelSeguridadClave }', [400, 423, 429]),
      },
    },
    async (request) => {
      const body = payload(request);
      return {
        result: await auth.passwords.recover(
          {
            Usuario: body.Usuario ?? body.username,
            Identificador: body.Identificador ?? body.email,
            tokenClient: body.tokenClient,
          },
          request.ip,
        ),
      };
    },
  );

  fastify.post(
    '/auth/register',
    {
      ...entityValidation,
      schema: {
        tags,
        summary: 'Register a new user of the administrator’s client (with its profiles)',
        description:
          'For a session whose profile may create users (the users screen); anyone else 403. The body is a user as the users screen saves it, with Correo required, validated as that screen validates it (400 with field messages; an existing IdUsuario 409), plus `perfiles`, the profile assignments (IdPerfil, IdDivision, IdCompania for contractors…), which need the profile-assignment screen. All are written in one transaction and audited. The new user receives a temporary password by e-mail and must change it at the first sign-in; no answer carries it.',
        body: {
          type: 'object',
          additionalProperties: false,
          required: ['IdUsuario', 'Nombre', 'Apellido', 'Correo'],
          properties: {
            ...writableProperties(userEntity, ['PrimeraClaveCambiada']),
            perfiles: {
              type: 'array',
              maxItems: MAX_PROFILES,
              items: {
                type: 'object',
                additionalProperties: false,
                required: ['IdPerfil', 'IdDivision'],
                properties: writableProperties(assignmentEntity, ['IdUsuario']),
              },
            },
          },
        },
        response: resultResponses('{ usuario, perfiles }', [400, 401, 403, 409]),
      },
    },
    async (request) => {
      const principal = request.principal;
      const grants = principal.grants;
      if (grants?.resources.get('user') !== 'write' || userEntity.readOnly) throw new ApiError('FORBIDDEN');
      const { perfiles, ...fields } = payload(request);
      const assignments = perfiles === undefined || perfiles === null ? [] : perfiles;
      if (!Array.isArray(assignments))
        throw new ApiError('VALIDATION_FAILED', {
          fields: { perfiles: { messageKey: 'validation.type.array' } },
        });
      if (assignments.length > MAX_PROFILES)
        throw new ApiError('VALIDATION_FAILED', {
          fields: { perfiles: { messageKey: 'validation.maxItems', params: { limit: MAX_PROFILES } } },
        });
      if (assignments.length && grants.resources.get('user-profile') !== 'write')
        throw new ApiError('FORBIDDEN');

      const crud = fastify.crud;
      // The users screen's validation, and a new user always changes the e-mailed password first.
      const user = crud.prepare(userEntity, { ...fields, PrimeraClaveCambiada: 'N' });
      if (typeof user.Correo !== 'string')
        throw new ApiError('VALIDATION_FAILED', {
          fields: { Correo: { messageKey: 'validation.required' } },
        });

      // The rights and the assignments are checked before anything is written, so a refused
      // registration sends no e-mail (the writes check the rights again in their transaction).
      const rights = new UserRights(fastify.database.db, fastify.registry, principal);
      await rights.checkUser(user);
      const prepared: Row[] = [];
      const seen = new Set<string>();
      for (const [index, raw] of assignments.entries()) {
        if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
          throw new ApiError('VALIDATION_FAILED', {
            fields: { perfiles: { messageKey: 'validation.type.object' } },
          });
        const { IdUsuario: _ignored, ...assignment } = raw as Row;
        const data = crud.prepare(assignmentEntity, { ...assignment, IdUsuario: user.IdUsuario });
        const key = `${data.IdPerfil}/${data.IdDivision}`;
        if (seen.has(key))
          throw new ApiError('DUPLICATE', { fields: { perfiles: { messageKey: 'validation.duplicate' } } });
        seen.add(key);
        if (user.Contratista === 'S' && data.IdCompania === undefined)
          throw new ApiError('VALIDATION_FAILED', {
            fields: { IdCompania: { messageKey: 'validation.contractorCompany' } },
          });
        const { IdUsuario: _user, ...references } = data;
        await checkReferences(crud.checks(), assignmentEntity, references, principal);
        await rights.checkAssignment(data);
        prepared[index] = data;
      }

      const result = await crud.transaction(async (trx) => {
        const within = crud.within(trx);
        const usuario = await within.create(userEntity, user, principal);
        const created: ApiRecord[] = [];
        for (const data of prepared) created.push(await within.create(assignmentEntity, data, principal));
        return { usuario, perfiles: created };
      });
      return { result };
    },
  );
}
