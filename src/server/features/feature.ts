import type { FastifyPluginAsync } from 'fastify';
import type { Screen } from '../../shared/screens.js';
import type { Notifier } from '../auth/notifier.js';
import type { RouteGrant } from '../auth/permissions.js';
import type { HookMap } from '../crud/types.js';
import type { Db, DialectName } from '../db/connection.js';
import type { TableMaker } from '../db/prepare.js';
import type { AccreditationListeners } from '../events.js';
import type { Signal } from '../jobs/signal.js';
import type { PersonalDataSource } from '../personal-data.js';
import type { Registry } from '../registry.js';
import type { RequirementSource } from '../requirement-sources.js';
import type { QualificationSource } from '../services/site/loader.js';
import type { FileStore } from '../storage/files.js';
import type { Whereabouts } from '../whereabouts.js';

/** What a feature's entity hooks may use. */
export interface FeatureContext {
  registry: Registry;
  notifier: Notifier;
  /** The server's clock (a test's own when it sets one). */
  now: () => number;
  /** Fired once markings (or what a day's result reads) are written: attendance recomputes at once. */
  markingsWritten?: Signal;
}

/** What a feature's demo data is made with: the seed's transaction, on the demo client. */
export interface DemoContext {
  trx: Db;
  dialect: DialectName;
  registry: Registry;
  files: FileStore;
  clientId: number;
  /** The instant the demo is made at (its markings, stays and meals lead up to it). */
  now: number;
}

/**
 * A feature's demo data, made after the reference data and the people: `order` places it among the
 * others (accreditation's requests and accreditations come first: the rest hang on them).
 */
export interface FeatureDemo {
  order: number;
  seed(ctx: DemoContext): Promise<Record<string, number>>;
}

/**
 * A behaviour area of the product, end to end on the server: its calls (a Fastify plugin
 * registered under /api) and the business rules it adds to the generic writes of its entities.
 */
export interface Feature {
  name: string;
  hooks?(ctx: FeatureContext): HookMap;
  routes?: FastifyPluginAsync;
  /** What the area's workflow screens read besides their own calls (granted with the screen's route). */
  grants?: RouteGrant[];
  /**
   * The area's own screens (src/shared/screens.ts, which the console routes too): the demo's menu
   * holds them, and a profile whose menu holds one reads what the screen declares it reads.
   */
  screens?: readonly Screen[];
  /** The area's demo data (a few realistic records of its own), made on the first start. */
  demo?: FeatureDemo;
  /** The area's own tables that are not an entity's (made if missing when the database is prepared). */
  tables?: TableMaker;
  /** What the area does when an accreditation changes (its rows that hang on it), in that transaction. */
  listens?(ctx: FeatureContext): AccreditationListeners;
  /**
   * What the area's records prove of accreditation requirements (a passed induction the requirement
   * bound to its course): the request engine asks them through the app (fastify.requirementSources)
   * when a worker's request lines are made, never the area itself.
   */
  requirementSources?(ctx: FeatureContext): RequirementSource[];
  /**
   * What the area's records let a person through (an induction): doors and zones that require one
   * refuse a person without it. The gate reads it through the app (fastify.qualifications), never
   * the area itself.
   */
  qualifications?(ctx: FeatureContext): QualificationSource;
  /**
   * Who the area's records place away from the site but in the company's care (people on a bus on
   * the road): the evacuation roll call lists them apart, through the app (fastify.whereabouts).
   */
  whereabouts?(ctx: FeatureContext): Whereabouts;
  /**
   * When the area's records end a person's relation with the client, whom they still need, and what
   * they keep of a class of personal data besides the schemas' fields: the retention job reads it
   * through the app (fastify.personalData), never the area itself.
   */
  personalData?(ctx: FeatureContext): PersonalDataSource;
}
