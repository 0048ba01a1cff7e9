import type { AccreditationListeners } from '../../events.js';
import type { Registry } from '../../registry.js';
import { deactivateHolderRows, nameOf } from '../../services/holder-rows.js';

/** Dining's part of an ended accreditation: a worker with no other active accreditation of the client loses their cost categories. */
export function diningListeners(registry: Registry): AccreditationListeners {
  return {
    async ended(trx, event) {
      if (!event.lastOfClient || event.accreditation.IdPersona === null) return [];
      return deactivateHolderRows(trx, registry, event, {
        resource: 'person-cost-category',
        key: 'IdCategoriaCostoPersona',
        scope: ['IdCliente', event.accreditation.IdCliente],
        name: (row) => nameOf(trx, registry, 'cost-category', row.IdCategoriaCosto, 'Descripcion'),
      });
    },
  };
}
