import type { HookMap } from '../../crud/types.js';
import { ApiError } from '../../errors.js';
import type { Registry } from '../../registry.js';

/** Rules of the identification screens beyond the schemas (spec section 4). */
export function identificationHooks(registry: Registry): HookMap {
  const table = (name: string) => registry.require(name).table;
  return {
    credential: {
      // A new credential cannot be registered while the person has an active one.
      async beforeWrite({ db, data, existing }) {
        if (data.Activo !== 'S') return;
        let qb = db
          .selectFrom(table('credential'))
          .select('IdCredencial')
          .where('IdPersona', '=', data.IdPersona as number)
          .where('Activo', '=', 'S');
        if (existing) qb = qb.where('IdCredencial', '<>', existing.IdCredencial as number);
        if (await qb.limit(1).executeTakeFirst())
          throw new ApiError('BUSINESS_RULE', { messageKey: 'rules.credentialActive' });
      },
    },
  };
}
