import { hoursProblem, overlappingWeekdays, type ScheduleDay } from '../../../shared/attendance.js';
import type { HookMap, Row } from '../../crud/types.js';
import { ApiError } from '../../errors.js';
import type { Registry } from '../../registry.js';

const refuse = (messageKey: string, field: string) =>
  new ApiError('BUSINESS_RULE', { messageKey, fields: { [field]: { messageKey } } });

const PROBLEMS = {
  HOURS_MISSING: ['rules.scheduleHoursMissing', 'HoraEntrada'],
  BREAK_INCOMPLETE: ['rules.scheduleBreakIncomplete', 'FinRefrigerio'],
  BREAK_OUTSIDE: ['rules.scheduleBreakOutside', 'InicioRefrigerio'],
} as const;

/** A day's hours checked: both ends, and a break (if any) with both ends within them. */
function checkHours(data: Row, required: boolean) {
  if (!required && !data.HoraEntrada && !data.HoraSalida && !data.InicioRefrigerio && !data.FinRefrigerio)
    return;
  const problem = hoursProblem(
    data.HoraEntrada as string | null,
    data.HoraSalida as string | null,
    data.InicioRefrigerio as string | null,
    data.FinRefrigerio as string | null,
  );
  if (problem) {
    const [messageKey, field] = PROBLEMS[problem];
    throw refuse(messageKey, field);
  }
}

/**
 * The rules of schedules (spec section 3 Attendance 'schedule types'): a schedule's hours have both
 * ends and their refreshment within them; a weekly schedule's weekdays may not overlap (a night
 * running into the next morning's hours, Sunday's into Monday's), and only a weekly schedule has them.
 */
export function scheduleHooks(registry: Registry): HookMap {
  const table = (name: string) => registry.require(name).table;
  return {
    'schedule-type': {
      async beforeWrite({ data }) {
        // A flexible or automatic schedule may leave its hours to its rows or its candidates.
        checkHours(data, data.Tipo === 'C');
      },
    },
    'schedule-day': {
      async beforeWrite({ db, data, existing }) {
        const schedule = (await db
          .selectFrom(table('schedule-type'))
          .select('Tipo')
          .where('IdTipoHorario', '=', data.IdTipoHorario as number)
          .executeTakeFirst()) as Row | undefined;
        if (schedule?.Tipo !== 'S') throw refuse('rules.scheduleDayWeekly', 'IdTipoHorario');
        checkHours(data, true);
        let qb = db
          .selectFrom(table('schedule-day'))
          .select(['IdHorarioDia', 'Dia', 'HoraEntrada', 'HoraSalida'])
          .where('IdTipoHorario', '=', data.IdTipoHorario as number);
        if (existing) qb = qb.where('IdHorarioDia', '<>', existing.IdHorarioDia as number);
        const others = (await qb.execute()) as unknown as ScheduleDay[];
        const mine = { ...(data as unknown as ScheduleDay), Dia: Number(data.Dia) as ScheduleDay['Dia'] };
        const overlap = overlappingWeekdays([...others.filter((o) => Number(o.Dia) !== mine.Dia), mine]);
        if (overlap) {
          const other = overlap[0] === mine.Dia ? overlap[1] : overlap[0];
          throw refuse(`rules.scheduleOverlapWith.${other}`, 'HoraEntrada');
        }
      },
    },
  };
}
