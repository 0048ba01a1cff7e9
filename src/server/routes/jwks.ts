import type { FastifyInstance } from 'fastify';

/**
 * The public keys that verify the product's access tokens, as a JWKS at the well-known address,
 * so another service of the client verifies them without asking the product (iss `acreditacion`,
 * aud `acreditacion-api`, ES256, the key named by the token's `kid`). A key retired by a rotation
 * stays listed until the last token it signed has expired.
 */
export default async function jwksRoutes(fastify: FastifyInstance): Promise<void> {
  fastify.get(
    '/.well-known/jwks.json',
    {
      schema: {
        tags: ['authentication'],
        summary: 'The public keys that verify access tokens (JWKS)',
        response: {
          200: {
            type: 'object',
            properties: { keys: { type: 'array', items: { type: 'object', additionalProperties: true } } },
          },
        },
      },
    },
    async (_request, reply) => {
      // A verifier that meets a key it has not seen (a rotation) reads the set again; jose's
      // remote key set does.
      reply.header('cache-control', 'public, max-age=300');
      return fastify.signingKeys.jwks();
    },
  );
}
