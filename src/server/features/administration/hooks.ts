import type { HookMap } from '../../crud/types.js';
import { ApiError } from '../../errors.js';
import type { Registry } from '../../registry.js';
import { claimOf, recordEmployment } from './employment.js';

/** Rules of the administration screens beyond the schemas (spec section 4). */
export function administrationHooks(registry: Registry): HookMap {
  return {
    person: {
      // Registered by another company once ceased or free, the person moves (employment.ts).
      claim: ({ db, data }) => claimOf(db, registry, data),
      async afterWrite({ db, row, existing, principal }) {
        await recordEmployment(db, registry, principal, row, existing);
      },
      // A person holding a position must be ceased before another is assigned (reinstating a
      // ceased person with a new position is the way back).
      async beforeWrite({ data, existing, operation }) {
        if (operation !== 'update' || !existing) return;
        const before = existing.IdPosicion ?? null;
        const after = data.IdPosicion ?? null;
        if (before !== null && after !== before && existing.Condicion !== 'C')
          throw new ApiError('BUSINESS_RULE', { messageKey: 'rules.personMustCease' });
      },
    },
  };
}
