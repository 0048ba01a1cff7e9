import type { ComponentType } from 'react';
import type { ProfileType } from '../../shared/session.js';
import type { Slots } from '../providers/extensions.js';
import { access } from './access/index.js';
import { accreditation } from './accreditation/index.js';
import { administration } from './administration/index.js';
import { attendance } from './attendance/index.js';
import { dining } from './dining/index.js';
import { hotel } from './hotel/index.js';
import { identification } from './identification/index.js';
import { induction } from './induction/index.js';
import { privacy } from './privacy/index.js';
import { security } from './security/index.js';
import { transport } from './transport/index.js';
import type { ClientFeature, CreateThrough, FeatureRoute } from './types.js';
import { webhooks } from './webhooks/index.js';

/** The console's feature areas, each with its screens; the generic screens serve the rest. */
export const FEATURES: readonly ClientFeature[] = [
  accreditation,
  access,
  administration,
  attendance,
  identification,
  hotel,
  dining,
  induction,
  transport,
  security,
  webhooks,
  privacy,
];

export const FEATURE_ROUTES: FeatureRoute[] = FEATURES.flatMap((f) => f.routes ?? []);

/** The features' pages that need no sign-in, drawn without the shell. */
export const PUBLIC_FEATURE_ROUTES = FEATURES.flatMap((f) => f.publicRoutes ?? []);

/** Actions a resource adds to its show and edit screens beyond the generic ones. */
export const RECORD_ACTIONS: Record<string, ComponentType> = Object.assign(
  {},
  ...FEATURES.map((f) => f.recordActions ?? {}),
);

/** Actions a resource adds to its list beyond the generic ones. */
export const LIST_ACTIONS: Record<string, ComponentType> = Object.assign(
  {},
  ...FEATURES.map((f) => f.listActions ?? {}),
);

/** Resources whose new records a feature's call makes (users: auth/register). */
export const CREATES: Record<string, CreateThrough> = Object.assign(
  {},
  ...FEATURES.map((f) => f.creates ?? {}),
);

/** What a resource's show and edit screens show below their fields. */
export const RECORD_PANELS: Record<string, ComponentType> = Object.assign(
  {},
  ...FEATURES.map((f) => f.recordPanels ?? {}),
);

/** What the features show in named places of each other's screens. */
export const SLOTS: Partial<Slots> = Object.assign({}, ...FEATURES.map((f) => f.slots ?? {}));

/** The dashboard of a profile type, when a feature gives it one. */
export function dashboardFor(type: ProfileType | undefined): ComponentType | undefined {
  return type ? FEATURES.find((f) => f.dashboards?.[type])?.dashboards?.[type] : undefined;
}
