import type { Db } from '../db/connection.js';
import type { Registry } from '../registry.js';
import type { Accounts } from './accounts.js';
import type { Authenticator } from './authenticator.js';
import type { ClientTokenVerifier } from './challenge.js';
import type { Codes } from './codes.js';
import type { Notifier } from './notifier.js';
import type { Sessions } from './sessions.js';
import type { ThrottleLimits } from './throttle.js';

/** What the parts of the sign-in share: the database, the accounts, sessions, codes, the mail and the clock. */
export interface AuthContext {
  db: Db;
  registry: Registry;
  accounts: Accounts;
  sessions: Sessions;
  codes: Codes;
  /** The second factor by authenticator app (TOTP). */
  authenticator: Authenticator;
  notifier: Notifier;
  throttle: ThrottleLimits;
  /** The sign-in challenge (tokenClient): issued, verified once, made harder by failures. */
  challenges: ClientTokenVerifier;
  now: () => number;
}
