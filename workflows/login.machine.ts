import { assign, fromPromise, setup } from 'xstate';
import type {
  DivisionEntry,
  LoginResponse,
  ProfileEntry,
  SessionAnswer as SharedSessionAnswer,
} from '../src/shared/session.js';

/** A refusal the screens show: a translation key and its parameters (the sign-in codes 00 to 12, the minutes). */
export interface LoginProblem {
  messageKey: string;
  params?: Record<string, string | number>;
  /** The reason is about a value the user typed (shown as written, not upper-cased like sign-in refusals). */
  field?: true;
}

/** The parts of the login response (spec section 3, `LoginResponse`) the flow decides on and shows. */
export type LoginAnswer = Pick<
  LoginResponse,
  | 'username'
  | 'fullName'
  | 'accessToken'
  | 'refreshToken'
  | 'dobleAutenticacion'
  | 'autenticadorApp'
  | 'enrolarAutenticador'
  | 'ticketAutenticador'
  | 'cambiarClaveCaducada'
  | 'primeraClaveCambiada'
  | 'longitudClave'
  | 'nivelSeguridadClave'
  | 'diasCaducidadClave'
> & {
  perfil: Array<Pick<ProfileEntry, 'IdPerfil' | 'Perfil'>>;
  division: Array<Pick<DivisionEntry, 'IdPerfil' | 'IdDivision' | 'Division' | 'Cliente'>>;
};

/** The tokens of the working session the flow ends with; its profile is the caller's to keep. */
export type SessionAnswer = Pick<SharedSessionAnswer, 'accessToken' | 'refreshToken'> & { perfil: unknown };

export interface LoginContext {
  username: string;
  answer?: LoginAnswer;
  session?: SessionAnswer;
  problem?: LoginProblem;
  /** A success or information line for the current step (code resent, password changed). */
  notice?: string;
  /** Why the password must change: it expired, or it is the first one. */
  reason?: 'expired' | 'first';
  /** The authenticator app's secret offered for the enrolment the setting requires (QR URI and text). */
  enrolment?: AppEnrolment;
  /** The recovery codes of that enrolment, shown once. */
  recoveryCodes?: string[];
}

/** A secret offered for an authenticator app: its otpauth:// URI (the QR) and its text. */
export interface AppEnrolment {
  secreto: string;
  uri: string;
}

export type LoginEvent =
  | { type: 'SUBMIT'; username: string; password: string }
  | { type: 'SUBMIT_CODE'; code: string }
  /** The authenticator app's code, or a recovery code. */
  | { type: 'SUBMIT_APP_CODE'; code: string }
  /** A code of the app being enrolled confirms it. */
  | { type: 'CONFIRM_APP'; code: string }
  /** The recovery codes were seen: on with the sign-in. */
  | { type: 'CONTINUE' }
  | { type: 'RESEND' }
  | { type: 'CHANGE_PASSWORD'; password: string }
  | { type: 'SELECT'; idPerfil: number; idDivision: number }
  | { type: 'FORGOT' }
  | { type: 'BACK' }
  /** The corporate-account popup signed the user in: its login response, as a password's. */
  | { type: 'DIRECTORY_SIGNED_IN'; answer: LoginAnswer }
  /** The corporate-account popup failed (closed, refused by the provider, no matching user). */
  | { type: 'DIRECTORY_FAILED'; problem: LoginProblem };

/** What a sign-in needs next once its password (and, where asked, its code) has been proven. */
export type LoginStep = 'appCode' | 'enrolApp' | 'code' | 'changePassword' | 'profile';

/** The facts the steps are decided on: the parts of the login response that name them. */
export type StepFacts = Pick<
  LoginAnswer,
  | 'accessToken'
  | 'dobleAutenticacion'
  | 'autenticadorApp'
  | 'enrolarAutenticador'
  | 'cambiarClaveCaducada'
  | 'primeraClaveCambiada'
>;

/**
 * The decisions of the sign-in's branching states, as plain functions: the machine's guards call
 * them, and so does the server before any path (sign-in, signing in again, unlocking) turns a
 * password into a working session. The authenticator app's code is owed while autenticadorApp is S
 * and the answer carries no token (it takes the place of the e-mail code); an enrolment in the app
 * while enrolarAutenticador is S (after the e-mail code, when both apply); a code while double
 * authentication is S and the answer carries no token; then the password must change when it
 * expired or is the first one.
 */
export const loginRules = {
  needsAppCode: (a: StepFacts) => a.autenticadorApp === 'S' && !a.accessToken,
  needsAppEnrolment: (a: StepFacts) => a.enrolarAutenticador === 'S' && !a.accessToken,
  needsCode: (a: StepFacts) => a.dobleAutenticacion === 'S' && !a.accessToken,
  passwordExpired: (a: StepFacts) => a.cambiarClaveCaducada === 'S',
  firstPassword: (a: StepFacts) => a.primeraClaveCambiada === 'N',
};

/** The step the machine goes to from an answer: code, a forced change, or the profile. */
export function nextLoginStep(answer: StepFacts): LoginStep {
  if (loginRules.needsAppCode(answer)) return 'appCode';
  if (loginRules.needsAppEnrolment(answer)) return 'enrolApp';
  if (loginRules.needsCode(answer)) return 'code';
  if (loginRules.passwordExpired(answer) || loginRules.firstPassword(answer)) return 'changePassword';
  return 'profile';
}

/**
 * The refusal the server gave (messageKey and params), or a connection error when there was no
 * answer. A refusal of invalid data names what was wrong with a field (the new password contains
 * the user name): that reason is the problem, not the general "the data are not valid".
 */
export function problemOf(error: unknown): LoginProblem {
  if (typeof error !== 'object' || error === null) return { messageKey: 'login.messages.connection' };
  // A server failure that carries no sign-in code of its own is code 00 (spec section 8).
  const status = (error as { status?: unknown }).status;
  const key = (error as { messageKey?: unknown }).messageKey;
  if (
    typeof status === 'number' &&
    status >= 500 &&
    (typeof key !== 'string' || key === 'api.errors.INTERNAL')
  )
    return { messageKey: 'login.messages.00', params: { codigo: '00' } };
  if (!('messageKey' in error) || typeof key !== 'string') return { messageKey: 'login.messages.connection' };
  const fields = (error as { body?: { errors?: Record<string, Partial<LoginProblem>> } }).body?.errors;
  const reason = fields && Object.values(fields).find((field) => typeof field?.messageKey === 'string');
  if (reason?.messageKey)
    return reason.params
      ? { messageKey: reason.messageKey, params: reason.params, field: true }
      : { messageKey: reason.messageKey, field: true };
  const { messageKey, params } = error as LoginProblem;
  return params ? { messageKey, params } : { messageKey };
}

/**
 * The five-step sign-in of spec sections 2 and 4: credentials; a verification code when double
 * authentication is S; a password change when it expired or is the first; the profile and
 * division; then the dashboard. After a successful change the flow returns to the credentials and
 * forgets the session. Calls to the server are actors the screens supply.
 */
export const loginMachine = setup({
  types: {
    context: {} as LoginContext,
    events: {} as LoginEvent,
    output: {} as { answer: LoginAnswer; session: SessionAnswer },
  },
  actors: {
    authenticate: fromPromise<LoginAnswer, { username: string; password: string }>(async () => {
      throw new Error('authenticate is supplied by the screen');
    }),
    validateCode: fromPromise<LoginAnswer, { username: string; code: string }>(async () => {
      throw new Error('validateCode is supplied by the screen');
    }),
    validateAppCode: fromPromise<LoginAnswer, { username: string; code: string }>(async () => {
      throw new Error('validateAppCode is supplied by the screen');
    }),
    offerApp: fromPromise<AppEnrolment, { username: string; ticket: string }>(async () => {
      throw new Error('offerApp is supplied by the screen');
    }),
    confirmApp: fromPromise<
      { answer: LoginAnswer; codes: string[] },
      { username: string; ticket: string; code: string }
    >(async () => {
      throw new Error('confirmApp is supplied by the screen');
    }),
    resendCode: fromPromise<unknown, { username: string }>(async () => {
      throw new Error('resendCode is supplied by the screen');
    }),
    changePassword: fromPromise<{ id: number }, { answer: LoginAnswer; password: string }>(async () => {
      throw new Error('changePassword is supplied by the screen');
    }),
    selectProfile: fromPromise<SessionAnswer, { answer: LoginAnswer; idPerfil: number; idDivision: number }>(
      async () => {
        throw new Error('selectProfile is supplied by the screen');
      },
    ),
  },
  guards: {
    needsAppCode: ({ context }) => Boolean(context.answer && loginRules.needsAppCode(context.answer)),
    needsAppEnrolment: ({ context }) =>
      Boolean(context.answer && loginRules.needsAppEnrolment(context.answer)),
    needsCode: ({ context }) => Boolean(context.answer && loginRules.needsCode(context.answer)),
    passwordExpired: ({ context }) => Boolean(context.answer && loginRules.passwordExpired(context.answer)),
    firstPassword: ({ context }) => Boolean(context.answer && loginRules.firstPassword(context.answer)),
    locked: ({ event }) => {
      const params = (problemOf((event as { error?: unknown }).error).params ?? {}) as Record<
        string,
        unknown
      >;
      return params.codigo === '09' && Number(params.minutos) > 0;
    },
  },
  actions: {
    clearMessages: assign({ problem: undefined, notice: undefined }),
    forget: assign({
      answer: undefined,
      session: undefined,
      reason: undefined,
      enrolment: undefined,
      recoveryCodes: undefined,
    }),
    fail: assign({ problem: ({ event }) => problemOf((event as { error?: unknown }).error) }),
  },
}).createMachine({
  id: 'login',
  context: { username: '' },
  initial: 'credentials',
  states: {
    credentials: {
      on: {
        SUBMIT: {
          target: 'authenticating',
          actions: [
            'clearMessages',
            'forget',
            assign({ username: ({ event }) => event.username.trim().toLocaleUpperCase('es') }),
          ],
        },
        FORGOT: { target: 'forgot', actions: 'clearMessages' },
        DIRECTORY_SIGNED_IN: {
          target: 'signedInWithPassword',
          actions: [
            'clearMessages',
            assign({
              answer: ({ event }) => event.answer,
              username: ({ event }) => event.answer.username,
            }),
          ],
        },
        DIRECTORY_FAILED: {
          actions: ['forget', assign({ problem: ({ event }) => event.problem, notice: undefined })],
        },
      },
    },
    authenticating: {
      invoke: {
        src: 'authenticate',
        input: ({ context, event }) => ({
          username: context.username,
          password: event.type === 'SUBMIT' ? event.password : '',
        }),
        onDone: { target: 'signedInWithPassword', actions: assign({ answer: ({ event }) => event.output }) },
        onError: { target: 'credentials', actions: 'fail' },
      },
    },
    signedInWithPassword: {
      always: [
        { guard: 'needsAppCode', target: 'appCode' },
        { guard: 'needsAppEnrolment', target: 'offeringApp' },
        { guard: 'needsCode', target: 'code' },
        { target: 'checkPassword' },
      ],
    },
    appCode: {
      on: {
        SUBMIT_APP_CODE: { target: 'verifyingApp', actions: 'clearMessages' },
        BACK: { target: 'credentials', actions: ['clearMessages', 'forget'] },
      },
    },
    verifyingApp: {
      invoke: {
        src: 'validateAppCode',
        input: ({ context, event }) => ({
          username: context.username,
          code: event.type === 'SUBMIT_APP_CODE' ? event.code : '',
        }),
        onDone: { target: 'signedInWithPassword', actions: assign({ answer: ({ event }) => event.output }) },
        onError: [
          { guard: 'locked', target: 'credentials', actions: ['fail', 'forget'] },
          { target: 'appCode', actions: 'fail' },
        ],
      },
    },
    offeringApp: {
      invoke: {
        src: 'offerApp',
        input: ({ context }) => ({
          username: context.username,
          ticket: context.answer?.ticketAutenticador ?? '',
        }),
        onDone: { target: 'enrolApp', actions: assign({ enrolment: ({ event }) => event.output }) },
        onError: { target: 'credentials', actions: ['fail', 'forget'] },
      },
    },
    enrolApp: {
      on: {
        CONFIRM_APP: { target: 'confirmingApp', actions: 'clearMessages' },
        BACK: { target: 'credentials', actions: ['clearMessages', 'forget'] },
      },
    },
    confirmingApp: {
      invoke: {
        src: 'confirmApp',
        input: ({ context, event }) => ({
          username: context.username,
          ticket: context.answer?.ticketAutenticador ?? '',
          code: event.type === 'CONFIRM_APP' ? event.code : '',
        }),
        onDone: {
          target: 'recoveryCodes',
          actions: assign({
            answer: ({ event }) => event.output.answer,
            recoveryCodes: ({ event }) => event.output.codes,
            enrolment: undefined,
          }),
        },
        onError: [
          { guard: 'locked', target: 'credentials', actions: ['fail', 'forget'] },
          { target: 'enrolApp', actions: 'fail' },
        ],
      },
    },
    recoveryCodes: {
      on: {
        CONTINUE: {
          target: 'signedInWithPassword',
          actions: ['clearMessages', assign({ recoveryCodes: undefined })],
        },
      },
    },
    code: {
      on: {
        SUBMIT_CODE: { target: 'verifying', actions: 'clearMessages' },
        RESEND: { target: 'resending', actions: 'clearMessages' },
        BACK: { target: 'credentials', actions: ['clearMessages', 'forget'] },
      },
    },
    resending: {
      invoke: {
        src: 'resendCode',
        input: ({ context }) => ({ username: context.username }),
        onDone: { target: 'code', actions: assign({ notice: 'login.codeResent' }) },
        onError: { target: 'code', actions: 'fail' },
      },
    },
    verifying: {
      invoke: {
        src: 'validateCode',
        input: ({ context, event }) => ({
          username: context.username,
          code: event.type === 'SUBMIT_CODE' ? event.code : '',
        }),
        // On to the enrolment in the authenticator app when the setting requires one, else the password.
        onDone: { target: 'signedInWithPassword', actions: assign({ answer: ({ event }) => event.output }) },
        onError: [
          // Too many wrong codes lock the user: back to the start with the lock message.
          { guard: 'locked', target: 'credentials', actions: ['fail', 'forget'] },
          { target: 'code', actions: 'fail' },
        ],
      },
    },
    checkPassword: {
      always: [
        { guard: 'passwordExpired', target: 'changePassword', actions: assign({ reason: 'expired' }) },
        { guard: 'firstPassword', target: 'changePassword', actions: assign({ reason: 'first' }) },
        { target: 'profile' },
      ],
    },
    changePassword: {
      on: {
        CHANGE_PASSWORD: { target: 'changing', actions: 'clearMessages' },
        BACK: { target: 'credentials', actions: ['clearMessages', 'forget'] },
      },
    },
    changing: {
      invoke: {
        src: 'changePassword',
        input: ({ context, event }) => ({
          answer: context.answer as LoginAnswer,
          password: event.type === 'CHANGE_PASSWORD' ? event.password : '',
        }),
        onDone: [
          {
            guard: ({ event }) => event.output.id === 0,
            target: 'credentials',
            actions: ['forget', assign({ notice: 'password.changed' })],
          },
          { target: 'changePassword', actions: assign({ problem: { messageKey: 'password.mustDiffer' } }) },
        ],
        onError: { target: 'changePassword', actions: 'fail' },
      },
    },
    profile: {
      on: {
        SELECT: { target: 'selecting', actions: 'clearMessages' },
        BACK: { target: 'credentials', actions: ['clearMessages', 'forget'] },
      },
    },
    selecting: {
      invoke: {
        src: 'selectProfile',
        input: ({ context, event }) => ({
          answer: context.answer as LoginAnswer,
          idPerfil: event.type === 'SELECT' ? event.idPerfil : 0,
          idDivision: event.type === 'SELECT' ? event.idDivision : 0,
        }),
        onDone: { target: 'signedIn', actions: assign({ session: ({ event }) => event.output }) },
        onError: { target: 'profile', actions: 'fail' },
      },
    },
    forgot: {
      on: { BACK: { target: 'credentials', actions: 'clearMessages' } },
    },
    signedIn: { type: 'final' },
  },
  output: ({ context }) => ({
    answer: context.answer as LoginAnswer,
    session: context.session as SessionAnswer,
  }),
});

/** The expiry notice of spec section 4: when the password expires in 6 days or fewer. */
export function expiryNotice(
  days: number | null | undefined,
): { messageKey: string; params?: { days: number } } | undefined {
  if (days === null || days === undefined || days > 6) return undefined;
  return days <= 0
    ? { messageKey: 'login.expiresToday' }
    : { messageKey: 'login.expiresInDays', params: { days } };
}
