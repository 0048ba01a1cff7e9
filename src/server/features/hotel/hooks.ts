import type { HookMap } from '../../crud/types.js';
import { ApiError } from '../../errors.js';
import type { Registry } from '../../registry.js';

/** Rules of the hotel screens beyond the schemas (spec section 5). */
export function hotelHooks(_registry: Registry): HookMap {
  return {
    camp: {
      // Releasing reservations needs the number of days, greater than 0.
      async beforeWrite({ data }) {
        if (data.LiberarReserva === 'S' && !((data.DiasLiberarReserva as number) > 0))
          throw new ApiError('VALIDATION_FAILED', {
            fields: { DiasLiberarReserva: { messageKey: 'rules.releaseDays' } },
          });
      },
    },
  };
}
