import { assign, fromPromise, setup } from 'xstate';
import { type LoginProblem, problemOf } from './login.machine.js';

export interface ForgotContext {
  username: string;
  email: string;
  code: string;
  /** The policy the new password must meet, as the server answers it. */
  longitudClave: number;
  nivelSeguridadClave: string;
  problem?: LoginProblem;
  notice?: string;
}

export type ForgotEvent =
  | { type: 'SEND'; username: string; email: string }
  | { type: 'VERIFY'; code: string }
  | { type: 'RESEND' }
  | { type: 'SAVE'; password: string; confirmation: string }
  | { type: 'BACK' };

interface Policy {
  longitudClave: number;
  nivelSeguridadClave: string;
}

/**
 * Forgot password in its three views (spec sections 2 and 4): user and e-mail, then the code
 * received, then the new password and its confirmation. View 1 goes to 2 when the code is sent,
 * 2 to 3 when the code is accepted, and 3 back to 1 on success. BACK leaves the flow.
 */
export const forgotPasswordMachine = setup({
  types: { context: {} as ForgotContext, events: {} as ForgotEvent },
  actors: {
    sendCode: fromPromise<Policy, { username: string; email: string }>(async () => {
      throw new Error('sendCode is supplied by the screen');
    }),
    checkCode: fromPromise<Policy, { username: string; code: string }>(async () => {
      throw new Error('checkCode is supplied by the screen');
    }),
    savePassword: fromPromise<Policy & { id: number }, { username: string; code: string; password: string }>(
      async () => {
        throw new Error('savePassword is supplied by the screen');
      },
    ),
  },
  actions: {
    clearMessages: assign({ problem: undefined, notice: undefined }),
    fail: assign({ problem: ({ event }) => problemOf((event as { error?: unknown }).error) }),
    policy: assign(({ event }) => {
      const output = (event as unknown as { output: Policy }).output;
      return { longitudClave: output.longitudClave, nivelSeguridadClave: output.nivelSeguridadClave };
    }),
  },
}).createMachine({
  id: 'forgotPassword',
  context: { username: '', email: '', code: '', longitudClave: 6, nivelSeguridadClave: 'A' },
  initial: 'identify',
  states: {
    identify: {
      on: {
        SEND: {
          target: 'sending',
          actions: [
            'clearMessages',
            assign({
              username: ({ event }) => event.username.trim().toLocaleUpperCase('es'),
              email: ({ event }) => event.email.trim(),
            }),
          ],
        },
        BACK: 'closed',
      },
    },
    sending: {
      invoke: {
        src: 'sendCode',
        input: ({ context }) => ({ username: context.username, email: context.email }),
        onDone: { target: 'enterCode', actions: 'policy' },
        onError: { target: 'identify', actions: 'fail' },
      },
    },
    enterCode: {
      on: {
        VERIFY: {
          target: 'checking',
          actions: ['clearMessages', assign({ code: ({ event }) => event.code.trim() })],
        },
        RESEND: { target: 'sending', actions: 'clearMessages' },
        BACK: { target: 'identify', actions: 'clearMessages' },
      },
    },
    checking: {
      invoke: {
        src: 'checkCode',
        input: ({ context }) => ({ username: context.username, code: context.code }),
        onDone: { target: 'newPassword', actions: 'policy' },
        onError: { target: 'enterCode', actions: 'fail' },
      },
    },
    newPassword: {
      on: {
        SAVE: [
          {
            guard: ({ event }) => event.password !== event.confirmation,
            actions: assign({ problem: { messageKey: 'password.confirmationMismatch' } }),
          },
          {
            guard: ({ event }) => !event.password,
            actions: assign({ problem: { messageKey: 'password.required' } }),
          },
          { target: 'saving', actions: 'clearMessages' },
        ],
        BACK: { target: 'enterCode', actions: 'clearMessages' },
      },
    },
    saving: {
      invoke: {
        src: 'savePassword',
        input: ({ context, event }) => ({
          username: context.username,
          code: context.code,
          password: event.type === 'SAVE' ? event.password : '',
        }),
        onDone: [
          {
            guard: ({ event }) => event.output.id === 0,
            target: 'identify',
            actions: assign({ notice: 'password.changed', code: '', email: '' }),
          },
          { target: 'newPassword', actions: assign({ problem: { messageKey: 'password.mustDiffer' } }) },
        ],
        onError: { target: 'newPassword', actions: 'fail' },
      },
    },
    closed: { type: 'final' },
  },
});
