import type { HookMap } from '../../crud/types.js';
import { ApiError } from '../../errors.js';
import type { Signal } from '../../jobs/signal.js';
import type { Registry } from '../../registry.js';
import { noteMarkedDays } from '../../services/site/tables.js';

/** Rules of the access screens beyond the schemas (spec section 8). */
export function accessHooks(registry: Registry, markingsWritten?: Signal): HookMap {
  const table = (name: string) => registry.require(name).table;
  // A marking written or removed by hand changes the days it was on: noted as a device's are.
  const noted = (row: Record<string, unknown> | undefined) => (row ? [{ ...row, Resultado: 'P' }] : []);
  return {
    marking: {
      async afterWrite({ db, row, existing }) {
        await noteMarkedDays(db, [...noted(existing), ...noted(row)]);
      },
      async beforeDelete({ db, existing }) {
        await noteMarkedDays(db, noted(existing));
      },
      committed: () => markingsWritten?.fire(),
    },
    'schedule-interval': {
      // Intervals of one schedule and day may not overlap: the spec's "interval already exists".
      async beforeWrite({ db, data, existing }) {
        let qb = db
          .selectFrom(table('schedule-interval'))
          .select('IdHorarioIntervalo')
          .where('IdHorario', '=', data.IdHorario as number)
          .where('Dia', '=', data.Dia as number)
          .where('HoraInicio', '<', data.HoraFin as string)
          .where('HoraFin', '>', data.HoraInicio as string);
        if (existing) qb = qb.where('IdHorarioIntervalo', '<>', existing.IdHorarioIntervalo as number);
        if (await qb.limit(1).executeTakeFirst())
          throw new ApiError('BUSINESS_RULE', {
            messageKey: 'rules.intervalExists',
            fields: { HoraInicio: { messageKey: 'rules.intervalExists' } },
          });
      },
    },
  };
}
