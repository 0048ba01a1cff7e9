import type { ComponentType } from 'react';
import type { ProfileType } from '../../shared/session.js';
import type { Slots } from '../providers/extensions.js';

/** A screen of a feature at its route (react-router path, inside the console's shell). */
export interface FeatureRoute {
  path: string;
  Component: ComponentType;
  /**
   * Also reached from a screen of profiles whose menu lacks it (a requester's headcount tab opens
   * its own people's roll call): it opens for any signed-in profile, and its calls keep to what
   * the profile may read. Without it, a screen opens only for a profile whose menu holds it.
   */
  beyondMenu?: true;
}

/**
 * A resource whose new records a call of its own makes rather than the generic create (users through
 * auth/register): where it posts, the body it sends from the form's data, and the record in its answer.
 */
export interface CreateThrough {
  url: string;
  body: (data: Record<string, unknown>) => Record<string, unknown>;
  record: (result: unknown) => Record<string, unknown>;
}

/**
 * What a feature area adds to the console: its screens at their routes, the dashboard of the
 * profile types it serves, actions on the generic screens of some resources, and the parts it shows
 * in named places of other features' screens.
 */
export interface ClientFeature {
  name: string;
  routes?: FeatureRoute[];
  /**
   * Pages anybody with the address opens, signed in or not, outside the shell (a worker's online
   * test from a link): their paths must be among the console's public ones (PUBLIC_CONSOLE_PATHS).
   */
  publicRoutes?: Array<Pick<FeatureRoute, 'path' | 'Component'>>;
  dashboards?: Partial<Record<ProfileType, ComponentType>>;
  recordActions?: Record<string, ComponentType>;
  /** Actions on some resources' lists (the retention job's dry run and run, on its rules' list). */
  listActions?: Record<string, ComponentType>;
  /** Resources whose create screen saves through a call of the feature's. */
  creates?: Record<string, CreateThrough>;
  /** A part below the fields of a resource's show and edit screens (it reads the record from the context). */
  recordPanels?: Record<string, ComponentType>;
  slots?: Partial<Slots>;
}
