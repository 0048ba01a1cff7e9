import type { CurrentProfile, MenuItem } from '../../shared/session.js';

export type { CurrentProfile, MenuItem };

/** A division the user may work in, with the profile it goes with. */
export interface DivisionChoice {
  IdDivision: number;
  IdCliente: number;
  Cliente: string;
  Division: string;
  IdPerfil: number;
  IdPais: string | null;
  IdCompania: number | null;
  Compania: string | null;
}

export interface AuthState {
  accessToken: string;
  refreshToken: string;
  username: string;
  fullName: string;
}

/** The profile store of spec section 3: current profile, the list to switch to, the menu. */
export interface ProfileState {
  current: CurrentProfile;
  profiles: Array<{ IdPerfil: number; Perfil: string }>;
  divisions: DivisionChoice[];
  menu: MenuItem[];
  /** Seconds without activity before the screen locks, from the user's login setting. */
  lockSeconds: number;
}

const AUTH_KEY = 'acreditacion.auth';
const PROFILE_KEY = 'acreditacion.profile';
/** Set while the screen is locked: a reload does not unlock it. */
const LOCK_KEY = 'acreditacion.locked';
/** The server's lock ticket: with the password it resumes the locked session. */
const TICKET_KEY = 'acreditacion.lockTicket';

function read<T>(key: string): T | undefined {
  try {
    const raw = window.localStorage.getItem(key);
    return raw ? (JSON.parse(raw) as T) : undefined;
  } catch {
    return undefined;
  }
}

/** The profile's site country, parsed again only when the stored profile changes. */
let countryOf: { raw: string | null; country: string | null } = { raw: null, country: null };

export const session = {
  /**
   * The country of the current division's site, whose clock the screens write times in. Cheap
   * enough for every cell of a grid: the stored profile is parsed once per change, not per call.
   */
  siteCountry(): string | null {
    let raw: string | null = null;
    try {
      raw = window.localStorage.getItem(PROFILE_KEY);
    } catch {
      return null;
    }
    if (raw !== countryOf.raw)
      countryOf = { raw, country: raw ? (read<ProfileState>(PROFILE_KEY)?.current.IdPais ?? null) : null };
    return countryOf.country;
  },
  auth: (): AuthState | undefined => read<AuthState>(AUTH_KEY),
  profile: (): ProfileState | undefined => read<ProfileState>(PROFILE_KEY),
  saveAuth(auth: AuthState): void {
    window.localStorage.setItem(AUTH_KEY, JSON.stringify(auth));
  },
  saveTokens(accessToken: string, refreshToken: string): void {
    const auth = read<AuthState>(AUTH_KEY);
    if (auth) window.localStorage.setItem(AUTH_KEY, JSON.stringify({ ...auth, accessToken, refreshToken }));
  },
  saveProfile(profile: ProfileState): void {
    window.localStorage.setItem(PROFILE_KEY, JSON.stringify(profile));
  },
  locked: (): boolean => window.localStorage.getItem(LOCK_KEY) === 'S',
  setLocked(locked: boolean): void {
    if (locked) window.localStorage.setItem(LOCK_KEY, 'S');
    else {
      window.localStorage.removeItem(LOCK_KEY);
      window.localStorage.removeItem(TICKET_KEY);
    }
  },
  lockTicket: (): string | undefined => window.localStorage.getItem(TICKET_KEY) ?? undefined,
  saveLockTicket(ticket: string): void {
    window.localStorage.setItem(TICKET_KEY, ticket);
  },
  /** Everything the session kept: tokens, profile, menu, the lock marker and the lists' remembered filters. */
  clear(): void {
    for (const key of [AUTH_KEY, PROFILE_KEY, LOCK_KEY, TICKET_KEY]) window.localStorage.removeItem(key);
    for (const key of Object.keys(window.localStorage)) {
      if (key.startsWith('RaStoreacreditacion') && /\.listParams$/.test(key))
        window.localStorage.removeItem(key);
      // Another user or client may see other reference lists.
      if (key.startsWith('acreditacion.ref.')) window.localStorage.removeItem(key);
    }
  },
  signedIn(): boolean {
    return Boolean(read<AuthState>(AUTH_KEY)?.accessToken && read<ProfileState>(PROFILE_KEY)?.current);
  },
};
