import { INDUCTION_SCREENS } from '../../../shared/screens.js';
import type { Feature } from '../feature.js';
import { seedDemoInductions } from './demo.js';
import { inductionHooks } from './hooks.js';
import { inductionQualifications } from './qualifications.js';
import { requirementSources } from './requirement-source.js';
import inductionRoutes from './routes.js';

/**
 * Inductions: the client's safety courses and their sessions; contractors book their workers, the
 * trainer takes attendance and scores, a passed induction is a record that fills the accreditation
 * requirement bound to its course and opens the doors that require it.
 */
export const induction: Feature = {
  name: 'induction',
  screens: Object.values(INDUCTION_SCREENS),
  hooks: inductionHooks,
  routes: inductionRoutes,
  demo: { order: 40, seed: seedDemoInductions },
  qualifications: inductionQualifications,
  requirementSources,
};
