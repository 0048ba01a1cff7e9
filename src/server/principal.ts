import type { ProfileType } from '../shared/session.js';
import type { Grants } from './auth/permissions.js';
import type { Stage } from './auth/sessions.js';

/** Who is calling: set on every protected /api request by the auth hook (plugins/auth.ts). */
export interface Principal {
  userId: string;
  sessionId?: string;
  /** login: signed in but no profile chosen yet; session: working with a profile. */
  stage?: Stage;
  profileId?: number;
  clientId?: number;
  divisionId?: number;
  /** Set for contractor profiles: they see and write only their company's records. */
  companyId?: number;
  profileType?: ProfileType;
  grants?: Grants;
}
