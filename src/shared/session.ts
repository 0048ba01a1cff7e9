/** Profile type (tipoPerfil) and the routes every signed-in user reaches, shared by server and console. */
export type ProfileType = 'authoriser' | 'requester' | 'administrator' | 'none';

/** Profile characteristics (spec section 3): authoriser, requester, administrator. */
export const CHARACTERISTICS = { authoriser: 'AUT', requester: 'SOL', administrator: 'ADM' } as const;

/** Authoriser wins, then requester, then administrator (spec section 3). */
export function profileTypeOf(characteristics: readonly string[]): ProfileType {
  if (characteristics.includes(CHARACTERISTICS.authoriser)) return 'authoriser';
  if (characteristics.includes(CHARACTERISTICS.requester)) return 'requester';
  if (characteristics.includes(CHARACTERISTICS.administrator)) return 'administrator';
  return 'none';
}

/** Authorisers and administrators both count as authorisers (esAutorizador). */
export function isAuthoriser(characteristics: readonly string[]): boolean {
  return (
    characteristics.includes(CHARACTERISTICS.authoriser) ||
    characteristics.includes(CHARACTERISTICS.administrator)
  );
}

/** Screens of the shell itself, open to every profile. */
export const ALWAYS_ALLOWED_ROUTES = ['/dashboard', '/seguridad/usuarioLogin', '/manuales'] as const;

/** Headers of the token renewal of spec section 8. */
export const TOKEN_HEADERS = {
  refresh: 'x-refresh-token',
  recreated: 'x-token-recreated',
  action: 'x-token-action',
  newAccess: 'x-access-token',
  newRefresh: 'x-new-refresh-token',
  path: 'x-current-path',
} as const;

/** What the console must do when the server answers 401 (the flag of X-Token-Action). */
export type TokenAction = 'retry' | 'lock' | 'logout';

/** A menu item as the menu fetch answers it (spec section 3). */
export interface MenuItem {
  IdMenu: string;
  IdMenuPadre: string | null;
  Modulo: string;
  Ruta: string | null;
  Orden: number;
  Tag: string;
  Icono: string | null;
  Color: string | null;
  Color2: string | null;
}

/** The current profile of spec section 3, with its derived type. */
export interface CurrentProfile {
  IdPerfil: number;
  Perfil: string;
  IdCliente: number;
  IdDivision: number;
  Cliente: string;
  Division: string;
  IdPais: string | null;
  Contratista: 'S' | 'N';
  ResponsableContratista: 'S' | 'N';
  IdCompania: number | null;
  Compania: string | null;
  RolAcreditacion: string | null;
  IdUsuarioPerfil: number;
  tipoPerfil: ProfileType;
  esAutorizador: boolean;
}

/** The current profile with the profile's characteristics, as the session calls answer it. */
export interface SessionProfile extends CurrentProfile {
  caracteristicas: string[];
}

/** A profile the user holds (spec section 3). */
export interface ProfileEntry {
  IdPerfil: number;
  Perfil: string;
  IdUsuario: string;
  NombreCompleto: string;
}

/** A division the user may work in, with the profile it goes with (spec section 3). */
export interface DivisionEntry {
  IdDivision: number;
  IdCliente: number;
  Cliente: string;
  Division: string;
  IdPerfil: number;
  IdPais: string | null;
  IdUsuarioPerfil: number;
  IdCompania: number | null;
  Compania: string | null;
}

/** The login response of spec section 3, and the few fields the console needs besides. */
export interface LoginResponse {
  username: string;
  firstName: string;
  lastName: string;
  fullName: string;
  accessToken: string;
  refreshToken: string;
  cambiarClaveCaducada: 'S' | 'N';
  dobleAutenticacion: 'S' | 'N';
  /** S: the tokens are empty until the authenticator app's code is given (POST /usuario/validatetotp). */
  autenticadorApp?: 'S' | 'N';
  /** S: the setting requires the authenticator app and the user has none: enrol first, with ticketAutenticador. */
  enrolarAutenticador?: 'S' | 'N';
  /** The single-use ticket of that enrolment (POST /usuario/enrolartotp and /usuario/confirmartotp). */
  ticketAutenticador?: string;
  flagTelefono: 'S' | 'N';
  primeraClaveCambiada: 'S' | 'N';
  minutosCaduca: number;
  longitudClave: number;
  nivelSeguridadClave: string;
  perfil: ProfileEntry[];
  division: DivisionEntry[];
  contratista: 'S' | 'N';
  responsableContratista: 'S' | 'N';
  idCompania: number | null;
  compania: string | null;
  rolAcreditacion: string | null;
  /** Days until the password expires (null when it does not): the notice at 6 or fewer. */
  diasCaducidadClave: number | null;
  segundosInactividad: number;
}

/** The answer of the calls that open a working session: its tokens and its profile. */
export interface SessionAnswer {
  accessToken: string;
  refreshToken: string;
  perfil: SessionProfile;
}
