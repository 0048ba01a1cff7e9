import type { SensitiveClass } from '../shared/data-classes.js';
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
  /** The sensitive classes of personal data (health, criminal record) the user reads with this profile. */
  sensitive?: ReadonlySet<SensitiveClass>;
}

/**
 * The principal of a working session (a profile chosen): the user, the profile with its grants,
 * and the client, division and company the session works in. The auth hook makes one for each
 * request; a job resumed at start makes its uploader's.
 */
export function workingPrincipal(
  who: { userId: string; profileId: number; clientId?: number; divisionId?: number; companyId?: number },
  grants: Grants,
  sessionId?: string,
  sensitive: ReadonlySet<SensitiveClass> = new Set(),
): Principal {
  return { ...who, sessionId, stage: 'session', grants, profileType: grants.profileType, sensitive };
}
