import type { Db } from '../db/connection.js';
import { keptRead } from '../db/kept-reads.js';
import type { Principal } from '../principal.js';
import type { Registry } from '../registry.js';

/**
 * An active configuration value of the session's client (System > Parameters), or undefined; read
 * once per `keepingReads` scope.
 */
export async function parameter(
  db: Db,
  registry: Registry,
  principal: Principal,
  id: string,
): Promise<{ Valor1: string | null; Valor2: string | null } | undefined> {
  const client = principal.clientId;
  if (client === undefined) return undefined;
  return keptRead(
    `parameter:${client}:${id}`,
    async () =>
      (await db
        .selectFrom(registry.require('parameter').table)
        .select(['Valor1', 'Valor2'])
        .where('IdCliente', '=', client)
        .where('IdConfiguracion', '=', id)
        .where('Activo', '=', 'S')
        .executeTakeFirst()) as { Valor1: string | null; Valor2: string | null } | undefined,
  );
}

/** A numeric parameter, or its fallback when missing or not a number. */
export async function numericParameter(
  db: Db,
  registry: Registry,
  principal: Principal,
  id: string,
  fallback: number,
): Promise<number> {
  const value = Number((await parameter(db, registry, principal, id))?.Valor1);
  return Number.isFinite(value) && value > 0 ? value : fallback;
}
