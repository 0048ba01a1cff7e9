import type { HookMap } from '../../crud/types.js';
import { ApiError } from '../../errors.js';

/** Rules of the dining set-up beyond the schemas. */
export function diningHooks(): HookMap {
  return {
    'dining-cost-assignment': {
      // By position type or by cost category: exactly one of the two.
      async beforeWrite({ data }) {
        const position = data.IdTipoPosicion != null;
        const category = data.IdCategoriaCosto != null;
        if (position === category) {
          const problem = { messageKey: 'rules.costAssignmentBasis' };
          throw new ApiError('VALIDATION_FAILED', {
            fields: { IdTipoPosicion: problem, IdCategoriaCosto: problem },
          });
        }
      },
    },
  };
}
