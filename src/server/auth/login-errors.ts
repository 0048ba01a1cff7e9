import { ApiError } from '../errors.js';

export type LoginCode =
  | '00'
  | '01'
  | '02'
  | '03'
  | '04'
  | '05'
  | '06'
  | '07'
  | '08'
  | '09'
  | '10'
  | '11'
  | '12';

const STATUS_OF: Record<
  LoginCode,
  'LOGIN_FAILED' | 'LOGIN_REFUSED' | 'ACCOUNT_LOCKED' | 'INTERNAL' | 'BAD_REQUEST'
> = {
  '00': 'INTERNAL',
  '01': 'LOGIN_FAILED',
  '02': 'LOGIN_REFUSED',
  '03': 'LOGIN_REFUSED',
  '04': 'ACCOUNT_LOCKED',
  '05': 'LOGIN_REFUSED',
  '06': 'LOGIN_REFUSED',
  '07': 'LOGIN_REFUSED',
  '08': 'BAD_REQUEST',
  '09': 'ACCOUNT_LOCKED',
  '10': 'LOGIN_REFUSED',
  '11': 'LOGIN_REFUSED',
  '12': 'LOGIN_REFUSED',
};

/** A refused sign-in with the spec's message code (section 8) and, for locks, the minutes left; a message more precise than the code's where one says more. */
export function loginError(
  codigo: LoginCode,
  minutos?: number,
  messageKey?: string,
  cause?: unknown,
): ApiError {
  return new ApiError(STATUS_OF[codigo], {
    messageKey: messageKey ?? `login.messages.${codigo}`,
    params: minutos === undefined ? { codigo } : { codigo, minutos },
    cause,
  });
}
