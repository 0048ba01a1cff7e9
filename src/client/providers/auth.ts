import type { AuthProvider } from 'react-admin';
import { ALWAYS_ALLOWED_ROUTES } from '../../shared/session.js';
import { LOGIN_PATH, NO_PERMISSION_PATH } from '../paths.js';
import { apiFetch } from '../session/http.js';
import { session } from '../session/store.js';
import { isScreen, type Meta } from './meta.js';

export { LOGIN_PATH, NO_PERMISSION_PATH };

/** Signs out on the server (the refresh tokens stop working) and forgets the session here. */
export async function signOut(): Promise<void> {
  if (session.auth()?.accessToken) {
    await apiFetch('/api/accesskey/expiretoken', { method: 'POST' }).catch(() => undefined);
  }
  session.clear();
}

/**
 * react-admin's view of the session: signing in happens on the login page (its own flow), so
 * this only checks that a session with a profile exists, signs out, names the user, and says
 * which screens the profile may use, from the resources the server described.
 */
export function createAuthProvider(meta: Meta): AuthProvider {
  // Only the screens of the menu open; the other readable resources lend their labels.
  const access = new Map(meta.resources.filter((r) => isScreen(meta, r.name)).map((r) => [r.name, r.access]));
  return {
    login: async () => undefined,
    logout: async () => {
      await signOut();
      return LOGIN_PATH;
    },
    checkAuth: async () => {
      if (!session.signedIn()) throw { redirectTo: LOGIN_PATH, message: false };
    },
    checkError: async (error: { status?: number }) => {
      if (error?.status === 401) throw { redirectTo: LOGIN_PATH, message: false };
      // The profile does not reach what was asked for: the no-permission page, still signed in.
      if (error?.status === 403) throw { redirectTo: NO_PERMISSION_PATH, logoutUser: false, message: false };
    },
    getIdentity: async () => {
      const auth = session.auth();
      return { id: auth?.username ?? '', fullName: auth?.fullName };
    },
    getPermissions: async () => ({
      profileType: session.profile()?.current.tipoPerfil,
      routes: [...ALWAYS_ALLOWED_ROUTES, ...meta.routes],
    }),
    canAccess: async ({ action, resource }) => {
      const level = access.get(resource);
      if (!level) return false;
      return ['list', 'show', 'export'].includes(action) ? true : level === 'write';
    },
  };
}
