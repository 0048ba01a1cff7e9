import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { APP_VERSION } from '../../shared/constants.js';

const API_ERROR_SCHEMA = {
  $id: 'ApiError',
  type: 'object',
  description: 'The one error body of every API error.',
  required: ['status', 'code', 'messageKey', 'message'],
  properties: {
    status: { type: 'integer' },
    code: { type: 'string' },
    messageKey: { type: 'string', description: 'Translation key for the client.' },
    params: { type: 'object', additionalProperties: true },
    message: {
      type: 'string',
      description: 'The message in the language of Accept-Language (es by default).',
    },
    errors: {
      type: 'object',
      description: 'Problems per field.',
      additionalProperties: {
        type: 'object',
        properties: {
          messageKey: { type: 'string' },
          params: { type: 'object', additionalProperties: true },
          message: { type: 'string' },
        },
      },
    },
  },
};

/** The OpenAPI document built from the routes' schemas, browsable at /api/docs. */
async function openapi(fastify: FastifyInstance): Promise<void> {
  fastify.addSchema(API_ERROR_SCHEMA);
  await fastify.register(swagger, {
    openapi: {
      openapi: '3.0.3',
      info: {
        title: 'Acreditación API',
        description:
          'Accreditation and site-access API. Generic CRUD under /api/rest, built from the entity schemas.',
        version: APP_VERSION,
      },
    },
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => String(json.$id ?? `def-${i}`) },
  });
  await fastify.register(swaggerUi, {
    routePrefix: '/api/docs',
    uiConfig: { docExpansion: 'none', deepLinking: true },
  });
}

export default fp(openapi, { name: 'openapi' });
