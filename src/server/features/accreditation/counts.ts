import { sql } from 'kysely';
import type { Database, Db } from '../../db/connection.js';
import { addLater } from '../../db/kept-reads.js';
import type { Registry } from '../../registry.js';
import type { Span } from './period.js';

/** The months (yyyy-mm) a set of month-aligned spans covers. */
export function monthsOf(spans: readonly Span[]): string[] {
  const out: string[] = [];
  for (const span of spans) {
    const at = new Date(span.from);
    while (at.toISOString() < span.to) {
      out.push(at.toISOString().slice(0, 7));
      at.setUTCMonth(at.getUTCMonth() + 1);
    }
  }
  return [...new Set(out)];
}

/** The counter key of a request: its client, division, company, month, kind and type. */
export interface Counted {
  IdCliente: number;
  IdDivision: number;
  IdCompania: number;
  FechaSolicitud: string;
  TipoSolicitud: string;
  IdEntidad: string;
}

/**
 * Moves one request between counters as its status changes (null: made, or deleted), in the
 * caller's transaction. Each change is a single statement (a decrement, or an upserted increment),
 * so two requests of the same company and month changing at once both count. Inside a bulk set
 * (`keepingReads`) the changes are summed and written when the set ends (`writeAdditions`).
 */
export async function moveCount(
  db: Db,
  registry: Registry,
  request: Counted,
  from: string | null,
  to: string | null,
): Promise<void> {
  const key = {
    IdDivision: request.IdDivision,
    IdCompania: request.IdCompania,
    Mes: new Date(request.FechaSolicitud).toISOString().slice(0, 7),
    TipoSolicitud: request.TipoSolicitud,
    IdEntidad: request.IdEntidad,
  };
  for (const [state, n] of [
    [from, -1],
    [to, 1],
  ] as const) {
    if (state === null) continue;
    const counter = { ...key, EstadoAprobacion: state };
    await addLater(db, `request-count:${JSON.stringify(counter)}`, n, (sum) =>
      addToCount(db, registry, request.IdCliente, counter, sum),
    );
  }
}

/** Adds `n` to a counter: a decrement updates it, an increment is upserted. */
async function addToCount(
  db: Db,
  registry: Registry,
  IdCliente: number,
  counter: Record<string, string | number>,
  n: number,
): Promise<void> {
  const table = registry.require('request-count').table;
  if (n < 0) {
    let qb = db.updateTable(table).set({ Cantidad: sql`${sql.ref('Cantidad')} - ${-n}` });
    for (const [field, value] of Object.entries(counter)) qb = qb.where(field, '=', value);
    await qb.execute();
    return;
  }
  await db
    .insertInto(table)
    .values({
      IdCliente,
      ...counter,
      Cantidad: n,
      IdUsuarioCreacion: 'SISTEMA',
      FechaCreacion: new Date().toISOString(),
    })
    .onConflict((oc) =>
      oc
        .columns(['IdDivision', 'IdCompania', 'Mes', 'TipoSolicitud', 'IdEntidad', 'EstadoAprobacion'])
        .doUpdateSet({ Cantidad: sql`${sql.ref(`${table}.Cantidad`)} + ${n}` }),
    )
    .execute();
}

/**
 * Recounts the requests of a client (after a bulk load), or of one of its divisions, companies or
 * months, into the request-count table, in the caller's transaction: the rows are deleted and
 * counted again from the requests.
 */
export async function recount(
  database: Pick<Database, 'dialect'> & { db: Db },
  registry: Registry,
  scope: { clientId: number; divisionId?: number; companyId?: number; month?: string },
): Promise<void> {
  const { db, dialect } = database;
  const counts = registry.require('request-count').table;
  const requests = registry.require('request').table;
  let remove = db.deleteFrom(counts).where('IdCliente', '=', scope.clientId);
  if (scope.divisionId !== undefined) remove = remove.where('IdDivision', '=', scope.divisionId);
  if (scope.companyId !== undefined) remove = remove.where('IdCompania', '=', scope.companyId);
  if (scope.month !== undefined) remove = remove.where('Mes', '=', scope.month);
  await remove.execute();
  const month =
    dialect === 'postgres'
      ? sql<string>`to_char(${sql.ref('FechaSolicitud')} at time zone 'UTC', 'YYYY-MM')`
      : sql<string>`substr(${sql.ref('FechaSolicitud')}, 1, 7)`;
  let select = db
    .selectFrom(requests)
    .select([
      'IdCliente',
      'IdDivision',
      'IdCompania',
      month.as('Mes'),
      'TipoSolicitud',
      'IdEntidad',
      'EstadoAprobacion',
      (eb) => eb.fn.countAll().as('Cantidad'),
      sql.lit('SISTEMA').as('IdUsuarioCreacion'),
      sql<string>`CURRENT_TIMESTAMP`.as('FechaCreacion'),
    ])
    .where('IdCliente', '=', scope.clientId);
  if (scope.divisionId !== undefined) select = select.where('IdDivision', '=', scope.divisionId);
  if (scope.companyId !== undefined) select = select.where('IdCompania', '=', scope.companyId);
  if (scope.month !== undefined) {
    const [year, m] = scope.month.split('-').map(Number);
    select = select
      .where('FechaSolicitud', '>=', new Date(Date.UTC(year, m - 1, 1)).toISOString())
      .where('FechaSolicitud', '<', new Date(Date.UTC(year, m, 1)).toISOString());
  }
  select = select.groupBy([
    'IdCliente',
    'IdDivision',
    'IdCompania',
    month,
    'TipoSolicitud',
    'IdEntidad',
    'EstadoAprobacion',
  ]);
  await db
    .insertInto(counts)
    .columns([
      'IdCliente',
      'IdDivision',
      'IdCompania',
      'Mes',
      'TipoSolicitud',
      'IdEntidad',
      'EstadoAprobacion',
      'Cantidad',
      'IdUsuarioCreacion',
      'FechaCreacion',
    ])
    .expression(select)
    .execute();
}
