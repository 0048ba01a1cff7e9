import { ApiError } from '../errors.js';
import type { Registry } from '../registry.js';
import type { EntityHooks } from '../services/crud.js';

/**
 * Business rules of the configuration screens that no schema keyword expresses (spec sections 5
 * and 8). Each runs inside the write's transaction and refuses with the spec's message.
 */
export function configurationHooks(registry: Registry): Record<string, EntityHooks> {
  const table = (name: string) => registry.require(name).table;
  return {
    person: {
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
    camp: {
      // Releasing reservations needs the number of days, greater than 0.
      async beforeWrite({ data }) {
        if (data.LiberarReserva === 'S' && !((data.DiasLiberarReserva as number) > 0))
          throw new ApiError('VALIDATION_FAILED', {
            fields: { DiasLiberarReserva: { messageKey: 'rules.releaseDays' } },
          });
      },
    },
    'field-rule': {
      // A rule names a form that exists and a field that form writes.
      async beforeWrite({ data }) {
        const form = registry.get(String(data.IdDato));
        if (!form || form.readOnly)
          throw new ApiError('VALIDATION_FAILED', {
            fields: { IdDato: { messageKey: 'validation.unknownForm' } },
          });
        const scope = new Set(Object.values(form.scope));
        if (!form.writable.includes(String(data.Campo)) || scope.has(String(data.Campo)))
          throw new ApiError('VALIDATION_FAILED', {
            fields: { Campo: { messageKey: 'validation.unknownFormField', params: { form: form.name } } },
          });
      },
    },
  };
}
