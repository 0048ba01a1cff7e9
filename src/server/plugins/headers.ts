import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/**
 * Security headers on every answer. The console is bundled and served from this origin, so the
 * policy allows nothing from elsewhere: scripts only from here (none inline), styles from here and
 * inline (the component library writes its styles at run time), images from here and data: or
 * blob: URLs (photo previews), no framing by other sites.
 */
async function headers(fastify: FastifyInstance): Promise<void> {
  await fastify.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        workerSrc: ["'self'", 'blob:'],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
      },
    },
    referrerPolicy: { policy: 'same-origin' },
    // The corporate-account popup goes to the client's OpenID provider and back: the sign-in page
    // keeps its handle on it (same-origin would cut it), while no page of another origin gets one.
    crossOriginOpenerPolicy: { policy: 'same-origin-allow-popups' },
    // Nothing is embedded from other origins; the default would also block PDF previews in frames.
    crossOriginEmbedderPolicy: false,
  });
}

export default fp(headers, { name: 'headers' });
