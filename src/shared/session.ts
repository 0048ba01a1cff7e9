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
export const ALWAYS_ALLOWED_ROUTES = ['/dashboard', '/seguridad/usuarioLogin'] as const;

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
