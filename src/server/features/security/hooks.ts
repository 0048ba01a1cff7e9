import { randomInt } from 'node:crypto';
import { Accounts } from '../../auth/accounts.js';
import type { Notifier } from '../../auth/notifier.js';
import { passwordSaveFailed } from '../../auth/password-changes.js';
import { hashPassword } from '../../auth/passwords.js';
import { AUTH_TABLES } from '../../auth/tables.js';
import type { HookMap } from '../../crud/types.js';
import { ApiError } from '../../errors.js';
import type { Registry } from '../../registry.js';
import { emailHolder, emailTaken, UserRights } from './rights.js';

const ALPHABETS = ['ABCDEFGHJKLMNPQRSTUVWXYZ', 'abcdefghijkmnpqrstuvwxyz', '23456789', '#$%&*+-=?@'];

/** A temporary password that passes the strictest level: 12 characters of every kind. */
export function temporaryPassword(): string {
  const chars = ALPHABETS.flatMap((alphabet) => [alphabet[randomInt(alphabet.length)]]);
  const all = ALPHABETS.join('');
  while (chars.length < 12) chars.push(all[randomInt(all.length)]);
  for (let i = chars.length - 1; i > 0; i--) {
    const j = randomInt(i + 1);
    [chars[i], chars[j]] = [chars[j], chars[i]];
  }
  return chars.join('');
}

/** The security entities' rules: accounts, login settings, contractor users, the menu tree. */
export function securityHooks(registry: Registry, notifier: Notifier): HookMap {
  return {
    user: {
      // Nobody hands on a flag they lack or writes a user who holds more than they do; an e-mail
      // names one active user of a client (kept in lower case, as addresses are compared).
      async beforeWrite({ db, data, existing, principal }) {
        await new UserRights(db, registry, principal).checkUser(data, existing);
        // Asked only when the address, or whether the user is active, changes.
        const active = (data.Activo ?? 'S') === 'S';
        const changes = !existing || existing.Correo !== data.Correo || existing.Activo !== 'S';
        const clientId = data.IdCliente ?? existing?.IdCliente ?? principal.clientId;
        const userId = data.IdUsuario ?? existing?.IdUsuario;
        if (active && changes && (await emailHolder(db, registry, clientId, data.Correo, userId)))
          throw emailTaken();
      },
      async beforeDelete({ db, existing, principal }) {
        await new UserRights(db, registry, principal).checkUser(existing, existing);
      },
      // A new user gets a temporary password by e-mail and must change it at the first sign-in.
      async afterWrite({ db, row, operation }) {
        const userId = String(row.IdUsuario);
        if (operation === 'create') {
          const password = temporaryPassword();
          try {
            await new Accounts(db, registry).storePassword(userId, await hashPassword(password), Date.now());
          } catch (error) {
            throw passwordSaveFailed(error);
          }
          await notifier.send(
            {
              clientId: row.IdCliente as number | null,
              userId,
              channel: 'C',
              to: String(row.Correo),
              subject: 'Su cuenta de Acreditación / Your Acreditación account',
              text:
                `Usuario: ${userId}\nClave temporal: {secret}\nDebe cambiarla al iniciar sesión.\n\n` +
                `User: ${userId}\nTemporary password: {secret}\nYou must change it when you sign in.`,
              secret: password,
            },
            db,
          );
        }
        // An administrator who sets Bloqueado back to N lifts the lock and its counters.
        if (operation === 'update' && row.Bloqueado === 'N') {
          await db.deleteFrom(AUTH_TABLES.state).where('IdUsuario', '=', userId).execute();
        }
      },
    },
    'login-setting': {
      // The phone channel needs an SMS centre (SMPP_URL): without one its users would get no code.
      async beforeWrite({ data }) {
        if (data.NotificarPor === 'T' && !notifier.sendsSms) {
          throw new ApiError('VALIDATION_FAILED', {
            fields: { NotificarPor: { messageKey: 'validation.smsNotConfigured' } },
          });
        }
      },
    },
    'user-profile': {
      // Only a profile the caller holds, to a user the caller covers; and spec section 5: a
      // contractor user needs an associated company.
      async beforeWrite({ db, data, existing, principal }) {
        await new UserRights(db, registry, principal).checkAssignment(data, existing);
        if (data.IdCompania !== undefined) return;
        const user = (await db
          .selectFrom(registry.require('user').table)
          .select('Contratista')
          .where('IdUsuario', '=', data.IdUsuario as string)
          .executeTakeFirst()) as { Contratista: string } | undefined;
        if (user?.Contratista === 'S') {
          throw new ApiError('VALIDATION_FAILED', {
            fields: { IdCompania: { messageKey: 'validation.contractorCompany' } },
          });
        }
      },
      async beforeDelete({ db, existing, principal }) {
        await new UserRights(db, registry, principal).checkAssignment(
          { IdUsuario: existing.IdUsuario },
          existing,
        );
      },
    },
    menu: {
      // IdMenu is a pair of digits per level: an item's parent is its id without the last pair.
      async beforeWrite({ data }) {
        const id = String(data.IdMenu);
        const parent = id.length > 2 ? id.slice(0, -2) : undefined;
        if ((data.IdMenuPadre ?? undefined) !== parent) {
          throw new ApiError('VALIDATION_FAILED', {
            fields: {
              IdMenuPadre: {
                messageKey: parent ? 'validation.menuParent' : 'validation.menuRoot',
                params: { parent: parent ?? '' },
              },
            },
          });
        }
      },
    },
  };
}
