import type { HookMap } from '../../crud/types.js';
import { ApiError } from '../../errors.js';
import type { Registry } from '../../registry.js';
import { checkIdentificationType } from './identification-types.js';

/** Rules of the identification screens beyond the schemas (spec section 4). */
export function identificationHooks(registry: Registry): HookMap {
  const table = (name: string) => registry.require(name).table;
  return {
    credential: {
      // A credential is a person's or a vehicle's, as its TipoTitular says (left out, the holder
      // named says it), never both; a new one cannot be registered while its holder has an active one.
      async beforeWrite({ db, data, existing, principal }) {
        data.TipoTitular ??= data.IdVehiculo != null && data.IdPersona == null ? 'V' : 'P';
        const column = data.TipoTitular === 'V' ? 'IdVehiculo' : 'IdPersona';
        const other = column === 'IdVehiculo' ? 'IdPersona' : 'IdVehiculo';
        if (data[other] != null)
          throw new ApiError('VALIDATION_FAILED', {
            fields: { [other]: { messageKey: 'identification.oneHolder' } },
          });
        if (data[column] == null)
          throw new ApiError('VALIDATION_FAILED', {
            fields: { [column]: { messageKey: 'validation.required' } },
          });
        if (data.Activo !== 'S') return;
        await checkIdentificationType(db, registry, Number(data.IdCliente ?? principal.clientId), data);
        let qb = db
          .selectFrom(table('credential'))
          .select('IdCredencial')
          .where(column, '=', data[column] as number)
          .where('Activo', '=', 'S');
        if (existing) qb = qb.where('IdCredencial', '<>', existing.IdCredencial as number);
        if (await qb.limit(1).executeTakeFirst())
          throw new ApiError('BUSINESS_RULE', { messageKey: 'rules.credentialActive' });
      },
    },
  };
}
