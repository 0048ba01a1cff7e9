import { addDays } from './dates.js';

/**
 * The Inductions module's rules that the console and the server share: how long a passed induction
 * holds, what passes, what counts as expiring, and how often an online test may be tried.
 */

/** Days ahead within which a valid induction is listed as expiring (the requester's follow-up). */
export const EXPIRING_WITHIN_DAYS = 30;

/** An online test may be tried once an hour. */
export const ATTEMPT_EVERY_MS = 60 * 60 * 1000;

/** Workers booked in one call (a crew). */
export const CREW_MAX = 200;

/**
 * The last day a passed induction holds: the day it was passed plus the course's validity in
 * months, less one day (passed on 2026-03-15 for 12 months: valid to 2027-03-14). A day past the end
 * of a shorter month falls on that month's last day (2026-01-31 + 1 month: 2026-02-27).
 */
export function validUntil(passedOn: string, months: number): string {
  const [y, m, d] = passedOn.split('-').map(Number);
  const monthIndex = m - 1 + months;
  const year = y + Math.floor(monthIndex / 12);
  const month = monthIndex % 12;
  const last = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  const end = new Date(Date.UTC(year, month, Math.min(d, last)));
  end.setUTCDate(end.getUTCDate() - 1);
  return end.toISOString().slice(0, 10);
}

/** Whether a score passes a course: attended and at least the passing score. */
export const passes = (attended: boolean, score: number | null | undefined, passing: number): boolean =>
  attended && score != null && score >= passing;

/** Whether a record valid until `until` is expiring seen from `today` (still valid, ends within 30 days). */
export const expiring = (until: string, today: string): boolean =>
  until >= today && until <= addDays(today, EXPIRING_WITHIN_DAYS);

export type SessionState = 'P' | 'C' | 'X';

/** A session's own fields, as the calls and the generic list answer them. */
export interface SessionFields {
  IdSesion: number;
  IdCurso: number;
  Fecha: string;
  HoraInicio: string;
  HoraFin: string;
  Sala: string;
  Capacidad: number;
  Reservados: number;
  IdInstructor: string;
  /** P scheduled, C closed, X cancelled. */
  Estado: SessionState;
}

/** A worker who may be booked: of the client, accredited or with a request open in the division (a requester's: its company's). */
export interface Candidate {
  IdPersona: number;
  Documento: string;
  Persona: string;
  IdCompania: number;
  Compania: string;
}
