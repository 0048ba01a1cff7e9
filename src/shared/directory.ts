/** The directory sign-in's calls (spec section 7, /api/UsuarioAD) and the popup's message to the sign-in page. */
export const DIRECTORY = {
  status: '/api/UsuarioAD/configuracion',
  start: '/api/UsuarioAD/iniciar',
  authenticate: '/api/UsuarioAD/authenticateAzureAD',
  /** The type of the message the callback page posts to its opener (same origin only). */
  message: 'acreditacion:directorio',
} as const;
