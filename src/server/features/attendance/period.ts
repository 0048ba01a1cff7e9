import { type DayStatus, type PeriodTotals, WORKED_STATUSES } from '../../../shared/attendance.js';

export type { PeriodTotals };

import type { Db } from '../../db/connection.js';
import { ApiError } from '../../errors.js';
import type { AttendanceTables } from './compute.js';
import type { AttendanceOffice } from './office.js';
import { ATTENDANCE_TABLES } from './tables.js';

type Row = Record<string, unknown>;

/** People of a period's grid per page. */
export const PERIOD_PAGE = 50;

export interface PeriodQuery {
  desde: string;
  hasta: string;
  IdDivision?: number;
  IdCompania?: number;
  IdPlanilla?: number;
  Estado?: DayStatus;
  pagina?: number;
}

/** A person's totals from their days' rows: the grid's, the export's and the closing's. */
export function totalsOf(days: Row[]): PeriodTotals {
  const t: PeriodTotals = {
    diasTrabajados: 0,
    minutosTrabajados: 0,
    minutosTardanza: 0,
    minutosExtra: 0,
    faltas: 0,
    justificadas: 0,
    minutosJustificadosPagados: 0,
    pendientes: 0,
  };
  for (const d of days) {
    if (WORKED_STATUSES.has(String(d.Estado))) t.diasTrabajados++;
    if (d.Estado === 'ABSENT') t.faltas++;
    if (d.Estado === 'JUSTIFIED') t.justificadas++;
    if (d.Pendiente === 'S') t.pendientes++;
    t.minutosTrabajados += Number(d.MinutosTrabajados ?? 0);
    t.minutosTardanza += Number(d.MinutosTardanza ?? 0);
    t.minutosExtra += Number(d.MinutosExtraAntes ?? 0) + Number(d.MinutosExtraDespues ?? 0);
    t.minutosJustificadosPagados += Number(d.MinutosJustificadosPagados ?? 0);
  }
  return t;
}

/**
 * A company named by the grid must have its attendance configured with a payroll and a special
 * condition (spec section 8: "Company lacks payroll or special-condition configuration").
 */
export async function requireCompanyConfig(
  db: Db,
  tables: AttendanceTables,
  clientId: number,
  company: number,
) {
  const config = await db
    .selectFrom(tables.config)
    .select(['IdPlanilla', 'IdCondicionEspecial'])
    .where('IdCliente', '=', clientId)
    .where('IdCompania', '=', company)
    .where('Activo', '=', 'S')
    .where('IdPlanilla', 'is not', null)
    .where('IdCondicionEspecial', 'is not', null)
    .executeTakeFirst();
  if (!config) throw new ApiError('BUSINESS_RULE', { messageKey: 'rules.companyAttendanceConfig' });
}

/**
 * A period's filters checked against the office's client: a division or company of another client
 * names nothing here (404), so no answer depends on another client's records; then the company's
 * attendance configuration.
 */
async function checkFilters(db: Db, tables: AttendanceTables, office: AttendanceOffice, q: PeriodQuery) {
  const own = async (table: string, key: string, id: number | undefined, resource: string) => {
    if (id === undefined) return;
    const found = await db
      .selectFrom(table)
      .select(key)
      .where(key, '=', id)
      .where('IdCliente', '=', office.clientId)
      .executeTakeFirst();
    if (!found) throw new ApiError('NOT_FOUND', { params: { resource, id } });
  };
  await own(tables.division, 'IdDivision', q.IdDivision, 'division');
  await own(tables.company, 'IdCompania', q.IdCompania, 'company');
  const company = office.companyId ?? q.IdCompania;
  if (company !== undefined) await requireCompanyConfig(db, tables, office.clientId, company);
}

/** The people of a period's grid (the office's, filtered), in name order. */
function peopleOf(db: Db, tables: AttendanceTables, office: AttendanceOffice, q: PeriodQuery) {
  const company = office.companyId ?? q.IdCompania;
  let qb = db
    .selectFrom(`${tables.person} as p`)
    .leftJoin(`${tables.company} as c`, 'c.IdCompania', 'p.IdCompania')
    .where('p.IdCliente', '=', office.clientId)
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom(`${ATTENDANCE_TABLES.day} as d`)
          .select('d.IdPersona')
          .whereRef('d.IdPersona', '=', 'p.IdPersona')
          .where('d.Fecha', '>=', q.desde)
          .where('d.Fecha', '<=', q.hasta)
          .$if(q.IdPlanilla !== undefined, (w) => w.where('d.IdPlanilla', '=', q.IdPlanilla as number))
          .$if(q.Estado !== undefined, (w) => w.where('d.Estado', '=', q.Estado as string)),
      ),
    );
  if (company !== undefined) qb = qb.where('p.IdCompania', '=', company);
  if (q.IdDivision !== undefined) {
    const division = q.IdDivision;
    qb = qb.where((eb) =>
      eb.exists(
        eb
          .selectFrom(`${tables.accreditation} as a`)
          .select('a.IdPersona')
          .whereRef('a.IdPersona', '=', 'p.IdPersona')
          .where('a.IdCliente', '=', office.clientId)
          .where('a.IdDivision', '=', division),
      ),
    );
  }
  return qb;
}

/** A period's grid: a page of people with their days and totals, and how many people in all. */
export async function periodGrid(db: Db, tables: AttendanceTables, office: AttendanceOffice, q: PeriodQuery) {
  await checkFilters(db, tables, office, q);
  const page = Math.max(1, q.pagina ?? 1);
  const [count, people] = await Promise.all([
    peopleOf(db, tables, office, q)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirst(),
    peopleOf(db, tables, office, q)
      .select(['p.IdPersona', 'p.Documento', 'p.Apellido', 'p.Nombre', 'p.CodigoPlanilla', 'c.Compania'])
      .orderBy('p.Apellido')
      .orderBy('p.Nombre')
      .orderBy('p.IdPersona')
      .limit(PERIOD_PAGE)
      .offset((page - 1) * PERIOD_PAGE)
      .execute() as Promise<Row[]>,
  ]);
  const days = await daysOf(
    db,
    people.map((p) => Number(p.IdPersona)),
    q,
  );
  return {
    total: Number(count?.n ?? 0),
    pagina: page,
    porPagina: PERIOD_PAGE,
    personas: people.map((p) => {
      const own = days.get(Number(p.IdPersona)) ?? [];
      return {
        IdPersona: Number(p.IdPersona),
        Documento: String(p.Documento),
        Persona: `${p.Apellido}, ${p.Nombre}`,
        Compania: (p.Compania as string | null) ?? null,
        CodigoPlanilla: (p.CodigoPlanilla as string | null) ?? null,
        dias: own,
        totales: totalsOf(own),
      };
    }),
  };
}

/** The days of some people in a period, by person. */
async function daysOf(db: Db, ids: number[], q: PeriodQuery): Promise<Map<number, Row[]>> {
  const out = new Map<number, Row[]>();
  if (!ids.length) return out;
  const rows = (await db
    .selectFrom(ATTENDANCE_TABLES.day)
    .select([
      'IdPersona',
      'Fecha',
      'Estado',
      'MinutosTrabajados',
      'MinutosTardanza',
      'MinutosExtraAntes',
      'MinutosExtraDespues',
      'MinutosJustificadosPagados',
      'Alertas',
      'Cerrado',
      'Pendiente',
    ])
    .where('IdPersona', 'in', ids)
    .where('Fecha', '>=', q.desde)
    .where('Fecha', '<=', q.hasta)
    .orderBy('Fecha')
    .execute()) as Row[];
  for (const r of rows) {
    const list =
      out.get(Number(r.IdPersona)) ?? out.set(Number(r.IdPersona), []).get(Number(r.IdPersona)) ?? [];
    list.push({ ...r, Fecha: String(r.Fecha).slice(0, 10) });
  }
  return out;
}

/** Every person of a period's grid with their days, a page of people at a time: the Excel export's. */
export async function* periodBatches(
  db: Db,
  tables: AttendanceTables,
  office: AttendanceOffice,
  q: PeriodQuery,
): AsyncGenerator<Array<Row & { dias: Row[]; totales: PeriodTotals }>> {
  await checkFilters(db, tables, office, q);
  // In key order, a page after the last: the export reads every person once whatever is written meanwhile.
  let after = 0;
  for (;;) {
    const qb = peopleOf(db, tables, office, q).select([
      'p.IdPersona',
      'p.Documento',
      'p.Apellido',
      'p.Nombre',
      'p.CodigoPlanilla',
      'c.Compania',
    ]);
    const people = (await qb
      .where('p.IdPersona', '>', after)
      .orderBy('p.IdPersona')
      .limit(500)
      .execute()) as Row[];
    if (!people.length) return;
    const days = await daysOf(
      db,
      people.map((p) => Number(p.IdPersona)),
      q,
    );
    yield people.map((p) => {
      const own = days.get(Number(p.IdPersona)) ?? [];
      return {
        ...p,
        Persona: `${p.Apellido}, ${p.Nombre}`,
        dias: own,
        totales: totalsOf(own),
      };
    });
    after = Number(people[people.length - 1].IdPersona);
  }
}
