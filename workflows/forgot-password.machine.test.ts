import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { forgotPasswordMachine } from './forgot-password.machine.js';

const policy = { longitudClave: 10, nivelSeguridadClave: 'A' };
const refusal = (messageKey: string) => Object.assign(new Error(messageKey), { messageKey });

function start() {
  const calls: string[] = [];
  const actor = createActor(
    forgotPasswordMachine.provide({
      actors: {
        sendCode: fromPromise(async ({ input }) => {
          calls.push(`send ${input.username} ${input.email}`);
          if (input.email !== 'ana@minandes.com.pe') throw refusal('recovery.mismatch');
          return policy;
        }),
        checkCode: fromPromise(async ({ input }) => {
          calls.push(`check ${input.code}`);
          if (input.code !== '123456') throw refusal('login.messages.codeInvalid');
          return policy;
        }),
        savePassword: fromPromise(async ({ input }) => {
          calls.push(`save ${input.code} ${input.password}`);
          if (input.password === 'Weak') throw refusal('password.tooShort');
          if (input.password.toUpperCase().includes('ANA'))
            throw Object.assign(new Error('Los datos no son válidos'), {
              messageKey: 'api.errors.VALIDATION_FAILED',
              body: {
                messageKey: 'api.errors.VALIDATION_FAILED',
                errors: { Clave: { messageKey: 'password.containsUser', message: 'contiene el usuario' } },
              },
            });
          return { ...policy, id: input.password === 'Old#Password1' ? 2 : 0 };
        }),
      },
    }),
  ).start();
  return { actor, calls };
}

describe('forgot-password machine', () => {
  it('walks view 1 → 2 → 3 and back to 1 on success', async () => {
    const { actor, calls } = start();
    actor.send({ type: 'SEND', username: ' ana ', email: 'ana@minandes.com.pe' });
    const two = await waitFor(actor, (s) => s.matches('enterCode'));
    expect(two.context).toMatchObject({ username: 'ANA', longitudClave: 10 });
    actor.send({ type: 'VERIFY', code: '123456' });
    await waitFor(actor, (s) => s.matches('newPassword'));
    actor.send({ type: 'SAVE', password: 'Nueva#Clave12', confirmation: 'Nueva#Clave12' });
    const one = await waitFor(actor, (s) => s.matches('identify') && s.context.notice !== undefined);
    expect(one.context.notice).toBe('password.changed');
    expect(calls).toEqual(['send ANA ana@minandes.com.pe', 'check 123456', 'save 123456 Nueva#Clave12']);
  });

  it('stays on each view with its refusal', async () => {
    const { actor } = start();
    actor.send({ type: 'SEND', username: 'ana', email: 'otra@correo.com' });
    expect((await waitFor(actor, (s) => s.context.problem !== undefined)).context.problem?.messageKey).toBe(
      'recovery.mismatch',
    );
    expect(actor.getSnapshot().matches('identify')).toBe(true);

    actor.send({ type: 'SEND', username: 'ana', email: 'ana@minandes.com.pe' });
    await waitFor(actor, (s) => s.matches('enterCode'));
    actor.send({ type: 'VERIFY', code: '000000' });
    const code = await waitFor(actor, (s) => s.matches('enterCode') && s.context.problem !== undefined);
    expect(code.context.problem?.messageKey).toBe('login.messages.codeInvalid');

    actor.send({ type: 'VERIFY', code: '123456' });
    await waitFor(actor, (s) => s.matches('newPassword'));
    actor.send({ type: 'SAVE', password: 'Nueva#Clave12', confirmation: 'Otra#Clave12' });
    expect(actor.getSnapshot().context.problem?.messageKey).toBe('password.confirmationMismatch');
    actor.send({ type: 'SAVE', password: '', confirmation: '' });
    expect(actor.getSnapshot().context.problem?.messageKey).toBe('password.required');
    actor.send({ type: 'SAVE', password: 'Weak', confirmation: 'Weak' });
    expect(
      (await waitFor(actor, (s) => s.matches('newPassword') && s.context.problem !== undefined)).context
        .problem?.messageKey,
    ).toBe('password.tooShort');
    actor.send({ type: 'SAVE', password: 'Old#Password1', confirmation: 'Old#Password1' });
    expect(
      (await waitFor(actor, (s) => s.context.problem?.messageKey === 'password.mustDiffer')).matches(
        'newPassword',
      ),
    ).toBe(true);
  });

  it('shows in view 3 the server’s reason for refusing the new password', async () => {
    const { actor } = start();
    actor.send({ type: 'SEND', username: 'ana', email: 'ana@minandes.com.pe' });
    await waitFor(actor, (s) => s.matches('enterCode'));
    actor.send({ type: 'VERIFY', code: '123456' });
    await waitFor(actor, (s) => s.matches('newPassword'));
    actor.send({ type: 'SAVE', password: 'Ana#Clave2026', confirmation: 'Ana#Clave2026' });
    const three = await waitFor(actor, (s) => s.matches('newPassword') && s.context.problem !== undefined);
    expect(three.context.problem).toEqual({ messageKey: 'password.containsUser', field: true });
  });

  it('resends the code from view 2 and closes from view 1', async () => {
    const { actor, calls } = start();
    actor.send({ type: 'SEND', username: 'ana', email: 'ana@minandes.com.pe' });
    await waitFor(actor, (s) => s.matches('enterCode'));
    actor.send({ type: 'RESEND' });
    await waitFor(actor, (s) => s.matches('enterCode') && calls.length === 2);
    actor.send({ type: 'BACK' });
    await waitFor(actor, (s) => s.matches('identify'));
    actor.send({ type: 'BACK' });
    expect(actor.getSnapshot().status).toBe('done');
  });
});
