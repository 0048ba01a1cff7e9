import { sql } from 'kysely';
import type { Database, Db } from '../../../db/connection.js';
import type { Registry } from '../../../registry.js';

/** What one attention row counts: a first sending (S), an authoriser's decision (U), a requirement line's (R). */
export type AttentionAxis = 'S' | 'U' | 'R';

/** One sending or decision to count, with its attention in minutes (0 for a sending). */
export interface Attention {
  IdCliente: number;
  IdDivision: number;
  TipoSolicitud: string;
  IdEntidad: string;
  axis: AttentionAxis;
  /** The authoriser's user id (U), the requirement's id (R), empty (S). */
  key: string;
  /** P sent; A, O, R, I the outcome. */
  outcome: string;
  at: string;
  minutes: number;
}

const KEY_COLUMNS = [
  'IdCliente',
  'IdDivision',
  'Mes',
  'TipoSolicitud',
  'IdEntidad',
  'Eje',
  'Clave',
  'Resultado',
];

/**
 * Counts sendings and decisions into the attention table, in the caller's transaction: one upsert
 * per row of the table they fall in, so two authorisers answering at once both count, and the
 * longest attention is kept by the database (max of the stored and the new).
 */
export async function countAttention(
  database: Pick<Database, 'dialect'> & { db: Db },
  registry: Registry,
  rows: Attention[],
): Promise<void> {
  const table = registry.require('request-attention').table;
  const grouped = new Map<string, Record<string, unknown>>();
  for (const r of rows) {
    const values = {
      IdCliente: r.IdCliente,
      IdDivision: r.IdDivision,
      Mes: r.at.slice(0, 7),
      TipoSolicitud: r.TipoSolicitud,
      IdEntidad: r.IdEntidad,
      Eje: r.axis,
      Clave: r.key.slice(0, 40),
      Resultado: r.outcome,
    };
    const id = JSON.stringify(values);
    const known = grouped.get(id) as
      | { Cantidad: number; MinutosTotal: number; MinutosMax: number }
      | undefined;
    const minutes = Math.max(0, Math.round(r.minutes * 100) / 100);
    if (known) {
      known.Cantidad += 1;
      known.MinutosTotal += minutes;
      known.MinutosMax = Math.max(known.MinutosMax, minutes);
    } else grouped.set(id, { ...values, Cantidad: 1, MinutosTotal: minutes, MinutosMax: minutes });
  }
  const larger = database.dialect === 'postgres' ? 'greatest' : 'max';
  for (const values of grouped.values())
    await database.db
      .insertInto(table)
      .values({ ...values, IdUsuarioCreacion: 'SISTEMA', FechaCreacion: new Date().toISOString() })
      .onConflict((oc) =>
        oc.columns(KEY_COLUMNS as never).doUpdateSet({
          Cantidad: sql`${sql.ref(`${table}.Cantidad`)} + ${sql.ref('excluded.Cantidad')}`,
          MinutosTotal: sql`${sql.ref(`${table}.MinutosTotal`)} + ${sql.ref('excluded.MinutosTotal')}`,
          MinutosMax: sql`${sql.raw(larger)}(${sql.ref(`${table}.MinutosMax`)}, ${sql.ref('excluded.MinutosMax')})`,
        }),
      )
      .execute();
}

/** The instant a request was last sent (its SEND history row), before `before`: where an attention starts. */
export async function lastSent(
  db: Db,
  registry: Registry,
  id: number,
  before: string,
): Promise<string | undefined> {
  const row = (await db
    .selectFrom(registry.require('request-history').table)
    .select('Fecha')
    .where('IdSolicitud', '=', id)
    .where('Evento', '=', 'SEND')
    .where('Fecha', '<=', before)
    .orderBy('Fecha', 'desc')
    .limit(1)
    .executeTakeFirst()) as { Fecha: string } | undefined;
  return row?.Fecha;
}

/** Minutes between two instants (ISO). */
export const minutesBetween = (from: string, to: string) => (Date.parse(to) - Date.parse(from)) / 60_000;

/** The outcome letter of a decision event. */
export const OUTCOME_OF: Record<string, string> = { APPROVE: 'A', OBSERVE: 'O', REJECT: 'R', RETURN: 'I' };

/**
 * Counts a client's attention again from its requests' histories and lines (a load of requests
 * made outside the engine: the demo, a migration, the benchmark), in the caller's transaction:
 * its rows deleted, then every first sending, every decision with the sending before it, and
 * every decided line with the sending before its decision counted.
 */
export async function recountAttention(
  database: Pick<Database, 'dialect'> & { db: Db },
  registry: Registry,
  clientId: number,
): Promise<void> {
  const { db } = database;
  const t = (name: string) => registry.require(name).table;
  await db.deleteFrom(t('request-attention')).where('IdCliente', '=', clientId).execute();
  const sentBefore = (request: string, instant: string) =>
    db
      .selectFrom(`${t('request-history')} as s`)
      .select((eb) => eb.fn.max('s.Fecha').as('f'))
      .whereRef('s.IdSolicitud', '=', sql.ref(request) as never)
      .where('s.Evento', '=', 'SEND')
      .whereRef('s.Fecha', '<=', sql.ref(instant) as never);
  const decisions = (await db
    .selectFrom(`${t('request-history')} as h`)
    .innerJoin(`${t('request')} as r`, 'r.IdSolicitud', 'h.IdSolicitud')
    .select([
      'r.IdDivision',
      'r.TipoSolicitud',
      'r.IdEntidad',
      'h.Evento',
      'h.EstadoAnterior',
      'h.IdUsuario',
      'h.Fecha',
      () => sentBefore('h.IdSolicitud', 'h.Fecha').as('Enviada'),
    ])
    .where('h.IdCliente', '=', clientId)
    .where('h.Evento', 'in', ['SEND', 'APPROVE', 'OBSERVE', 'REJECT', 'RETURN'])
    .execute()) as Array<Record<string, string | number | null>>;
  const rows: Attention[] = [];
  for (const d of decisions) {
    const base = {
      IdCliente: clientId,
      IdDivision: Number(d.IdDivision),
      TipoSolicitud: String(d.TipoSolicitud),
      IdEntidad: String(d.IdEntidad),
      at: String(d.Fecha),
    };
    if (d.Evento === 'SEND') {
      if (d.EstadoAnterior === 'I') rows.push({ ...base, axis: 'S', key: '', outcome: 'P', minutes: 0 });
    } else if (d.Enviada)
      rows.push({
        ...base,
        axis: 'U',
        key: String(d.IdUsuario),
        outcome: OUTCOME_OF[String(d.Evento)],
        minutes: minutesBetween(String(d.Enviada), String(d.Fecha)),
      });
  }
  const lines = (await db
    .selectFrom(`${t('request-detail')} as l`)
    .innerJoin(`${t('request')} as r`, 'r.IdSolicitud', 'l.IdSolicitud')
    .select([
      'r.IdDivision',
      'r.TipoSolicitud',
      'r.IdEntidad',
      'l.IdRequisito',
      'l.EstadoAprobacion',
      'l.FechaAprobacion',
      () => sentBefore('l.IdSolicitud', 'l.FechaAprobacion').as('Enviada'),
    ])
    .where('l.IdCliente', '=', clientId)
    .where('l.EstadoAprobacion', 'in', ['A', 'O', 'R'])
    .where('l.FechaAprobacion', 'is not', null)
    .where('l.IdSolicitudOrigen', 'is', null)
    .execute()) as Array<Record<string, string | number | null>>;
  for (const l of lines)
    if (l.Enviada)
      rows.push({
        IdCliente: clientId,
        IdDivision: Number(l.IdDivision),
        TipoSolicitud: String(l.TipoSolicitud),
        IdEntidad: String(l.IdEntidad),
        axis: 'R',
        key: String(l.IdRequisito),
        outcome: String(l.EstadoAprobacion),
        at: String(l.FechaAprobacion),
        minutes: minutesBetween(String(l.Enviada), String(l.FechaAprobacion)),
      });
  await countAttention(database, registry, rows);
}
