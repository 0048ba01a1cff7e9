import { sql } from 'kysely';
import { MEAL_REASONS, type MealReason, mealMessageKey } from '../../../shared/dining.js';
import type { Db } from '../../db/connection.js';
import { t } from '../../i18n.js';
import type { DiningTables } from './loader.js';
import type { DiningOffice } from './office.js';
import { DINING_DAY_TABLE } from './tables.js';

/** The consumption report's filters (spec section 2 Dining 'consumption report'). */
export interface ReportQuery {
  desde: string;
  hasta: string;
  IdComedor?: number;
  IdServicio?: number;
  IdCompania?: number;
  IdPersona?: number;
}

/** Most days one report spans. */
export const REPORT_MAX_DAYS = 366;

/**
 * The office's division, the date range and the filters over a table aliased c (the meals, or
 * their running totals): a contractor's office sees its company's only, whatever company it asks for.
 */
function within(db: Db, table: string, office: DiningOffice, q: Omit<ReportQuery, 'IdPersona'>) {
  let qb = db
    .selectFrom(`${table} as c`)
    .where('c.IdCliente', '=', office.clientId)
    .where('c.IdDivision', '=', office.divisionId)
    .where('c.Fecha', '>=', q.desde)
    .where('c.Fecha', '<=', q.hasta);
  if (q.IdComedor !== undefined) qb = qb.where('c.IdComedor', '=', q.IdComedor);
  if (q.IdServicio !== undefined) qb = qb.where('c.IdServicio', '=', q.IdServicio);
  const company = office.companyId ?? q.IdCompania;
  if (company !== undefined) qb = qb.where('c.IdCompania', '=', company);
  return qb;
}

/** The served meals (not voided) within the filters. */
function served(db: Db, tables: DiningTables, office: DiningOffice, q: ReportQuery) {
  let qb = within(db, tables.consumption, office, q)
    .where('c.Resultado', '=', 'P')
    .where('c.Anulado', '=', 'N');
  if (q.IdPersona !== undefined) qb = qb.where('c.IdPersona', '=', q.IdPersona);
  return qb;
}

export interface Totals {
  consumos: number;
  /** In cents. */
  importe: number;
  compania: number;
  trabajador: number;
}

/** Totals, meals per day and service, and one page of rows, from the same filters. */
export async function consumptionReport(
  db: Db,
  tables: DiningTables,
  office: DiningOffice,
  q: ReportQuery,
  page: { skip: number; take: number },
) {
  const base = () => served(db, tables, office, q);
  // Without a person, the running totals per day (a few hundred rows a day at most) instead of the meals.
  const byDay = q.IdPersona === undefined;
  const days = () => within(db, DINING_DAY_TABLE, office, q);
  const [totals, perDay, rows] = await Promise.all([
    byDay
      ? days()
          .select([
            sql<number>`coalesce(sum(c."Consumos"), 0)`.as('consumos'),
            sql<number>`coalesce(sum(c."Importe"), 0)`.as('importe'),
            sql<number>`coalesce(sum(c."Compania"), 0)`.as('compania'),
            sql<number>`coalesce(sum(c."Trabajador"), 0)`.as('trabajador'),
          ])
          .executeTakeFirst()
      : base()
          .select((eb) => [
            eb.fn.countAll<number>().as('consumos'),
            eb.fn.sum<number>('c.ImporteTotal').as('importe'),
            eb.fn.sum<number>('c.ImporteCompania').as('compania'),
            eb.fn.sum<number>('c.ImporteTrabajador').as('trabajador'),
          ])
          .executeTakeFirst(),
    (byDay
      ? days()
          .leftJoin(`${tables.service} as s`, 's.IdServicio', 'c.IdServicio')
          .select([
            'c.Fecha',
            'c.IdServicio',
            's.Descripcion as Servicio',
            's.Orden',
            sql<number>`sum(c."Consumos")`.as('consumos'),
          ])
          .groupBy(['c.Fecha', 'c.IdServicio', 's.Descripcion', 's.Orden'])
          .having(sql<number>`sum(c."Consumos")`, '>', 0)
          .orderBy('c.Fecha')
          .orderBy('s.Orden')
          .execute()
      : base()
          .leftJoin(`${tables.service} as s`, 's.IdServicio', 'c.IdServicio')
          .select((eb) => [
            'c.Fecha',
            'c.IdServicio',
            's.Descripcion as Servicio',
            's.Orden',
            eb.fn.countAll<number>().as('consumos'),
          ])
          .groupBy(['c.Fecha', 'c.IdServicio', 's.Descripcion', 's.Orden'])
          .orderBy('c.Fecha')
          .orderBy('s.Orden')
          .execute()) as Promise<Array<Record<string, unknown>>>,
    rowsOf(base(), tables)
      .orderBy('c.Fecha', 'desc')
      .orderBy('c.Hora', 'desc')
      .orderBy('c.IdConsumo', 'desc')
      .limit(page.take)
      .offset(page.skip)
      .execute(),
  ]);
  const count = Number(totals?.consumos ?? 0);
  return {
    totalCount: count,
    totales: {
      consumos: count,
      importe: Number(totals?.importe ?? 0),
      compania: Number(totals?.compania ?? 0),
      trabajador: Number(totals?.trabajador ?? 0),
    } satisfies Totals,
    porDia: perDay.map((r) => ({
      Fecha: String(r.Fecha),
      IdServicio: Number(r.IdServicio),
      Servicio: String(r.Servicio ?? ''),
      consumos: Number(r.consumos),
    })),
    data: rows.map(reportRow),
  };
}

type Served = ReturnType<typeof served>;

/** The columns a report row shows, with the names of what it references. */
function rowsOf(qb: Served, tables: DiningTables) {
  return qb
    .leftJoin(`${tables.person} as p`, 'p.IdPersona', 'c.IdPersona')
    .leftJoin(`${tables.company} as e`, 'e.IdCompania', 'c.IdCompania')
    .leftJoin(`${tables.room} as r`, 'r.IdComedor', 'c.IdComedor')
    .leftJoin(`${tables.service} as s`, 's.IdServicio', 'c.IdServicio')
    .leftJoin(`${tables.category} as k`, 'k.IdCategoriaCosto', 'c.IdCategoriaCosto')
    .select([
      'c.IdConsumo',
      'c.Fecha',
      'c.Hora',
      'c.IdComedor',
      'r.Descripcion as Comedor',
      'c.IdServicio',
      's.Descripcion as Servicio',
      'c.IdPersona',
      'p.Documento',
      sql<string>`p."Apellido" || ' ' || p."Nombre"`.as('Nombres'),
      'c.IdCompania',
      'e.Compania',
      'c.Origen',
      'c.ImporteTotal',
      'c.ImporteCompania',
      'c.ImporteTrabajador',
      'c.PorcentajeCompania',
      'k.Descripcion as Categoria',
      'c.Observacion',
    ]);
}

export type ReportRow = ReturnType<typeof reportRow>;

function reportRow(r: Record<string, unknown>) {
  const text = (v: unknown) => (v == null ? null : String(v));
  return {
    IdConsumo: Number(r.IdConsumo),
    Fecha: String(r.Fecha),
    Hora: String(r.Hora),
    IdComedor: Number(r.IdComedor),
    Comedor: text(r.Comedor),
    IdServicio: r.IdServicio == null ? null : Number(r.IdServicio),
    Servicio: text(r.Servicio),
    IdPersona: r.IdPersona == null ? null : Number(r.IdPersona),
    Documento: text(r.Documento),
    Nombres: text(r.Nombres)?.replace(/\s+/g, ' ').trim() ?? null,
    IdCompania: r.IdCompania == null ? null : Number(r.IdCompania),
    Compania: text(r.Compania),
    Origen: String(r.Origen),
    ImporteTotal: Number(r.ImporteTotal ?? 0),
    ImporteCompania: Number(r.ImporteCompania ?? 0),
    ImporteTrabajador: Number(r.ImporteTrabajador ?? 0),
    PorcentajeCompania: r.PorcentajeCompania == null ? null : Number(r.PorcentajeCompania),
    Categoria: text(r.Categoria),
    Observacion: text(r.Observacion),
  };
}

/** Rows read per query while exporting. */
const EXPORT_BATCH = 2_000;

/**
 * Every row of the report, oldest first, a batch at a time (keyset on date, time and id), for the
 * streamed Excel export: no row cap, memory flat.
 */
export async function* reportBatches(
  db: Db,
  tables: DiningTables,
  office: DiningOffice,
  q: ReportQuery,
): AsyncGenerator<ReportRow[]> {
  let after: { Fecha: string; Hora: string; IdConsumo: number } | undefined;
  for (;;) {
    let qb = rowsOf(served(db, tables, office, q), tables);
    if (after) {
      const { Fecha, Hora, IdConsumo } = after;
      qb = qb.where((eb) =>
        eb.or([
          eb('c.Fecha', '>', Fecha),
          eb.and([eb('c.Fecha', '=', Fecha), eb('c.Hora', '>', Hora)]),
          eb.and([eb('c.Fecha', '=', Fecha), eb('c.Hora', '=', Hora), eb('c.IdConsumo', '>', IdConsumo)]),
        ]),
      );
    }
    const rows = (
      await qb.orderBy('c.Fecha').orderBy('c.Hora').orderBy('c.IdConsumo').limit(EXPORT_BATCH).execute()
    ).map(reportRow);
    if (!rows.length) return;
    yield rows;
    const last = rows[rows.length - 1];
    after = { Fecha: last.Fecha, Hora: last.Hora, IdConsumo: last.IdConsumo };
    if (rows.length < EXPORT_BATCH) return;
  }
}

/** Today's sittings of a room as the management screen shows them: served, capacity, refused by reason, the last meals. */
export async function roomDay(
  db: Db,
  tables: DiningTables,
  office: DiningOffice,
  roomId: number,
  day: string,
  language: 'es' | 'en',
) {
  const base = () =>
    db
      .selectFrom(`${tables.consumption} as c`)
      .where('c.IdCliente', '=', office.clientId)
      .where('c.IdDivision', '=', office.divisionId)
      .where('c.IdComedor', '=', roomId)
      .where('c.Fecha', '=', day);
  const [counts, last] = await Promise.all([
    base()
      .select((eb) => [
        'c.IdServicio',
        'c.Resultado',
        'c.Anulado',
        'c.CodigoMotivo',
        eb.fn.countAll<number>().as('n'),
      ])
      .groupBy(['c.IdServicio', 'c.Resultado', 'c.Anulado', 'c.CodigoMotivo'])
      .execute(),
    base()
      .leftJoin(`${tables.person} as p`, 'p.IdPersona', 'c.IdPersona')
      .leftJoin(`${tables.company} as e`, 'e.IdCompania', 'c.IdCompania')
      .leftJoin(`${tables.service} as s`, 's.IdServicio', 'c.IdServicio')
      .select([
        'c.IdConsumo',
        'c.Hora',
        'c.IdServicio',
        's.Descripcion as Servicio',
        'c.Resultado',
        'c.CodigoMotivo',
        'c.Origen',
        'c.Anulado',
        'c.MotivoAnulacion',
        'c.Observacion',
        'c.ImporteTotal',
        'p.Documento',
        sql<string>`p."Apellido" || ' ' || p."Nombre"`.as('Nombres'),
        'e.Compania',
      ])
      .orderBy('c.FechaHora', 'desc')
      .orderBy('c.IdConsumo', 'desc')
      .limit(30)
      .execute(),
  ]);
  const byService = new Map<
    number | null,
    { servidos: number; anulados: number; rechazos: Partial<Record<MealReason, number>> }
  >();
  for (const row of counts) {
    const id = row.IdServicio == null ? null : Number(row.IdServicio);
    const entry = byService.get(id) ?? { servidos: 0, anulados: 0, rechazos: {} };
    const n = Number(row.n);
    if (row.Resultado === 'P' && row.Anulado === 'S') entry.anulados += n;
    else if (row.Resultado === 'P') entry.servidos += n;
    else {
      const reason = (row.CodigoMotivo ?? 'UNKNOWN') as MealReason;
      entry.rechazos[reason] = (entry.rechazos[reason] ?? 0) + n;
    }
    byService.set(id, entry);
  }
  const reasonText = (code: unknown) =>
    MEAL_REASONS.includes(code as MealReason)
      ? t(language, mealMessageKey(code as MealReason)).replace(/%\{\w+\}/g, '…')
      : String(code ?? '');
  return {
    byService,
    ultimos: last.map((r) => ({
      IdConsumo: Number(r.IdConsumo),
      Hora: String(r.Hora),
      IdServicio: r.IdServicio == null ? null : Number(r.IdServicio),
      Servicio: r.Servicio == null ? null : String(r.Servicio),
      Resultado: String(r.Resultado),
      CodigoMotivo: String(r.CodigoMotivo ?? ''),
      Motivo: r.Resultado === 'P' ? null : reasonText(r.CodigoMotivo),
      Origen: String(r.Origen),
      Anulado: String(r.Anulado),
      MotivoAnulacion: r.MotivoAnulacion == null ? null : String(r.MotivoAnulacion),
      Observacion: r.Observacion == null ? null : String(r.Observacion),
      ImporteTotal: r.ImporteTotal == null ? null : Number(r.ImporteTotal),
      Documento: r.Documento == null ? null : String(r.Documento),
      Nombres: r.Nombres == null ? null : String(r.Nombres).replace(/\s+/g, ' ').trim(),
      Compania: r.Compania == null ? null : String(r.Compania),
    })),
  };
}
