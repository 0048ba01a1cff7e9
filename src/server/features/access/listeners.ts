import type { AccreditationListeners } from '../../events.js';
import type { Registry } from '../../registry.js';
import { deactivateHolderRows, nameOf } from '../../services/holder-rows.js';

/** Access's part of an ended accreditation: the holder's access assignments in the division, unless another accreditation there stays. */
export function accessListeners(registry: Registry): AccreditationListeners {
  return {
    async ended(trx, event) {
      if (!event.lastInDivision) return [];
      const worker = event.accreditation.IdPersona !== null;
      return deactivateHolderRows(trx, registry, event, {
        resource: worker ? 'person-access' : 'vehicle-access',
        key: worker ? 'IdAccesoPersona' : 'IdAccesoVehiculo',
        scope: ['IdDivision', event.accreditation.IdDivision],
        name: (row) => nameOf(trx, registry, 'access-profile', row.IdPerfilAcceso, 'Descripcion'),
      });
    },
  };
}
