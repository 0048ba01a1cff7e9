/**
 * The dates of a request (spec section 5), checked alike by the wizard, under the field as it is
 * typed, and by the server, which refuses the same: a start today or later, an end not before the
 * start and both within the contract, a visit no longer than the client's longest, and for a
 * worker a birth date in the past and an age within the legal working age. Dates are ISO
 * (yyyy-mm-dd); the messages' dates are written dd/MM/yyyy.
 */

import { daysBetween, yearsSince } from './dates.js';
import type { FieldProblem } from './validation.js';

/** The youngest a worker may be (Peru and Chile: 18). */
export const MINIMUM_WORKING_AGE = 18;

/** An ISO date as the screens write it: dd/MM/yyyy. */
export const dmy = (iso: string) => iso.slice(0, 10).split('-').reverse().join('/');

export interface RequestDates {
  FechaInicio?: string | null;
  FechaFin?: string | null;
  FechaNacimiento?: string | null;
}

export interface DateContext {
  /** The site's date today. */
  today: string;
  contract?: { FechaInicio: string; FechaFin: string } | null;
  /** A visit's longest stay in days, when the request is a visit's. */
  longestVisit?: number | null;
}

const isDate = (value: unknown): value is string =>
  typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value);

/** The problems of a request's dates, by field (empty when they hold). */
export function requestDateProblems(dates: RequestDates, context: DateContext): Record<string, FieldProblem> {
  const problems: Record<string, FieldProblem> = {};
  const { FechaInicio: start, FechaFin: end, FechaNacimiento: birth } = dates;
  if (isDate(start) && start < context.today)
    problems.FechaInicio = {
      messageKey: 'accreditation.refusals.startBeforeToday',
      params: { today: dmy(context.today) },
    };
  if (isDate(start) && isDate(end) && end < start)
    problems.FechaFin = {
      messageKey: 'accreditation.refusals.endBeforeStart',
      params: { start: dmy(start) },
    };
  const contract = context.contract;
  if (contract && isDate(start) && isDate(end) && (start < contract.FechaInicio || end > contract.FechaFin)) {
    const problem = {
      messageKey: 'accreditation.refusals.outsideContract',
      params: { start: dmy(contract.FechaInicio), end: dmy(contract.FechaFin) },
    };
    if (start < contract.FechaInicio) problems.FechaInicio ??= problem;
    if (end > contract.FechaFin) problems.FechaFin ??= problem;
  }
  if (
    context.longestVisit &&
    isDate(start) &&
    isDate(end) &&
    daysBetween(start, end) + 1 > context.longestVisit
  )
    problems.FechaFin ??= {
      messageKey: 'accreditation.refusals.visitTooLong',
      params: { days: context.longestVisit },
    };
  if (isDate(birth)) {
    const age = yearsSince(birth, new Date(`${context.today}T12:00:00Z`));
    if (birth >= context.today)
      problems.FechaNacimiento = { messageKey: 'accreditation.refusals.birthNotPast' };
    else if (age !== undefined && age < MINIMUM_WORKING_AGE)
      problems.FechaNacimiento = {
        messageKey: 'accreditation.refusals.underWorkingAge',
        params: { age: MINIMUM_WORKING_AGE },
      };
  }
  return problems;
}
