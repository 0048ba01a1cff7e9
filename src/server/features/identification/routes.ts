import type { FastifyInstance } from 'fastify';
import { HOLDER_KINDS, type HolderKind } from '../../../shared/identification.js';
import { field, INT32, resultResponses } from '../../routes/responses.js';
import { readOrigin } from '../../services/privacy.js';
import { Badges, PRINT_MAX } from './badges.js';
import { Credentials, type IssueInput, officeOf } from './credentials.js';

const BASE = '/identificacion';
const result = (description: string) => resultResponses(description, [400, 401, 403, 404, 409]);
const date = { type: 'string', format: 'date', maxLength: 10 };
const issueFields = {
  IdTipoCredencial: field.id(),
  IdMotivoEmision: field.id(),
  Numero: field.text(30, { pattern: '^[A-Za-z0-9-]+$' }),
  FechaInicio: date,
  FechaFin: date,
  Referencia1: field.text(100),
  Referencia2: field.text(100),
};

/**
 * Identification management (spec section 2): the accredited people and vehicles with their credentials, issue,
 * reissue and inactivate one with its reason, print badges, and verify a badge's token.
 */
export default async function identificationRoutes(fastify: FastifyInstance): Promise<void> {
  const { db } = fastify.database;
  const credentials = new Credentials(db, fastify.registry);
  const badges = new Badges(db, fastify.registry, fastify.qualifications);

  fastify.get<{ Querystring: { tipo?: HolderKind; buscar?: string; skip?: number; take?: number } }>(
    `${BASE}/titulares`,
    {
      schema: {
        tags: ['identification'],
        summary:
          'The accredited people (tipo P) or vehicles (tipo V) of the division, each with its active credential',
        querystring: {
          type: 'object',
          properties: {
            tipo: { type: 'string', enum: [...HOLDER_KINDS] },
            buscar: field.text(100),
            skip: field.integer(0, INT32.max),
            take: field.integer(1, 100),
          },
          additionalProperties: false,
        },
        response: result('{ data, totalCount }'),
      },
    },
    async (request) => ({
      result: await credentials.holders(officeOf(request.principal, false), request.query),
    }),
  );

  fastify.post<{ Body: IssueInput }>(
    `${BASE}/credenciales`,
    {
      schema: {
        tags: ['identification'],
        summary:
          'Issues a credential to an accredited person or vehicle (none active), within its accreditation',
        description:
          'Exactly one of IdPersona and IdVehiculo. FechaInicio defaults to today (or the accreditation’s ' +
          'start), FechaFin to the type’s validity, never beyond the accreditation; Numero to the next of ' +
          'the FC- series.',
        body: {
          type: 'object',
          properties: { IdPersona: field.id(), IdVehiculo: field.id(), ...issueFields },
          required: ['IdTipoCredencial', 'IdMotivoEmision'],
          additionalProperties: false,
        },
        response: result('the credential'),
      },
    },
    async (request) => ({
      result: await credentials.issue(officeOf(request.principal, true), request.body),
    }),
  );

  fastify.post<{
    Params: { id: number };
    Body: { IdMotivoInactivacion: number } & Omit<
      IssueInput,
      'IdPersona' | 'IdVehiculo' | 'IdTipoCredencial'
    > & {
        IdTipoCredencial?: number;
      };
  }>(
    `${BASE}/credenciales/:id/reemitir`,
    {
      schema: {
        tags: ['identification'],
        summary:
          'Reissues a credential: the active one inactivated with its reason, a new one issued, at once',
        params: { type: 'object', properties: { id: field.id() }, required: ['id'] },
        body: {
          type: 'object',
          properties: { IdMotivoInactivacion: field.id(), ...issueFields },
          required: ['IdMotivoInactivacion', 'IdMotivoEmision'],
          additionalProperties: false,
        },
        response: result('the new credential'),
      },
    },
    async (request) => ({
      result: await credentials.reissue(officeOf(request.principal, true), request.params.id, request.body),
    }),
  );

  fastify.post<{ Params: { id: number }; Body: { IdMotivoInactivacion: number } }>(
    `${BASE}/credenciales/:id/inactivar`,
    {
      schema: {
        tags: ['identification'],
        summary: 'Inactivates an active credential with its reason',
        params: { type: 'object', properties: { id: field.id() }, required: ['id'] },
        body: {
          type: 'object',
          properties: { IdMotivoInactivacion: field.id() },
          required: ['IdMotivoInactivacion'],
          additionalProperties: false,
        },
        response: result('the credential'),
      },
    },
    async (request) => ({
      result: await credentials.inactivate(
        officeOf(request.principal, true),
        request.params.id,
        request.body.IdMotivoInactivacion,
      ),
    }),
  );

  fastify.post<{ Body: { IdCredenciales: number[]; formato?: 'tarjeta' | 'a4' } }>(
    `${BASE}/fotocheck`,
    {
      schema: {
        tags: ['identification'],
        summary: 'Prints the badges of active credentials as one PDF, and records who printed them',
        description:
          `At most ${PRINT_MAX}. formato tarjeta (default): a card-sized page per side; a4: ten a sheet with ` +
          'cut marks, fronts then mirrored backs. Answers { fileBase64, fileName, fileType, sinFoto }.',
        body: {
          type: 'object',
          properties: {
            IdCredenciales: { type: 'array', items: field.id(), minItems: 1, maxItems: PRINT_MAX },
            formato: { type: 'string', enum: ['tarjeta', 'a4'] },
          },
          required: ['IdCredenciales'],
          additionalProperties: false,
        },
        response: result('{ fileBase64, fileName, fileType, sinFoto }'),
      },
    },
    async (request) => ({
      result: await badges.print(
        officeOf(request.principal, true),
        request.body.IdCredenciales,
        request.body.formato ?? 'tarjeta',
        request.language,
        readOrigin(request),
      ),
    }),
  );

  fastify.post<{ Body: { token: string; IdPuerta?: number } }>(
    `${BASE}/verificar`,
    {
      schema: {
        tags: ['identification'],
        summary: 'Whether a badge’s token is genuine, and whether its holder may pass now',
        description:
          'The gate’s own decision for the credential, at the door given or at any entry of the division. ' +
          'A token that is no badge’s (TOKEN_MALFORMED), whose signature fails (TOKEN_FORGED) or of another ' +
          'client (TOKEN_OTHER_CLIENT) is refused before.',
        body: {
          type: 'object',
          properties: { token: field.text(1000, { minLength: 1 }), IdPuerta: field.id() },
          required: ['token'],
          additionalProperties: false,
        },
        response: result('{ genuine, allow, reason, message, credential?, holder? }'),
      },
    },
    async (request) => ({
      result: await badges.verify(
        officeOf(request.principal, false, ['credential', 'marking']),
        request.body.token,
        request.body.IdPuerta,
        request.language,
      ),
    }),
  );
}
