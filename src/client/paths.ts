/** The shell's own addresses (spec section 2). */
export const LOGIN_PATH = '/auth/login';
export const DASHBOARD_PATH = '/dashboard';
export const NO_PERMISSION_PATH = '/sinpermiso';

/** Pages the console shows to anybody, signed in or not: the error pages, a worker's online induction test. */
export const PUBLIC_CONSOLE_PATHS = /^\/(?:error|sinpermiso|prueba-induccion)(?:\/|$)/;
