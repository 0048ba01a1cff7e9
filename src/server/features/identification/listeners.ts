import type { AccreditationListeners } from '../../events.js';
import type { Registry } from '../../registry.js';
import { deactivateHolderRows } from '../../services/holder-rows.js';

/**
 * Identification's part of an ended accreditation: for a holder with no other active accreditation
 * of the client, the active credential (a person's badge, a vehicle's card), inactivated for the
 * client's cessation reason.
 */
export function identificationListeners(registry: Registry): AccreditationListeners {
  return {
    async ended(trx, event) {
      if (!event.lastOfClient) return [];
      const clientId = event.accreditation.IdCliente;
      const reasons = (await trx
        .selectFrom(registry.require('identification-reason').table)
        .select(['IdMotivo', 'Descripcion'])
        .where('IdCliente', '=', clientId)
        .where('Tipo', '=', 'I')
        .where('Activo', '=', 'S')
        .orderBy('IdMotivo')
        .execute()) as Array<{ IdMotivo: number; Descripcion: string }>;
      const cessation = reasons.find((r) => /CESE|DESMOVILIZ/.test(r.Descripcion)) ?? reasons[0];
      return deactivateHolderRows(trx, registry, event, {
        resource: 'credential',
        key: 'IdCredencial',
        scope: ['IdCliente', clientId],
        name: async (row) => (row.Numero === null || row.Numero === undefined ? null : String(row.Numero)),
        extra: cessation ? { IdMotivoInactivacion: cessation.IdMotivo } : {},
      });
    },
  };
}
