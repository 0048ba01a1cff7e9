import { siteDate } from '../../../shared/dates.js';
import {
  type PrivacyLaw,
  type RightsKind,
  responseDeadline,
  rightUnderLaw,
} from '../../../shared/privacy-terms.js';
import type { HookMap, Row } from '../../crud/types.js';
import type { Db } from '../../db/connection.js';
import { ApiError } from '../../errors.js';
import type { Registry } from '../../registry.js';

/** Peru's and Chile's country codes in the holiday calendar. */
const COUNTRY: Record<PrivacyLaw, string> = { PE: 'PE', CL: 'CH' };

/**
 * A person's rights request: portability only under Chile's law; its legal deadline worked out by
 * the server from the day received (the client's holidays of the country skipped in Peru's working
 * days), on every save; the day answered set when it is answered or denied.
 */
export function rightsHooks(registry: Registry, now: () => number): HookMap {
  const deadline = async (db: Db, clientId: unknown, data: Row) => {
    const law = data.Pais as PrivacyLaw;
    const received = String(data.FechaRecepcion);
    const holidays = (await db
      .selectFrom(registry.require('holiday').table)
      .select('Fecha')
      .where('IdCliente', '=', clientId as number)
      .where((eb) => eb.or([eb('IdPais', '=', COUNTRY[law]), eb('IdPais', 'is', null)]))
      .where('Fecha', '>', received)
      .execute()) as Array<{ Fecha: string }>;
    return responseDeadline(
      law,
      data.Tipo as RightsKind,
      received,
      new Set(holidays.map((h) => String(h.Fecha).slice(0, 10))),
    );
  };
  return {
    'rights-request': {
      beforeWrite: async ({ db, data, set, principal, existing }) => {
        const law = data.Pais as PrivacyLaw;
        if (!rightUnderLaw(law, data.Tipo as RightsKind))
          throw new ApiError('BUSINESS_RULE', {
            messageKey: 'privacy.portabilityChile',
            fields: { Tipo: { messageKey: 'privacy.portabilityChile' } },
          });
        set.FechaLimite = await deadline(db, existing?.IdCliente ?? principal.clientId, data);
        if (data.Estado !== 'P' && !data.FechaRespuesta) data.FechaRespuesta = siteDate(COUNTRY[law], now());
      },
    },
  };
}
