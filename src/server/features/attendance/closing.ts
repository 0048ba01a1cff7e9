import { addDays } from '../../../shared/dates.js';
import { type PayrollCalendar, payrollPeriodOf } from '../../../shared/payroll.js';
import {
  CONCEPTS_OF,
  type ConditionDay,
  type ConditionProcedure,
  isConditionProcedure,
  PAY_CONCEPTS,
  type PayConcept,
  type PayFigures,
  payFigures,
} from '../../../shared/special-conditions.js';
import type { Db } from '../../db/connection.js';
import { uniqueViolation } from '../../db/errors.js';
import { ApiError } from '../../errors.js';
import { type AttendanceTables, clientSite, computePeriod, loadClientSetup } from './compute.js';
import type { AttendanceOffice } from './office.js';
import { type PeriodTotals, totalsOf } from './period.js';
import { ATTENDANCE_TABLES } from './tables.js';

type Row = Record<string, unknown>;

/** A payroll of the office's client, else 404. */
export async function payrollOf(db: Db, tables: AttendanceTables, office: AttendanceOffice, id: number) {
  const payroll = (await db
    .selectFrom(tables.payroll)
    .select(['IdPlanilla', 'Codigo', 'Descripcion', 'Periodicidad', 'DiaCierre', 'Activo'])
    .where('IdPlanilla', '=', id)
    .where('IdCliente', '=', office.clientId)
    .executeTakeFirst()) as Row | undefined;
  if (!payroll) throw new ApiError('NOT_FOUND');
  return payroll as Row & PayrollCalendar;
}

/**
 * The companies whose attendance a payroll closes over a period, each with its special condition
 * (its description, computation and whether it is active; none when the company lacks one), the
 * latest configuration first.
 */
async function payrollCompanies(
  db: Db,
  tables: AttendanceTables,
  clientId: number,
  payroll: number,
  from: string,
  to: string,
) {
  return (await db
    .selectFrom(`${tables.config} as k`)
    .innerJoin(`${tables.company} as c`, 'c.IdCompania', 'k.IdCompania')
    .leftJoin(`${tables.specialCondition} as s`, 's.IdCondicionEspecial', 'k.IdCondicionEspecial')
    .select([
      'k.IdCompania',
      'k.IdCondicionEspecial',
      'c.Compania',
      's.Descripcion as Condicion',
      's.ProcedimientoAlmacenado as Procedimiento',
      's.Activo as CondicionActiva',
    ])
    .where('k.IdCliente', '=', clientId)
    .where('k.IdPlanilla', '=', payroll)
    .where('k.Activo', '=', 'S')
    .where('k.FechaInicio', '<=', to)
    .where((eb) => eb.or([eb('k.FechaFin', 'is', null), eb('k.FechaFin', '>=', from)]))
    .orderBy('k.FechaInicio', 'desc')
    .execute()) as Row[];
}

/** A company's condition acts only when it is active and names a computation the product has. */
const conditionActs = (c: Row) => c.CondicionActiva === 'S' && isConditionProcedure(c.Procedimiento);

/**
 * Closes the period of a payroll that holds `date` (spec section 3 Attendance 'payroll'): its days
 * are computed from what the database holds, then frozen (Cerrado), in one transaction with the
 * closing's own row, whose key (payroll and period start) lets the database refuse a second closing.
 * A period not over yet, or a company of the payroll without a special condition that acts (active,
 * with a computation of the product), is refused.
 */
export async function closePeriod(
  db: Db,
  tables: AttendanceTables,
  office: AttendanceOffice,
  payrollId: number,
  date: string,
  now: number,
) {
  const payroll = await payrollOf(db, tables, office, payrollId);
  const period = payrollPeriodOf(payroll, date);
  const { today } = await clientSite(db, tables, office.clientId, now);
  if (period.hasta >= today)
    throw new ApiError('BUSINESS_RULE', {
      messageKey: 'attendance.closing.notOver',
      params: { hasta: period.hasta },
    });
  const companies = await payrollCompanies(
    db,
    tables,
    office.clientId,
    payrollId,
    period.desde,
    period.hasta,
  );
  const lacking = companies.find((c) => !conditionActs(c));
  if (lacking)
    throw new ApiError('BUSINESS_RULE', {
      messageKey: 'attendance.closing.companyConfig',
      params: { company: String(lacking.Compania) },
    });
  return db.transaction().execute(async (trx) => {
    try {
      await trx
        .insertInto(ATTENDANCE_TABLES.closing)
        .values({
          IdCliente: office.clientId,
          IdPlanilla: payrollId,
          Desde: period.desde,
          Hasta: period.hasta,
          Personas: 0,
          Dias: 0,
          CerradoPor: office.userId,
          CerradoEn: new Date(now).toISOString(),
        })
        .execute();
    } catch (error) {
      if (uniqueViolation(error))
        throw new ApiError('CONFLICT', {
          messageKey: 'attendance.closing.already',
          params: { desde: period.desde, hasta: period.hasta },
        });
      throw error;
    }
    const ids = companies.map((c) => Number(c.IdCompania));
    const people = ids.length
      ? ((await trx
          .selectFrom(tables.person)
          .select('IdPersona')
          .where('IdCliente', '=', office.clientId)
          .where('IdCompania', 'in', ids)
          .execute()) as Row[])
      : [];
    const setup = await loadClientSetup(trx, tables, office.clientId, now, 1);
    if (people.length)
      await computePeriod(
        trx,
        tables,
        setup,
        period.desde,
        period.hasta,
        people.map((p) => Number(p.IdPersona)),
      );
    const frozen = await trx
      .updateTable(ATTENDANCE_TABLES.day)
      .set({ Cerrado: 'S' })
      .where('IdCliente', '=', office.clientId)
      .where('IdPlanilla', '=', payrollId)
      .where('Fecha', '>=', period.desde)
      .where('Fecha', '<=', period.hasta)
      .executeTakeFirst();
    const counted = await trx
      .selectFrom(ATTENDANCE_TABLES.day)
      .select((eb) => eb.fn.count<number>('IdPersona').distinct().as('n'))
      .where('IdPlanilla', '=', payrollId)
      .where('Fecha', '>=', period.desde)
      .where('Fecha', '<=', period.hasta)
      .executeTakeFirst();
    const closing = {
      IdPlanilla: payrollId,
      Desde: period.desde,
      Hasta: period.hasta,
      Personas: Number(counted?.n ?? 0),
      Dias: Number(frozen.numUpdatedRows),
    };
    await trx
      .updateTable(ATTENDANCE_TABLES.closing)
      .set({ Personas: closing.Personas, Dias: closing.Dias })
      .where('IdPlanilla', '=', payrollId)
      .where('Desde', '=', period.desde)
      .execute();
    return closing;
  });
}

/** A client's payrolls, each with its current and previous period and its last closings. */
export async function payrollsOf(db: Db, tables: AttendanceTables, office: AttendanceOffice, now: number) {
  const { today } = await clientSite(db, tables, office.clientId, now);
  const [payrolls, closings] = await Promise.all([
    db
      .selectFrom(tables.payroll)
      .select(['IdPlanilla', 'Codigo', 'Descripcion', 'Periodicidad', 'DiaCierre', 'Activo'])
      .where('IdCliente', '=', office.clientId)
      .orderBy('Codigo')
      .execute() as Promise<Row[]>,
    db
      .selectFrom(ATTENDANCE_TABLES.closing)
      .selectAll()
      .where('IdCliente', '=', office.clientId)
      .orderBy('Desde', 'desc')
      .execute() as Promise<Row[]>,
  ]);
  return {
    hoy: today,
    planillas: payrolls.map((p) => {
      const calendar = p as Row & PayrollCalendar;
      const current = payrollPeriodOf(calendar, today);
      const previous = payrollPeriodOf(calendar, addDays(current.desde, -1));
      return {
        ...p,
        actual: current,
        anterior: previous,
        cierres: closings.filter((c) => Number(c.IdPlanilla) === Number(p.IdPlanilla)).slice(0, 12),
      };
    }),
  };
}

export interface ClosingLine extends PeriodTotals {
  Planilla: string;
  CodigoPlanilla: string | null;
  Documento: string;
  Persona: string;
  Compania: string | null;
  /** Justifications of the period by their reference code: how many. */
  codigos: Record<string, number>;
  /** Days of earlier closed periods that later markings would change, taken up by this one. */
  pendientesAnteriores: number;
  /** The special condition of the person's company, and the minutes by pay concept it computes. */
  Condicion: string | null;
  conceptos: PayFigures;
}

/** Each company's special condition that acts over a period: its latest configuration's. */
function conditionsOf(companies: Row[]) {
  const conditions = new Map<number, { Condicion: string; procedure: ConditionProcedure }>();
  for (const c of companies)
    if (!conditions.has(Number(c.IdCompania)) && conditionActs(c))
      conditions.set(Number(c.IdCompania), {
        Condicion: String(c.Condicion),
        procedure: c.Procedimiento as ConditionProcedure,
      });
  return conditions;
}

/** The pay concepts the conditions compute, in the export's order. */
const conceptsOf = (procedures: Iterable<ConditionProcedure>): PayConcept[] => {
  const used = new Set([...procedures].flatMap((p) => CONCEPTS_OF[p]));
  return PAY_CONCEPTS.filter((c) => used.has(c));
};

/**
 * A closed period for payroll: per person, the frozen figures (days and hours worked, overtime,
 * late minutes, absences, justified days and paid justified hours), the count of each justification
 * reference code, the days of earlier closed periods flagged since (Pendiente), and the minutes by
 * pay concept that the special condition of the person's company computes (its last day's company).
 */
export async function closingLines(
  db: Db,
  tables: AttendanceTables,
  office: AttendanceOffice,
  payrollId: number,
  desde: string,
): Promise<{ closing: Row; lines: ClosingLine[]; codes: string[]; concepts: PayConcept[] }> {
  const payroll = await payrollOf(db, tables, office, payrollId);
  const closing = (await db
    .selectFrom(ATTENDANCE_TABLES.closing)
    .selectAll()
    .where('IdPlanilla', '=', payrollId)
    .where('Desde', '=', desde)
    .executeTakeFirst()) as Row | undefined;
  if (!closing) throw new ApiError('NOT_FOUND');
  const hasta = String(closing.Hasta);
  const [days, pending, companies, site] = await Promise.all([
    db
      .selectFrom(`${ATTENDANCE_TABLES.day} as d`)
      .innerJoin(`${tables.person} as p`, 'p.IdPersona', 'd.IdPersona')
      .leftJoin(`${tables.company} as c`, 'c.IdCompania', 'd.IdCompania')
      .select([
        'd.IdPersona',
        'd.IdCompania',
        'd.Fecha',
        'd.Estado',
        'd.PrimeraEntrada',
        'd.UltimaSalida',
        'd.MinutosTrabajados',
        'd.MinutosTardanza',
        'd.MinutosExtraAntes',
        'd.MinutosExtraDespues',
        'd.MinutosJustificadosPagados',
        'p.Documento',
        'p.Apellido',
        'p.Nombre',
        'p.CodigoPlanilla',
        'c.Compania',
      ])
      .where('d.IdPlanilla', '=', payrollId)
      .where('d.Fecha', '>=', desde)
      .where('d.Fecha', '<=', hasta)
      .where('d.Cerrado', '=', 'S')
      .orderBy('p.Apellido')
      .orderBy('p.Nombre')
      .orderBy('d.IdPersona')
      .orderBy('d.Fecha')
      .execute() as Promise<Row[]>,
    db
      .selectFrom(ATTENDANCE_TABLES.day)
      .select(['IdPersona'])
      .where('IdPlanilla', '=', payrollId)
      .where('Fecha', '<', desde)
      .where('Pendiente', '=', 'S')
      .execute() as Promise<Row[]>,
    payrollCompanies(db, tables, office.clientId, payrollId, desde, hasta),
    clientSite(db, tables, office.clientId, Date.now()),
  ]);
  const conditions = conditionsOf(companies);
  const period = { desde, hasta, timeZone: site.timeZone };
  // The justifications of the period's people on its days, by their reference code.
  const ids = [...new Set(days.map((d) => Number(d.IdPersona)))];
  const justified = ids.length
    ? ((await db
        .selectFrom(`${tables.personJustification} as pj`)
        .innerJoin(`${tables.justification} as j`, 'j.IdJustificacion', 'pj.IdJustificacion')
        .select(['pj.IdPersona', 'j.CodigoReferencia'])
        .where('pj.IdPersona', 'in', ids)
        .where('pj.Fecha', '>=', desde)
        .where('pj.Fecha', '<=', hasta)
        .execute()) as Row[])
    : [];
  const byPerson = new Map<number, Row[]>();
  for (const d of days) {
    const id = Number(d.IdPersona);
    (byPerson.get(id) ?? byPerson.set(id, []).get(id))?.push(d);
  }
  // Each person's justification codes and earlier pending days, counted once.
  const codesOf = new Map<number, Record<string, number>>();
  for (const j of justified) {
    const id = Number(j.IdPersona);
    const code = String(j.CodigoReferencia);
    const counts = codesOf.get(id) ?? codesOf.set(id, {}).get(id) ?? {};
    counts[code] = (counts[code] ?? 0) + 1;
  }
  const pendingOf = new Map<number, number>();
  for (const p of pending) pendingOf.set(Number(p.IdPersona), (pendingOf.get(Number(p.IdPersona)) ?? 0) + 1);
  const codes = [...new Set(justified.map((j) => String(j.CodigoReferencia)))].sort();
  const lines = [...byPerson.values()].map((own) => {
    const first = own[0];
    const id = Number(first.IdPersona);
    const condition = conditions.get(Number(own[own.length - 1].IdCompania));
    return {
      Planilla: String(payroll.Codigo),
      CodigoPlanilla: (first.CodigoPlanilla as string | null) ?? null,
      Documento: String(first.Documento),
      Persona: `${first.Apellido}, ${first.Nombre}`,
      Compania: (first.Compania as string | null) ?? null,
      ...totalsOf(own),
      codigos: codesOf.get(id) ?? {},
      pendientesAnteriores: pendingOf.get(id) ?? 0,
      Condicion: condition?.Condicion ?? null,
      conceptos: condition ? payFigures(condition.procedure, own as unknown as ConditionDay[], period) : {},
    };
  });
  const concepts = conceptsOf([...conditions.values()].map((c) => c.procedure));
  return { closing, lines, codes, concepts };
}
