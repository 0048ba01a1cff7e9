import { assign, fromPromise, setup } from 'xstate';
import { type LoginProblem, problemOf } from './login.machine.js';

export interface ScreenLockContext {
  /** Seconds without activity so far. */
  idle: number;
  /** Seconds without activity that lock the screen (400 in the spec; the user's login setting may say otherwise). */
  timeout: number;
  /** Seconds the splash counts down before signing out. */
  countdown: number;
  problem?: LoginProblem;
}

export type ScreenLockEvent =
  | { type: 'START'; timeout?: number }
  | { type: 'TICK' }
  | { type: 'ACTIVITY' }
  | { type: 'LOCK' }
  | { type: 'UNLOCK'; password: string }
  | { type: 'BACK_TO_LOGIN' }
  | { type: 'CONNECTION_LOST' }
  | { type: 'SESSION_ENDED' }
  | { type: 'CLOSE_SPLASH' }
  | { type: 'LOGOUT' };

export const INACTIVITY_TIMEOUT_SECONDS = 400;
export const SPLASH_SECONDS = 5;

/**
 * Screen lock and inactivity (spec section 4). The caller sends TICK once a second and ACTIVITY
 * on any mouse move, hover or scroll; when the idle seconds reach the timeout the screen locks and
 * asks for the password. The server can ask for the lock too (LOCK). The splash warns, counts five
 * seconds down and signs out; closing it clears the lock. Back-to-login signs out.
 */
export const screenLockMachine = setup({
  types: { context: {} as ScreenLockContext, events: {} as ScreenLockEvent },
  actors: {
    unlock: fromPromise<unknown, { password: string }>(async () => {
      throw new Error('unlock is supplied by the shell');
    }),
    logout: fromPromise<unknown, void>(async () => {
      throw new Error('logout is supplied by the shell');
    }),
  },
  delays: {
    /** The lock screen's error banner stays 5 seconds (spec section 9). */
    errorBanner: 5000,
  },
  guards: {
    timedOut: ({ context }) => context.idle + 1 >= context.timeout,
    countedDown: ({ context }) => context.countdown - 1 <= 0,
  },
  actions: {
    resetIdle: assign({ idle: 0 }),
  },
}).createMachine({
  id: 'screenLock',
  context: { idle: 0, timeout: INACTIVITY_TIMEOUT_SECONDS, countdown: SPLASH_SECONDS },
  initial: 'off',
  states: {
    off: {
      on: {
        START: {
          target: 'active',
          actions: assign({ idle: 0, timeout: ({ event }) => event.timeout ?? INACTIVITY_TIMEOUT_SECONDS }),
        },
      },
    },
    active: {
      on: {
        TICK: [
          { guard: 'timedOut', target: 'locked', actions: 'resetIdle' },
          { actions: assign({ idle: ({ context }) => context.idle + 1 }) },
        ],
        ACTIVITY: { actions: 'resetIdle' },
        LOCK: 'locked',
        CONNECTION_LOST: 'splash',
        SESSION_ENDED: 'splash',
        LOGOUT: 'loggingOut',
      },
    },
    locked: {
      entry: assign({ problem: undefined }),
      on: {
        UNLOCK: 'unlocking',
        BACK_TO_LOGIN: 'loggingOut',
        LOGOUT: 'loggingOut',
        SESSION_ENDED: 'splash',
      },
    },
    unlocking: {
      invoke: {
        src: 'unlock',
        input: ({ event }) => ({ password: event.type === 'UNLOCK' ? event.password : '' }),
        onDone: { target: 'active', actions: 'resetIdle' },
        onError: {
          target: 'lockedWithError',
          actions: assign({ problem: ({ event }) => problemOf(event.error) }),
        },
      },
    },
    lockedWithError: {
      after: { errorBanner: { target: 'locked' } },
      on: {
        UNLOCK: 'unlocking',
        BACK_TO_LOGIN: 'loggingOut',
        LOGOUT: 'loggingOut',
        SESSION_ENDED: 'splash',
      },
    },
    splash: {
      entry: assign({ countdown: SPLASH_SECONDS }),
      on: {
        TICK: [
          { guard: 'countedDown', target: 'loggingOut', actions: assign({ countdown: 0 }) },
          { actions: assign({ countdown: ({ context }) => context.countdown - 1 }) },
        ],
        CLOSE_SPLASH: { target: 'active', actions: 'resetIdle' },
        LOGOUT: 'loggingOut',
      },
    },
    loggingOut: {
      invoke: { src: 'logout', onDone: 'off', onError: 'off' },
    },
  },
});
