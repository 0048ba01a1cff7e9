import type { CreateThrough } from '../types.js';

type Data = Record<string, unknown>;

/**
 * A new user of the users screen is registered by POST /api/auth/register: validated as the screen
 * validates it, made to change the temporary password the product e-mails it at the first sign-in.
 * The first sign-in flag is the call's to set, not the form's.
 */
export const registerUser: CreateThrough = {
  url: '/api/auth/register',
  body: ({ PrimeraClaveCambiada: _firstChanged, ...user }: Data) => user,
  record: (result) => (result as { usuario: Data }).usuario,
};
