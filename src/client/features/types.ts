import type { ComponentType } from 'react';
import type { ProfileType } from '../../shared/session.js';

/** A screen of a feature at its route (react-router path, inside the console's shell). */
export interface FeatureRoute {
  path: string;
  Component: ComponentType;
}

/**
 * What a feature area adds to the console: its screens at their routes, the dashboard of the
 * profile types it serves, and actions on the generic screens of some resources.
 */
export interface ClientFeature {
  name: string;
  routes?: FeatureRoute[];
  dashboards?: Partial<Record<ProfileType, ComponentType>>;
  recordActions?: Record<string, ComponentType>;
}
