import type { Db } from '../../db/connection.js';
import { ApiError } from '../../errors.js';
import type { Registry } from '../../registry.js';

/**
 * A credential goes to a holder whose kind has an active identification type of the client
 * (Identification > Identification types: T worker, P visitor, V vehicle), else "Person has no
 * identification type configured" (spec section 8).
 */
export async function checkIdentificationType(
  db: Db,
  registry: Registry,
  clientId: number,
  holder: { IdPersona?: unknown; IdVehiculo?: unknown },
): Promise<void> {
  const table = (name: string) => registry.require(name).table;
  let kind = 'V';
  if (holder.IdPersona != null) {
    const person = (await db
      .selectFrom(table('person'))
      .select('Visita')
      .where('IdPersona', '=', Number(holder.IdPersona))
      .executeTakeFirst()) as { Visita: string | null } | undefined;
    kind = person?.Visita === 'S' ? 'P' : 'T';
  }
  const types = await db
    .selectFrom(table('identification-type'))
    .select('IdTipoIdentificacion')
    .where('IdCliente', '=', clientId)
    .where('IdEntidad', '=', kind)
    .where('Activo', '=', 'S')
    .limit(1)
    .execute();
  if (!types.length)
    throw new ApiError('BUSINESS_RULE', {
      messageKey: kind === 'V' ? 'identification.vehicleWithoutType' : 'identification.personWithoutType',
    });
}
