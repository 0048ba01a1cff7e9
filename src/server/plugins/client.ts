import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/**
 * Serves the built console (vite build → dist/client) at / and the gate app at /garita/. Paths that are not files get
 * index.html, so the console's own routes survive a reload. The build writes each text file
 * brotli- and gzip-compressed beside it: those are sent to browsers that accept them, as they
 * are (nothing is compressed per request). Hashed assets are cached for a year; the page itself
 * is checked every time, so a new build shows at once.
 */
async function client(fastify: FastifyInstance, opts: { root: string }): Promise<void> {
  if (!existsSync(join(opts.root, 'index.html'))) {
    throw new Error(`the console is not built: ${opts.root}/index.html is missing (run npm run build)`);
  }
  await fastify.register(fastifyStatic, {
    root: opts.root,
    wildcard: true,
    preCompressed: true,
    setHeaders: (reply, path) => {
      const hashed = path.startsWith(join(opts.root, 'assets'));
      reply.header('Cache-Control', hashed ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });
  // The gate app (an installable PWA under /garita/, with its own service worker and manifest).
  // Trailing slashes are ignored by the router: /garita and /garita/ both come here.
  fastify.get('/garita', (request, reply) => {
    if (request.url.startsWith('/garita/')) {
      reply.header('Cache-Control', 'no-cache');
      return reply.type('text/html').sendFile('garita/index.html');
    }
    const query = request.url.indexOf('?');
    return reply.redirect(`/garita/${query >= 0 ? request.url.slice(query) : ''}`);
  });
}

export default fp(client, { name: 'client' });
