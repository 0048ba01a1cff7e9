import type { Db } from '../../db/connection.js';
import type { AccreditationChange, AccreditationEvents } from '../../events.js';
import type { Registry } from '../../registry.js';

/**
 * Writes what happened to an accreditation to its events (the outbox), in the caller's
 * transaction, then tells the features that listen to changes (`events`), in that transaction
 * too: the change, its event and what the listeners did are kept together or not at all.
 */
export async function recordEvent(
  trx: Db,
  registry: Registry,
  event: AccreditationChange,
  events: AccreditationEvents,
): Promise<void> {
  await trx
    .insertInto(registry.require('accreditation-event').table)
    .values({
      IdCliente: event.IdCliente,
      IdAcreditacion: event.IdAcreditacion,
      Tipo: event.Tipo,
      Datos: JSON.stringify(event.Datos ?? {}).slice(0, 4000),
      Fecha: event.at,
      IdUsuarioCreacion: event.userId,
      FechaCreacion: event.at,
    })
    .execute();
  await events.changed(trx, event);
}
