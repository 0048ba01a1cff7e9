import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, SimulatedClock, waitFor } from 'xstate';
import { screenLockMachine } from './screen-lock.machine.js';

function start(unlock: (password: string) => Promise<unknown> = async () => ({})) {
  const calls: string[] = [];
  const clock = new SimulatedClock();
  const actor = createActor(
    screenLockMachine.provide({
      actors: {
        unlock: fromPromise<unknown, { password: string }>(async ({ input }) => {
          calls.push(`unlock ${input.password}`);
          return unlock(input.password);
        }),
        logout: fromPromise<unknown, void>(async () => {
          calls.push('logout');
          return {};
        }),
      },
    }),
    { clock },
  ).start();
  const ticks = (n: number) => {
    for (let i = 0; i < n; i++) actor.send({ type: 'TICK' });
  };
  return { actor, calls, clock, ticks };
}

describe('screen-lock machine', () => {
  it('locks after 400 idle seconds by default, not a second before', () => {
    const { actor, ticks } = start();
    actor.send({ type: 'START' });
    ticks(399);
    expect(actor.getSnapshot().matches('active')).toBe(true);
    ticks(1);
    expect(actor.getSnapshot().matches('locked')).toBe(true);
  });

  it('counts from zero again on any activity', () => {
    const { actor, ticks } = start();
    actor.send({ type: 'START', timeout: 10 });
    ticks(9);
    actor.send({ type: 'ACTIVITY' });
    ticks(9);
    expect(actor.getSnapshot().matches('active')).toBe(true);
    expect(actor.getSnapshot().context.idle).toBe(9);
    ticks(1);
    expect(actor.getSnapshot().matches('locked')).toBe(true);
  });

  it('unlocks with the right password and shows the error of a wrong one for 5 seconds', async () => {
    const { actor, calls, clock, ticks } = start(async (password) => {
      if (password !== 'Acredita#2026')
        throw Object.assign(new Error('x'), { messageKey: 'login.messages.01' });
      return {};
    });
    actor.send({ type: 'START', timeout: 3 });
    ticks(3);
    actor.send({ type: 'UNLOCK', password: 'mal' });
    const failed = await waitFor(actor, (s) => s.matches('lockedWithError'));
    expect(failed.context.problem?.messageKey).toBe('login.messages.01');
    clock.increment(4999);
    expect(actor.getSnapshot().matches('lockedWithError')).toBe(true);
    clock.increment(1);
    expect(actor.getSnapshot().matches('locked')).toBe(true);
    expect(actor.getSnapshot().context.problem).toBeUndefined();
    actor.send({ type: 'UNLOCK', password: 'Acredita#2026' });
    const active = await waitFor(actor, (s) => s.matches('active'));
    expect(active.context.idle).toBe(0);
    expect(calls).toEqual(['unlock mal', 'unlock Acredita#2026']);
  });

  it('signs out from the lock screen with back-to-login', async () => {
    const { actor, calls, ticks } = start();
    actor.send({ type: 'START', timeout: 1 });
    ticks(1);
    actor.send({ type: 'BACK_TO_LOGIN' });
    await waitFor(actor, (s) => s.matches('off'));
    expect(calls).toEqual(['logout']);
  });

  it('locks when the server asks for it', () => {
    const { actor } = start();
    actor.send({ type: 'START' });
    actor.send({ type: 'LOCK' });
    expect(actor.getSnapshot().matches('locked')).toBe(true);
  });

  it('shows the splash on a lost connection or an ended session, counts 5 seconds down, then signs out', async () => {
    const { actor, calls, ticks } = start();
    actor.send({ type: 'START' });
    actor.send({ type: 'CONNECTION_LOST' });
    expect(actor.getSnapshot().matches('splash')).toBe(true);
    ticks(4);
    expect(actor.getSnapshot().context.countdown).toBe(1);
    ticks(1);
    await waitFor(actor, (s) => s.matches('off'));
    expect(calls).toEqual(['logout']);

    actor.send({ type: 'START' });
    actor.send({ type: 'SESSION_ENDED' });
    expect(actor.getSnapshot().context.countdown).toBe(5);
  });

  it('closing the splash clears the lock', () => {
    const { actor, ticks } = start();
    actor.send({ type: 'START', timeout: 2 });
    ticks(1);
    actor.send({ type: 'CONNECTION_LOST' });
    ticks(2);
    actor.send({ type: 'CLOSE_SPLASH' });
    expect(actor.getSnapshot().matches('active')).toBe(true);
    expect(actor.getSnapshot().context.idle).toBe(0);
  });

  it('ignores the clock and activity while signed out', () => {
    const { actor, ticks } = start();
    ticks(1000);
    actor.send({ type: 'UNLOCK', password: 'x' });
    expect(actor.getSnapshot().matches('off')).toBe(true);
  });
});
