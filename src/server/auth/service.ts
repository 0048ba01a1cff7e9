import { randomBytes } from 'node:crypto';
import type { Db } from '../db/connection.js';
import type { Registry } from '../registry.js';
import { Accounts } from './accounts.js';
import { Attempts } from './attempts.js';
import { Authenticator } from './authenticator.js';
import { type ClientTokenVerifier, noChallenge } from './challenge.js';
import type { Codes } from './codes.js';
import type { AuthContext } from './context.js';
import { DirectorySignIn } from './directory.js';
import { Eligibility } from './eligibility.js';
import type { Notifier } from './notifier.js';
import { Passwords } from './password-changes.js';
import { Profiles } from './profiles.js';
import { SecondFactor } from './second-factor.js';
import type { Sessions } from './sessions.js';
import { SignIn } from './sign-in.js';
import { DEFAULT_THROTTLE, type ThrottleLimits } from './throttle.js';

export interface AuthOptions {
  /** The sign-in challenge; none (every answer passes) when not given. */
  challenges?: ClientTokenVerifier;
  throttle?: ThrottleLimits;
  now?: () => number;
  /** The server's secret, from which the key that encrypts the authenticator apps' secrets is derived. */
  secret?: Uint8Array;
}

/**
 * Sign-in and everything around it, in parts of one purpose each: the first steps (password,
 * code), profiles and the screen lock, password changes and recovery. Failed attempts, locks and
 * the eligibility to work are shared by them.
 */
export class AuthService {
  readonly now: () => number;
  readonly signIn: SignIn;
  readonly profiles: Profiles;
  readonly passwords: Passwords;
  readonly directory: DirectorySignIn;
  readonly challenges: ClientTokenVerifier;
  readonly authenticator: Authenticator;
  readonly secondFactor: SecondFactor;

  constructor(
    db: Db,
    registry: Registry,
    readonly sessions: Sessions,
    readonly codes: Codes,
    notifier: Notifier,
    options: AuthOptions = {},
  ) {
    this.now = options.now ?? Date.now;
    this.challenges = options.challenges ?? noChallenge;
    this.authenticator = new Authenticator(db, options.secret ?? randomBytes(32), this.now);
    const ctx: AuthContext = {
      db,
      registry,
      accounts: new Accounts(db, registry),
      sessions,
      codes,
      authenticator: this.authenticator,
      notifier,
      throttle: options.throttle ?? DEFAULT_THROTTLE,
      challenges: this.challenges,
      now: this.now,
    };
    const attempts = new Attempts(ctx);
    const eligibility = new Eligibility(ctx);
    this.signIn = new SignIn(ctx, attempts, eligibility);
    this.profiles = new Profiles(ctx, attempts, eligibility);
    this.passwords = new Passwords(ctx, attempts, eligibility, this.signIn);
    this.directory = new DirectorySignIn(ctx, attempts, this.signIn);
    this.secondFactor = new SecondFactor(ctx, attempts);
  }
}
