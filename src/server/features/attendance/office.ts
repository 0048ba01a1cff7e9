import { ApiError } from '../../errors.js';
import type { Principal } from '../../principal.js';

/** The console's attendance screens: people management (a person's month, a company's period). */
export const ATTENDANCE_ROUTES = {
  people: '/asistencia/personas',
  period: '/asistencia/periodo',
  closing: '/asistencia/cierres',
} as const;

/** Who reads attendance: the client, or a contractor's company (its own people only). */
export interface AttendanceOffice {
  clientId: number;
  userId: string;
  companyId?: number;
}

/** The office of a session for an attendance call: a profile whose menu holds the call's screen. */
export function attendanceOffice(
  principal: Principal,
  route: string = ATTENDANCE_ROUTES.people,
): AttendanceOffice {
  if (principal.clientId === undefined || !principal.grants?.routes?.has(route))
    throw new ApiError('FORBIDDEN');
  return {
    clientId: principal.clientId,
    userId: principal.userId,
    ...(principal.companyId !== undefined && { companyId: principal.companyId }),
  };
}
