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
    'room-service': {
      // Who asked and when, and once it is done, who did it and when: kept by the product.
      async afterWrite({ db, entity, principal, operation, existing, row }) {
        const at = new Date().toISOString();
        const change: Record<string, unknown> = {};
        if (operation === 'create') change.FechaSolicitud = at;
        else change.FechaSolicitud = existing?.FechaSolicitud ?? at;
        if (row.Estado === 'R' && existing?.Estado !== 'R') {
          change.IdUsuarioRealiza = principal.userId;
          change.FechaRealizado = at;
        } else if (row.Estado === 'R') {
          change.IdUsuarioRealiza = existing?.IdUsuarioRealiza ?? principal.userId;
          change.FechaRealizado = existing?.FechaRealizado ?? at;
        } else {
          change.IdUsuarioRealiza = null;
          change.FechaRealizado = null;
        }
        await db
          .updateTable(entity.table)
          .set(change)
          .where(entity.primaryKey, '=', row[entity.primaryKey] as number)
          .execute();
        Object.assign(row, change);
      },
    },
  };
}
