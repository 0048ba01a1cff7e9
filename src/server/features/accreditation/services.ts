import type { FastifyInstance } from 'fastify';
import type { Kinds } from './engine/engine.js';
import { RequestLists } from './lists.js';
import { Notices } from './notices.js';
import { requestServices } from './request-services.js';
import { RequestViews } from './views.js';

/**
 * The request services of the accreditation feature, made once (index.ts decorates its scope with
 * them): the engine over `kinds`, the screens' reads, the lists.
 */
export function servicesOf(fastify: FastifyInstance, kinds: Kinds) {
  const { database, registry, crud } = fastify;
  const notices = new Notices(database.db, registry, fastify.notifier, fastify.log);
  const services = requestServices(
    kinds,
    database,
    registry,
    crud,
    fastify.files,
    notices,
    () => fastify.auth.now(),
    fastify.events,
    fastify.requirementSources,
  );
  return {
    ...services,
    views: new RequestViews(database.db, registry, services),
    lists: new RequestLists(database, registry),
  };
}

export type FeatureServices = ReturnType<typeof servicesOf>;

declare module 'fastify' {
  interface FastifyInstance {
    /** Accreditation's request services, inside its own calls' scope. */
    requests: FeatureServices;
  }
}
