import { INDUCTION_SCREENS } from '../../../shared/screens.js';
import type { Feature } from '../feature.js';
import inductionRoutes from './routes.js';

/**
 * Inductions: the client's safety courses and their sessions; contractors book their workers, the
 * trainer takes attendance and scores, a passed induction is a record that fills the accreditation
 * requirement bound to its course and opens the doors that require it.
 */
export const induction: Feature = {
  name: 'induction',
  screens: Object.values(INDUCTION_SCREENS),
  routes: inductionRoutes,
};
