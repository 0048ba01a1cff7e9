import type { Db } from '../../db/connection.js';
import type { Registry } from '../../registry.js';

export type AccreditationEventKind = 'granted' | 'ended' | 'suspended' | 'reinstated' | 'moved' | 'extended';

/**
 * Writes what happened to an accreditation to its events (the outbox), in the caller's
 * transaction: the change and its event are kept together or not at all.
 */
export async function recordEvent(
  trx: Db,
  registry: Registry,
  event: {
    IdCliente: number;
    IdAcreditacion: number;
    Tipo: AccreditationEventKind;
    Datos?: Record<string, unknown>;
    at: string;
    userId: string;
  },
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
}
