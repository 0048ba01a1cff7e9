import type { RouteGrant } from '../auth/permissions.js';
import { mergeHooks } from '../crud/types.js';
import { AccreditationEvents } from '../events.js';
import type { PersonalDataSource } from '../personal-data.js';
import { RequirementSources } from '../requirement-sources.js';
import type { QualificationSource } from '../services/site/loader.js';
import type { Whereabouts } from '../whereabouts.js';
import { access } from './access/index.js';
import { accreditation } from './accreditation/index.js';
import { administration } from './administration/index.js';
import { attendance } from './attendance/index.js';
import { dining } from './dining/index.js';
import type { Feature, FeatureContext } from './feature.js';
import { hotel } from './hotel/index.js';
import { identification } from './identification/index.js';
import { induction } from './induction/index.js';
import { privacy } from './privacy/index.js';
import { security } from './security/index.js';
import { system } from './system/index.js';
import { transport } from './transport/index.js';
import { webhooks } from './webhooks/index.js';

export type { Feature, FeatureContext } from './feature.js';

/** Every behaviour area of the server, in the order their calls are registered. */
export const FEATURES: Feature[] = [
  security,
  system,
  administration,
  access,
  attendance,
  identification,
  hotel,
  dining,
  induction,
  transport,
  accreditation,
  webhooks,
  privacy,
];

/** What the areas' screens read beyond their calls, by the routes that reach them. */
export function featureGrants(features: Feature[] = FEATURES): RouteGrant[] {
  return features.flatMap((f) => [
    ...(f.grants ?? []),
    ...(f.screens ?? []).flatMap((s) => (s.reads ? [{ routePrefix: s.route, read: [...s.reads] }] : [])),
  ]);
}

/** The areas' listeners of accreditation events, in the areas' order. */
export function featureListeners(ctx: FeatureContext, features: Feature[] = FEATURES): AccreditationEvents {
  return new AccreditationEvents(
    features.flatMap((f) => (f.listens ? [{ owner: f.name, listen: f.listens(ctx) }] : [])),
  );
}

/** What the areas' records qualify a person for at the doors (an induction), in the areas' order. */
export function featureQualifications(
  ctx: FeatureContext,
  features: Feature[] = FEATURES,
): QualificationSource[] {
  return features.flatMap((f) => (f.qualifications ? [f.qualifications(ctx)] : []));
}

/** Who the areas' records place away from the site in the company's care, in the areas' order. */
export function featureWhereabouts(ctx: FeatureContext, features: Feature[] = FEATURES): Whereabouts[] {
  return features.flatMap((f) => (f.whereabouts ? [f.whereabouts(ctx)] : []));
}

/** What the areas' records prove of accreditation requirements, in the areas' order. */
export function featureRequirementSources(ctx: FeatureContext, features: Feature[] = FEATURES) {
  return new RequirementSources(features.flatMap((f) => f.requirementSources?.(ctx) ?? []));
}

/** The areas' entity hooks, merged and checked against the registry (an unknown name fails at start-up). */
export function featureHooks(ctx: FeatureContext, features: Feature[] = FEATURES) {
  return mergeHooks(
    ctx.registry,
    ...features.flatMap((f) => (f.hooks ? [{ owner: f.name, hooks: f.hooks(ctx) }] : [])),
  );
}

/** What the areas' records say about keeping people's data, in the areas' order. */
export function featurePersonalData(
  ctx: FeatureContext,
  features: Feature[] = FEATURES,
): PersonalDataSource[] {
  return features.flatMap((f) => (f.personalData ? [f.personalData(ctx)] : []));
}
