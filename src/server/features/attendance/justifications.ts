import { addDays } from '../../../shared/dates.js';
import type { HookMap, Row } from '../../crud/types.js';
import type { Db } from '../../db/connection.js';
import { ApiError } from '../../errors.js';
import type { Signal } from '../../jobs/signal.js';
import type { Registry } from '../../registry.js';
import { noteMarkedDays } from '../../services/site/tables.js';
import { type AttendanceTables, attendanceTables, clientSite } from './compute.js';
import { ATTENDANCE_TABLES } from './tables.js';

const refuse = (messageKey: string, field?: string, params?: Record<string, string | number>) =>
  new ApiError('BUSINESS_RULE', {
    messageKey,
    params,
    ...(field && { fields: { [field]: { messageKey, params } } }),
  });

/** Monday and Sunday of a date's week. */
export function weekOf(date: string): { from: string; to: string } {
  const weekday = new Date(`${date}T00:00:00Z`).getUTCDay() || 7;
  const from = addDays(date, 1 - weekday);
  return { from, to: addDays(from, 6) };
}

/**
 * Whether a person's day is in a closed payroll period: its result was frozen, or a closing of the
 * payroll its company's configuration names on that day covers it (a day with no result yet).
 */
export async function isClosedDay(db: Db, tables: AttendanceTables, person: number, date: string) {
  const frozen = await db
    .selectFrom(ATTENDANCE_TABLES.day)
    .select('IdPersona')
    .where('IdPersona', '=', person)
    .where('Fecha', '=', date)
    .where('Cerrado', '=', 'S')
    .executeTakeFirst();
  if (frozen) return true;
  const closing = await db
    .selectFrom(`${tables.person} as p`)
    .innerJoin(`${tables.config} as c`, 'c.IdCompania', 'p.IdCompania')
    .innerJoin(`${ATTENDANCE_TABLES.closing} as k`, 'k.IdPlanilla', 'c.IdPlanilla')
    .select('k.IdPlanilla')
    .where('p.IdPersona', '=', person)
    .where('c.Activo', '=', 'S')
    .where('c.FechaInicio', '<=', date)
    .where((eb) => eb.or([eb('c.FechaFin', 'is', null), eb('c.FechaFin', '>=', date)]))
    .where('k.Desde', '<=', date)
    .where('k.Hasta', '>=', date)
    .executeTakeFirst();
  return Boolean(closing);
}

export interface JustificationRules {
  IdJustificacion: number;
  Activo: string;
  AplicaFuturo: string;
  CantidadPorSemana: number;
  CantidadPorDia: number;
  HorasMaximo: number | null;
  RequiereObservacion: string;
}

/**
 * The checks of a person's justification against its justification's rules (spec section 3
 * Attendance 'justification'), the same for a supervisor's entry and a file's row: active; an
 * observation when required; a future day only when it applies to the future; hours for a late
 * entry or hours, never beyond the maximum; its per-day and per-week counts with the others of the
 * person (`existing` left out, on an update); never a day of a closed period.
 */
export async function checkJustification(
  db: Db,
  tables: AttendanceTables,
  data: Row,
  rules: JustificationRules | undefined,
  now: number,
  existing?: Row,
): Promise<void> {
  if (rules?.Activo !== 'S') throw refuse('rules.justificationInactive', 'IdJustificacion');
  const person = Number(data.IdPersona);
  const date = String(data.Fecha).slice(0, 10);
  const observation = String(data.Observacion ?? '').trim();
  if (rules.RequiereObservacion === 'S' && !observation)
    throw refuse('rules.justificationObservation', 'Observacion');
  const { today } = await clientSite(db, tables, Number(data.IdCliente), now);
  if (date > today && rules.AplicaFuturo !== 'S') throw refuse('rules.justificationFuture', 'Fecha');
  const hours = data.Horas == null ? undefined : Number(data.Horas);
  if (data.Tipo === 'H' && !hours) throw refuse('rules.justificationHoursRequired', 'Horas');
  if (hours !== undefined && rules.HorasMaximo != null && hours > Number(rules.HorasMaximo))
    throw refuse('rules.justificationHours', 'Horas', { max: Number(rules.HorasMaximo) });
  const counted = async (from: string, to: string) => {
    let qb = db
      .selectFrom(tables.personJustification)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('IdPersona', '=', person)
      .where('IdJustificacion', '=', rules.IdJustificacion)
      .where('Fecha', '>=', from)
      .where('Fecha', '<=', to);
    if (existing) qb = qb.where('IdJustificacionPersona', '<>', existing.IdJustificacionPersona as number);
    return Number((await qb.executeTakeFirst())?.n ?? 0);
  };
  if (rules.CantidadPorDia > 0 && (await counted(date, date)) >= rules.CantidadPorDia)
    throw refuse('rules.justificationPerDay', 'Fecha', { max: rules.CantidadPorDia });
  const week = weekOf(date);
  if (rules.CantidadPorSemana > 0 && (await counted(week.from, week.to)) >= rules.CantidadPorSemana)
    throw refuse('rules.justificationPerWeek', 'Fecha', { max: rules.CantidadPorSemana });
  if (await isClosedDay(db, tables, person, date)) throw refuse('rules.justificationClosed', 'Fecha');
}

/** A client's justifications' rules, by id. */
export async function justificationRules(db: Db, tables: AttendanceTables, clientId: number, ids?: number[]) {
  let qb = db
    .selectFrom(tables.justification)
    .select([
      'IdJustificacion',
      'Activo',
      'AplicaFuturo',
      'CantidadPorSemana',
      'CantidadPorDia',
      'HorasMaximo',
      'RequiereObservacion',
    ])
    .where('IdCliente', '=', clientId);
  if (ids) qb = qb.where('IdJustificacion', 'in', ids.length ? ids : [0]);
  const rows = (await qb.execute()) as Row[];
  return new Map<number, JustificationRules>(
    rows.map((r) => [
      Number(r.IdJustificacion),
      {
        IdJustificacion: Number(r.IdJustificacion),
        Activo: String(r.Activo),
        AplicaFuturo: String(r.AplicaFuturo),
        CantidadPorSemana: Number(r.CantidadPorSemana ?? 0),
        CantidadPorDia: Number(r.CantidadPorDia ?? 0),
        HorasMaximo: r.HorasMaximo == null ? null : Number(r.HorasMaximo),
        RequiereObservacion: String(r.RequiereObservacion),
      },
    ]),
  );
}

/** A justification's day, noted for recomputation as a marking's is. */
const noted = (row: Row | undefined) =>
  row ? [{ IdPersona: row.IdPersona, Fecha: row.Fecha, IdCliente: row.IdCliente, Resultado: 'P' }] : [];

/** The rules of a person's justification on every write, and its day recomputed after it. */
export function justificationHooks(registry: Registry, now: () => number, markingsWritten?: Signal): HookMap {
  const tables = attendanceTables(registry);
  return {
    'person-justification': {
      async beforeWrite({ db, data, existing }) {
        // The person's day first: its row in the marked days orders two writers of the same day.
        await noteMarkedDays(db, [...noted(existing), ...noted(data)]);
        if (existing && (await isClosedDay(db, tables, Number(existing.IdPersona), String(existing.Fecha))))
          throw refuse('rules.justificationClosed', 'Fecha');
        const rules = await justificationRules(db, tables, Number(data.IdCliente), [
          Number(data.IdJustificacion),
        ]);
        await checkJustification(db, tables, data, rules.get(Number(data.IdJustificacion)), now(), existing);
        if (data.Tipo === 'F') data.Horas = null;
        if (!existing) data.Origen ??= 'M';
      },
      async afterWrite({ db, row }) {
        await noteMarkedDays(db, noted(row));
      },
      async beforeDelete({ db, existing }) {
        if (await isClosedDay(db, tables, Number(existing.IdPersona), String(existing.Fecha)))
          throw refuse('rules.justificationClosed', 'Fecha');
        await noteMarkedDays(db, noted(existing));
      },
      committed: () => markingsWritten?.fire(),
    },
  };
}
