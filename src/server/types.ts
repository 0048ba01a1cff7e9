import type { Language } from '../shared/constants.js';
import type { WebhookOptions } from './app.js';
import type { SigningKeys } from './auth/keys.js';
import type { Notifier } from './auth/notifier.js';
import type { DataProtectionCache, GrantsCache } from './auth/permissions.js';
import type { AuthService } from './auth/service.js';
import type { CrudService } from './crud/service.js';
import type { Database } from './db/connection.js';
import type { AccreditationEvents } from './events.js';
import type { Signal } from './jobs/signal.js';
import type { PersonalDataSource } from './personal-data.js';
import type { Principal } from './principal.js';
import type { Registry } from './registry.js';
import type { RequirementSources } from './requirement-sources.js';
import type { Sealer } from './services/sealer.js';
import type { QualificationSource } from './services/site/loader.js';
import type { FileStore } from './storage/files.js';
import type { Whereabouts } from './whereabouts.js';

declare module 'fastify' {
  interface FastifyInstance {
    database: Database;
    registry: Registry;
    crud: CrudService;
    auth: AuthService;
    /** The keys that sign access tokens (published at /.well-known/jwks.json). */
    signingKeys: SigningKeys;
    grants: GrantsCache;
    dataProtection: DataProtectionCache;
    /** Sends and records mail (the outbox). */
    notifier: Notifier;
    /** Where attachments and photos are kept. */
    files: FileStore;
    /** How long a gate's decision may take before the gate is told to deny. */
    gateDecisionBudgetMs: number;
    /** Fired once new markings have committed (attendance recomputes the days they touch). */
    markingsWritten: Signal;
    /** The features' listeners of accreditation events (a demobilisation's effects). */
    events: AccreditationEvents;
    /** What the features' records prove of accreditation requirements (an induction); the request engine asks them. */
    requirementSources: RequirementSources;
    /** What the features' records qualify a person for at the doors (an induction); every decision reads them. */
    qualifications: readonly QualificationSource[];
    /** Who the features place away from the site in the company's care (on a bus); the roll call reads them. */
    whereabouts: readonly Whereabouts[];
    personalData: readonly PersonalDataSource[];
    /** Keeps the secrets the server reads again encrypted (a webhook endpoint's). */
    sealer: Sealer;
    /** How webhooks are delivered (AppOptions.webhooks). */
    webhookOptions: WebhookOptions;
    /** The features' background jobs by name (they run on their own; a test runs a round itself). */
    jobs: Map<string, { round(): Promise<unknown> }>;
  }
  interface FastifyRequest {
    /** Who is calling; set by plugins/auth.ts on every protected /api route. */
    principal: Principal;
    /** es or en, from Accept-Language; messages in error bodies use it. */
    language: Language;
  }
  interface FastifyContextConfig {
    /** Reachable without a session (health, login, code and password recovery). */
    public?: boolean;
    /** 'any': also for a session that has signed in but not chosen its profile yet. */
    stage?: 'any';
    /** Accepts an access token past its time (signing out). */
    allowExpired?: boolean;
    /** Uploads or downloads files of this repository use (plugins/repository.ts). */
    repository?: 'F' | 'D' | 'M' | 'R';
  }
}
