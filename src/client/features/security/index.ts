import type { ClientFeature } from '../types.js';
import { registerUser } from './register.js';
import SetPasswordButton from './SetPasswordButton.js';

/** Security: the users screen sets a user's password, and registers new users through auth/register. */
export const security: ClientFeature = {
  name: 'security',
  recordActions: { user: SetPasswordButton },
  creates: { user: registerUser },
};
