import type { Language } from '../../../shared/constants.js';
import { addDays } from '../../../shared/dates.js';
import { EXPIRING_WITHIN_DAYS } from '../../../shared/induction.js';
import type { Db } from '../../db/connection.js';
import { ApiError } from '../../errors.js';
import { t as say } from '../../i18n.js';
import { columnMaker, workbookBase64 } from '../../services/excel.js';
import type { InductionOffice } from './office.js';
import { type InductionTables, named, namesOf, type Row, text } from './tables.js';

/** The longest period one report covers. */
export const REPORT_MAX_DAYS = 366;

/** Every booking of the period's sessions (cancelled ones aside), named, with its session and course. */
async function periodRows(db: Db, t: InductionTables, office: InductionOffice, from: string, to: string) {
  return (await named(db, t, t.booking, office)
    .innerJoin(`${t.session} as s`, 's.IdSesion', 'x.IdSesion')
    .select(['s.IdSesion', 's.Fecha', 's.HoraInicio', 's.Sala', 'x.Asistio', 'x.Nota', 'x.Estado'])
    .where('s.Fecha', '>=', from)
    .where('s.Fecha', '<=', to)
    .where('x.Estado', '!=', 'X')
    .orderBy('s.Fecha')
    .orderBy('s.HoraInicio')
    .orderBy('p.Apellido')
    .execute()) as Row[];
}

function checkPeriod(from: string, to: string) {
  const days = (Date.parse(to) - Date.parse(from)) / 86_400_000;
  if (!(days >= 0)) throw new ApiError('BAD_REQUEST', { messageKey: 'induction.refusals.periodBackwards' });
  if (days > REPORT_MAX_DAYS)
    throw new ApiError('BAD_REQUEST', {
      messageKey: 'induction.refusals.periodTooLong',
      params: { days: REPORT_MAX_DAYS },
    });
}

/** Passed, failed and attendance counts of a group of bookings. */
function tally(rows: Row[]) {
  const booked = rows.length;
  const attended = rows.filter((r) => r.Asistio === 'S').length;
  const passed = rows.filter((r) => r.Estado === 'A').length;
  const failed = rows.filter((r) => r.Estado === 'D').length;
  const settled = passed + failed;
  return {
    reservados: booked,
    asistieron: attended,
    aprobados: passed,
    desaprobados: failed,
    tasaAprobacion: settled ? Math.round((1000 * passed) / settled) / 10 : null,
  };
}

function groupBy(rows: Row[], key: (r: Row) => string) {
  const groups = new Map<string, Row[]>();
  for (const r of rows) groups.set(key(r), [...(groups.get(key(r)) ?? []), r]);
  return groups;
}

/**
 * The period's report: its sessions, attendance and pass rate overall, per company and per course,
 * the people passed per day (the chart), and the inductions expiring within 30 days of today.
 */
export async function inductionReport(
  db: Db,
  t: InductionTables,
  office: InductionOffice,
  from: string,
  to: string,
  today: string,
) {
  checkPeriod(from, to);
  const rows = await periodRows(db, t, office, from, to);
  const sessions = groupBy(rows, (r) => String(r.IdSesion));
  const expiringRows = (await named(db, t, t.record, { ...office, companyId: undefined })
    .select(['x.IdRegistro', 'x.VenceEl'])
    .where('x.Estado', '=', 'V')
    .where('x.VenceEl', '>=', today)
    .where('x.VenceEl', '<=', addDays(today, EXPIRING_WITHIN_DAYS))
    .orderBy('x.VenceEl')
    .limit(500)
    .execute()) as Row[];
  return {
    desde: from,
    hasta: to,
    sesiones: sessions.size,
    ...tally(rows),
    porCompania: [...groupBy(rows, (r) => text(r.Compania)).entries()].map(([Compania, g]) => ({
      Compania,
      ...tally(g),
    })),
    porCurso: [...groupBy(rows, (r) => text(r.Codigo)).entries()].map(([Codigo, g]) => ({
      Codigo,
      Curso: text(g[0].Curso),
      CursoIngles: text(g[0].CursoIngles),
      ...tally(g),
    })),
    porDia: [...groupBy(rows, (r) => text(r.Fecha).slice(0, 10)).entries()].map(([Fecha, g]) => ({
      Fecha,
      ...tally(g),
    })),
    porVencer: expiringRows.map((r) => ({
      IdRegistro: Number(r.IdRegistro),
      VenceEl: text(r.VenceEl).slice(0, 10),
      ...namesOf(r),
    })),
  };
}

/** Every booking of the period as an Excel workbook, in the reader's language. */
export async function reportWorkbook(
  db: Db,
  t: InductionTables,
  office: InductionOffice,
  from: string,
  to: string,
  language: Language,
) {
  checkPeriod(from, to);
  const rows = await periodRows(db, t, office, from, to);
  const col = columnMaker(language, 'induction.report.columns');
  const columns = [
    col('Fecha', 'date', 12, (r) => text(r.Fecha).slice(0, 10)),
    col('HoraInicio', 'text', 8),
    col('Sala', 'text', 20),
    col('Codigo', 'text', 12),
    col('Curso', 'text', 36, (r) => (language === 'en' ? r.CursoIngles : r.Curso)),
    col('Compania', 'text', 20),
    col('Documento', 'text', 14),
    col('Persona', 'text', 32, (r) => `${text(r.Apellido)} ${text(r.Nombre)}`),
    col('Asistio', 'text', 8, (r) => say(language, `enums.yesNo.${r.Asistio}`)),
    col('Nota', 'number', 8),
    col('Estado', 'text', 14, (r) => say(language, `enums.bookingState.${r.Estado}`)),
  ];
  const title = `${from} – ${to}`;
  return {
    fileBase64: await workbookBase64(columns, rows, title),
    fileName: `inducciones ${from} ${to}.xlsx`,
  };
}
