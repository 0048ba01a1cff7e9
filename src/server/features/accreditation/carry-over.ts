import type { Db } from '../../db/connection.js';
import type { Registry } from '../../registry.js';
import { dataById, type ProfileDef } from './catalogue.js';
import type { Line } from './lines.js';

/** What a new request's lines are carried over for: its holder, client and start. */
interface Holder {
  IdCliente: number;
  IdPersona: number | null;
  IdVehiculo: number | null;
  FechaInicio: string;
}

/**
 * Accredit once: a worker or vehicle accredited (active) with the client, in any of its divisions,
 * is not asked again for what it already proved. Each new line of a datum the holder keeps a value
 * of, still valid on the request's start, takes that value and file, is approved where it is
 * evaluated, and names the request that accredited it (`IdSolicitudOrigen`); the rest are asked.
 * The requester may replace a carried value (it is then the requester's own, to be evaluated).
 */
export async function carryOver(
  trx: Db,
  registry: Registry,
  request: Holder,
  profile: ProfileDef,
  fresh: Line[],
): Promise<void> {
  const column = request.IdPersona ? 'IdPersona' : request.IdVehiculo ? 'IdVehiculo' : undefined;
  if (!column || !fresh.length) return;
  const holder = request[column] as number;
  const accredited = await trx
    .selectFrom(registry.require('accreditation').table)
    .select('IdAcreditacion')
    .where(column, '=', holder)
    .where('IdCliente', '=', request.IdCliente)
    .where('Estado', '=', 'A')
    .executeTakeFirst();
  if (!accredited) return;
  const kept = (await trx
    .selectFrom(registry.require('accredited-requirement').table)
    .select([
      'IdDatoEvaluar',
      'Valor',
      'ClaveArchivo',
      'NombreArchivo',
      'TipoArchivo',
      'FechaVencimiento',
      'IdSolicitud',
      'FechaAprobacion',
    ])
    .where(column, '=', holder)
    .where('IdCliente', '=', request.IdCliente)
    .where(
      'IdDatoEvaluar',
      'in',
      fresh.map((line) => line.IdDatoEvaluar),
    )
    .where((eb) =>
      eb.or([eb('FechaVencimiento', 'is', null), eb('FechaVencimiento', '>=', request.FechaInicio)]),
    )
    .execute()) as Array<{
    IdDatoEvaluar: number;
    Valor: string | null;
    ClaveArchivo: string | null;
    NombreArchivo: string | null;
    TipoArchivo: string | null;
    FechaVencimiento: string | null;
    IdSolicitud: number;
    FechaAprobacion: string | null;
  }>;
  const byDatum = new Map(kept.map((k) => [k.IdDatoEvaluar, k]));
  const data = dataById(profile);
  for (const line of fresh) {
    const value = byDatum.get(line.IdDatoEvaluar);
    if (!value) continue;
    line.Valor = value.Valor;
    line.ClaveArchivo = value.ClaveArchivo;
    line.NombreArchivo = value.NombreArchivo;
    line.TipoArchivo = value.TipoArchivo;
    if (data.get(line.IdDatoEvaluar)?.datum.Vencimiento === 'S') line.FechaVencimiento = value.Valor;
    if (line.EstadoAprobacion !== null) {
      line.EstadoAprobacion = 'A';
      line.IdUsuarioAprobacion = 'SISTEMA';
      line.FechaAprobacion = value.FechaAprobacion;
    }
    line.IdSolicitudOrigen = value.IdSolicitud;
  }
}
