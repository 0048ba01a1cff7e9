import { describe, expect, it } from 'vitest';
import { type Actor, createActor, fromPromise, waitFor } from 'xstate';
import {
  expiryNotice,
  type LoginAnswer,
  loginMachine,
  nextLoginStep,
  type SessionAnswer,
} from './login.machine.js';

const answer = (overrides: Partial<LoginAnswer> = {}): LoginAnswer => ({
  username: 'ADMIN',
  fullName: 'PATRICIA SALAZAR VEGA',
  accessToken: 'login-token',
  refreshToken: 'refresh',
  dobleAutenticacion: 'N',
  cambiarClaveCaducada: 'N',
  primeraClaveCambiada: 'S',
  longitudClave: 8,
  nivelSeguridadClave: 'A',
  diasCaducidadClave: 30,
  perfil: [{ IdPerfil: 1, Perfil: 'ADMINISTRADOR' }],
  division: [{ IdPerfil: 1, IdDivision: 7, Division: 'UNIDAD', Cliente: 'MINERA' }],
  ...overrides,
});
const session: SessionAnswer = { accessToken: 'session-token', refreshToken: 'r2', perfil: { IdPerfil: 1 } };
const refusal = (messageKey: string, params?: Record<string, string | number>) =>
  Object.assign(new Error(messageKey), { messageKey, params });

interface Server {
  authenticate?: (input: { username: string; password: string }) => Promise<LoginAnswer>;
  validateCode?: (input: { username: string; code: string }) => Promise<LoginAnswer>;
  resendCode?: () => Promise<unknown>;
  validateAppCode?: (input: { username: string; code: string }) => Promise<LoginAnswer>;
  offerApp?: (input: { username: string; ticket: string }) => Promise<{ secreto: string; uri: string }>;
  confirmApp?: (input: {
    username: string;
    ticket: string;
    code: string;
  }) => Promise<{ answer: LoginAnswer; codes: string[] }>;
  changePassword?: (input: { answer: LoginAnswer; password: string }) => Promise<{ id: number }>;
  selectProfile?: (input: {
    answer: LoginAnswer;
    idPerfil: number;
    idDivision: number;
  }) => Promise<SessionAnswer>;
}

function start(server: Server) {
  const calls: string[] = [];
  const log = <I, O>(name: string, fn?: (input: I) => Promise<O>) =>
    fromPromise<O, I>(async ({ input }) => {
      calls.push(name);
      if (!fn) throw new Error(`${name} not expected`);
      return fn(input);
    });
  const actor = createActor(
    loginMachine.provide({
      actors: {
        authenticate: log('authenticate', server.authenticate),
        validateCode: log('validateCode', server.validateCode),
        resendCode: log('resendCode', server.resendCode),
        validateAppCode: log('validateAppCode', server.validateAppCode),
        offerApp: log('offerApp', server.offerApp),
        confirmApp: log('confirmApp', server.confirmApp),
        changePassword: log('changePassword', server.changePassword),
        selectProfile: log('selectProfile', server.selectProfile),
      },
    }),
  ).start();
  return { actor, calls };
}

type Step = Parameters<ReturnType<Actor<typeof loginMachine>['getSnapshot']>['matches']>[0];
const settle = (actor: Actor<typeof loginMachine>, state: Step) =>
  waitFor(actor, (s) => s.matches(state), { timeout: 1000 });

describe('login machine', () => {
  it('credentials → profile → signed in, upper-casing the user name', async () => {
    let seen = '';
    const { actor, calls } = start({
      authenticate: async ({ username }) => {
        seen = username;
        return answer();
      },
      selectProfile: async () => session,
    });
    actor.send({ type: 'SUBMIT', username: ' admin ', password: 'x' });
    await settle(actor, 'profile');
    expect(seen).toBe('ADMIN');
    actor.send({ type: 'SELECT', idPerfil: 1, idDivision: 7 });
    const done = await settle(actor, 'signedIn');
    expect(done.status).toBe('done');
    expect(done.output?.session.accessToken).toBe('session-token');
    expect(calls).toEqual(['authenticate', 'selectProfile']);
  });

  it('stays on the credentials with the server’s refusal (code and minutes)', async () => {
    const { actor } = start({
      authenticate: async () => Promise.reject(refusal('login.messages.04', { codigo: '04', minutos: 15 })),
    });
    actor.send({ type: 'SUBMIT', username: 'admin', password: 'bad' });
    const s = await waitFor(actor, (x) => x.matches('credentials') && x.context.problem !== undefined);
    expect(s.context.problem).toEqual({
      messageKey: 'login.messages.04',
      params: { codigo: '04', minutos: 15 },
    });
  });

  it('reads a failure without an answer as a connection error', async () => {
    const { actor } = start({ authenticate: async () => Promise.reject(new TypeError('fetch failed')) });
    actor.send({ type: 'SUBMIT', username: 'admin', password: 'x' });
    const s = await waitFor(actor, (x) => x.context.problem !== undefined);
    expect(s.context.problem?.messageKey).toBe('login.messages.connection');
  });

  it('reads a server failure without a sign-in code of its own as code 00, the server error', async () => {
    for (const failure of [
      // The server's generic failure, and a failure answered by something other than the API.
      Object.assign(new Error('Unexpected server error.'), {
        status: 500,
        messageKey: 'api.errors.INTERNAL',
      }),
      Object.assign(new Error('Bad Gateway'), { status: 502, messageKey: undefined }),
    ]) {
      const { actor } = start({ authenticate: async () => Promise.reject(failure) });
      actor.send({ type: 'SUBMIT', username: 'admin', password: 'x' });
      const s = await waitFor(actor, (x) => x.context.problem !== undefined);
      expect(s.context.problem).toEqual({ messageKey: 'login.messages.00', params: { codigo: '00' } });
    }
  });

  it('asks for the code when double authentication is S, resends it, refuses a wrong one, accepts the right one', async () => {
    const { actor, calls } = start({
      authenticate: async () => answer({ dobleAutenticacion: 'S', accessToken: '' }),
      resendCode: async () => ({}),
      validateCode: async ({ code }) =>
        code === '1234'
          ? answer({ dobleAutenticacion: 'S' })
          : Promise.reject(refusal('login.messages.codeInvalid')),
      selectProfile: async () => session,
    });
    actor.send({ type: 'SUBMIT', username: 'supervisor', password: 'x' });
    await settle(actor, 'code');
    actor.send({ type: 'RESEND' });
    expect(
      (await waitFor(actor, (s) => s.matches('code') && s.context.notice !== undefined)).context.notice,
    ).toBe('login.codeResent');
    actor.send({ type: 'SUBMIT_CODE', code: '0000' });
    expect(
      (await waitFor(actor, (s) => s.matches('code') && s.context.problem !== undefined)).context.problem
        ?.messageKey,
    ).toBe('login.messages.codeInvalid');
    actor.send({ type: 'SUBMIT_CODE', code: '1234' });
    await settle(actor, 'profile');
    expect(calls).toEqual(['authenticate', 'resendCode', 'validateCode', 'validateCode']);
  });

  it('goes back to the credentials when wrong codes lock the user', async () => {
    const { actor } = start({
      authenticate: async () => answer({ dobleAutenticacion: 'S', accessToken: '' }),
      validateCode: async () => Promise.reject(refusal('login.messages.09', { codigo: '09', minutos: 30 })),
    });
    actor.send({ type: 'SUBMIT', username: 'supervisor', password: 'x' });
    await settle(actor, 'code');
    actor.send({ type: 'SUBMIT_CODE', code: '9999' });
    const s = await waitFor(actor, (x) => x.matches('credentials') && x.context.problem !== undefined);
    expect(s.context.problem?.params).toEqual({ codigo: '09', minutos: 30 });
    expect(s.context.answer).toBeUndefined();
  });

  it.each([
    ['expired', { cambiarClaveCaducada: 'S' as const }],
    ['first', { primeraClaveCambiada: 'N' as const }],
  ])(
    'forces a password change when it is %s, then returns to the credentials forgetting the session',
    async (reason, overrides) => {
      const { actor } = start({
        authenticate: async () => answer(overrides),
        changePassword: async ({ password }) => ({ id: password === 'Reused#1' ? 2 : 0 }),
      });
      actor.send({ type: 'SUBMIT', username: 'nuevo', password: 'x' });
      const s = await settle(actor, 'changePassword');
      expect(s.context.reason).toBe(reason);
      actor.send({ type: 'CHANGE_PASSWORD', password: 'Reused#1' });
      expect(
        (await waitFor(actor, (x) => x.matches('changePassword') && x.context.problem !== undefined)).context
          .problem?.messageKey,
      ).toBe('password.mustDiffer');
      actor.send({ type: 'CHANGE_PASSWORD', password: 'Nueva#Clave9' });
      const back = await waitFor(actor, (x) => x.matches('credentials') && x.context.notice !== undefined);
      expect(back.context.notice).toBe('password.changed');
      expect(back.context.answer).toBeUndefined();
    },
  );

  it('shows a refused password change on the same step', async () => {
    const { actor } = start({
      authenticate: async () => answer({ primeraClaveCambiada: 'N' }),
      changePassword: async () => Promise.reject(refusal('password.needsSymbol')),
    });
    actor.send({ type: 'SUBMIT', username: 'nuevo', password: 'x' });
    await settle(actor, 'changePassword');
    actor.send({ type: 'CHANGE_PASSWORD', password: 'Sinsimbolo9' });
    const s = await waitFor(actor, (x) => x.matches('changePassword') && x.context.problem !== undefined);
    expect(s.context.problem?.messageKey).toBe('password.needsSymbol');
  });

  it('shows the server’s reason for refusing the new password, not only that the data are invalid', async () => {
    const invalid = Object.assign(new Error('Los datos no son válidos'), {
      messageKey: 'api.errors.VALIDATION_FAILED',
      body: {
        messageKey: 'api.errors.VALIDATION_FAILED',
        errors: {
          Clave: {
            messageKey: 'password.containsUser',
            message: 'La clave no debe contener el nombre de usuario',
          },
        },
      },
    });
    const { actor } = start({
      authenticate: async () => answer({ primeraClaveCambiada: 'N' }),
      changePassword: async () => Promise.reject(invalid),
    });
    actor.send({ type: 'SUBMIT', username: 'admin', password: 'x' });
    await settle(actor, 'changePassword');
    actor.send({ type: 'CHANGE_PASSWORD', password: 'Admin#2026x' });
    const s = await waitFor(actor, (x) => x.matches('changePassword') && x.context.problem !== undefined);
    expect(s.context.problem).toEqual({ messageKey: 'password.containsUser', field: true });
  });

  it('changes the password after the code when both apply', async () => {
    const { actor } = start({
      authenticate: async () => answer({ dobleAutenticacion: 'S', accessToken: '' }),
      validateCode: async () => answer({ dobleAutenticacion: 'S', cambiarClaveCaducada: 'S' }),
    });
    actor.send({ type: 'SUBMIT', username: 'supervisor', password: 'x' });
    await settle(actor, 'code');
    actor.send({ type: 'SUBMIT_CODE', code: '1234' });
    await settle(actor, 'changePassword');
  });

  it('keeps the profile step on a refused choice, and goes back to the credentials on BACK', async () => {
    const { actor } = start({
      authenticate: async () => answer(),
      selectProfile: async () => Promise.reject(refusal('api.errors.FORBIDDEN')),
    });
    actor.send({ type: 'SUBMIT', username: 'admin', password: 'x' });
    await settle(actor, 'profile');
    actor.send({ type: 'SELECT', idPerfil: 9, idDivision: 9 });
    expect(
      (await waitFor(actor, (x) => x.matches('profile') && x.context.problem !== undefined)).context.problem
        ?.messageKey,
    ).toBe('api.errors.FORBIDDEN');
    actor.send({ type: 'BACK' });
    expect((await settle(actor, 'credentials')).context.answer).toBeUndefined();
  });

  it('opens and closes the forgotten-password views from the credentials', async () => {
    const { actor } = start({});
    actor.send({ type: 'FORGOT' });
    await settle(actor, 'forgot');
    actor.send({ type: 'BACK' });
    await settle(actor, 'credentials');
  });

  it('refuses events a step does not take', async () => {
    const { actor } = start({});
    actor.send({ type: 'SELECT', idPerfil: 1, idDivision: 1 });
    actor.send({ type: 'SUBMIT_CODE', code: '1234' });
    actor.send({ type: 'CHANGE_PASSWORD', password: 'x' });
    expect(actor.getSnapshot().matches('credentials')).toBe(true);
  });

  it('asks for the authenticator app’s code instead of the e-mail code, refuses a wrong one, accepts the right one', async () => {
    const { actor, calls } = start({
      authenticate: async () => answer({ autenticadorApp: 'S', accessToken: '' }),
      validateAppCode: async ({ code, username }) =>
        code === '123456' && username === 'SUPERVISOR'
          ? answer()
          : Promise.reject(refusal('login.totp.invalid', { codigo: '08', minutos: 0 })),
      selectProfile: async () => session,
    });
    actor.send({ type: 'SUBMIT', username: 'supervisor', password: 'x' });
    await settle(actor, 'appCode');
    actor.send({ type: 'SUBMIT_APP_CODE', code: '000000' });
    const wrong = await waitFor(actor, (x) => x.matches('appCode') && x.context.problem !== undefined);
    expect(wrong.context.problem?.messageKey).toBe('login.totp.invalid');
    actor.send({ type: 'SUBMIT_APP_CODE', code: '123456' });
    await settle(actor, 'profile');
    expect(calls).toEqual(['authenticate', 'validateAppCode', 'validateAppCode']);
  });

  it('goes back to the credentials with the lock message when the app’s codes lock the user', async () => {
    const { actor } = start({
      authenticate: async () => answer({ autenticadorApp: 'S', accessToken: '' }),
      validateAppCode: async () =>
        Promise.reject(refusal('login.messages.09', { codigo: '09', minutos: 15 })),
    });
    actor.send({ type: 'SUBMIT', username: 'supervisor', password: 'x' });
    await settle(actor, 'appCode');
    actor.send({ type: 'SUBMIT_APP_CODE', code: '000000' });
    const s = await waitFor(actor, (x) => x.matches('credentials') && x.context.problem !== undefined);
    expect(s.context.problem?.messageKey).toBe('login.messages.09');
    expect(s.context.answer).toBeUndefined();
  });

  it('enrols in the authenticator app when the setting requires it: the secret, a code, the recovery codes once, then on', async () => {
    const tickets: string[] = [];
    const { actor, calls } = start({
      authenticate: async () =>
        answer({ accessToken: '', enrolarAutenticador: 'S', ticketAutenticador: 'ticket-1' }),
      offerApp: async ({ ticket }) => {
        tickets.push(ticket);
        return { secreto: 'JBSWY3DPEHPK3PXP', uri: 'otpauth://totp/x' };
      },
      confirmApp: async ({ code, ticket }) => {
        tickets.push(ticket);
        return code === '654321'
          ? { answer: answer(), codes: ['AAAAA-BBBBB'] }
          : Promise.reject(refusal('totp.confirmInvalid'));
      },
      selectProfile: async () => session,
    });
    actor.send({ type: 'SUBMIT', username: 'admin', password: 'x' });
    const offered = await settle(actor, 'enrolApp');
    expect(offered.context.enrolment?.secreto).toBe('JBSWY3DPEHPK3PXP');
    actor.send({ type: 'CONFIRM_APP', code: '111111' });
    const wrong = await waitFor(actor, (x) => x.matches('enrolApp') && x.context.problem !== undefined);
    expect(wrong.context.problem?.messageKey).toBe('totp.confirmInvalid');
    // The same secret stays on the screen: nothing is offered again.
    expect(wrong.context.enrolment?.secreto).toBe('JBSWY3DPEHPK3PXP');
    actor.send({ type: 'CONFIRM_APP', code: '654321' });
    const shown = await settle(actor, 'recoveryCodes');
    expect(shown.context.recoveryCodes).toEqual(['AAAAA-BBBBB']);
    actor.send({ type: 'CONTINUE' });
    const profile = await settle(actor, 'profile');
    expect(profile.context.recoveryCodes).toBeUndefined();
    expect(tickets).toEqual(['ticket-1', 'ticket-1', 'ticket-1']);
    expect(calls).toEqual(['authenticate', 'offerApp', 'confirmApp', 'confirmApp']);
  });

  it('goes from the e-mail code to the enrolment the setting requires', async () => {
    const { actor } = start({
      authenticate: async () => answer({ dobleAutenticacion: 'S', accessToken: '' }),
      validateCode: async () =>
        answer({
          dobleAutenticacion: 'S',
          accessToken: '',
          enrolarAutenticador: 'S',
          ticketAutenticador: 't',
        }),
      offerApp: async () => ({ secreto: 'S', uri: 'otpauth://totp/x' }),
    });
    actor.send({ type: 'SUBMIT', username: 'admin', password: 'x' });
    await settle(actor, 'code');
    actor.send({ type: 'SUBMIT_CODE', code: '1234' });
    await settle(actor, 'enrolApp');
  });

  it('goes, for every answer, to the step nextLoginStep names (the server asks the same function)', async () => {
    for (const accessToken of ['', 'login-token'])
      for (const dobleAutenticacion of ['S', 'N'] as const)
        for (const autenticadorApp of ['S', 'N'] as const)
          for (const enrolarAutenticador of ['S', 'N'] as const)
            for (const cambiarClaveCaducada of ['S', 'N'] as const)
              for (const primeraClaveCambiada of ['S', 'N'] as const) {
                const given = answer({
                  accessToken,
                  dobleAutenticacion,
                  autenticadorApp,
                  enrolarAutenticador,
                  cambiarClaveCaducada,
                  primeraClaveCambiada,
                });
                const { actor } = start({
                  authenticate: async () => given,
                  offerApp: async () => ({ secreto: 'S', uri: 'otpauth://totp/x' }),
                });
                actor.send({ type: 'SUBMIT', username: 'admin', password: 'x' });
                const expected = nextLoginStep(given);
                await settle(actor, expected);
                expect(actor.getSnapshot().value, JSON.stringify(given)).toBe(expected);
              }
    expect(nextLoginStep(answer({ accessToken: '', dobleAutenticacion: 'S' }))).toBe('code');
    expect(nextLoginStep(answer({ accessToken: '', dobleAutenticacion: 'S', autenticadorApp: 'S' }))).toBe(
      'appCode',
    );
    expect(
      nextLoginStep(answer({ accessToken: '', dobleAutenticacion: 'S', enrolarAutenticador: 'S' })),
    ).toBe('enrolApp');
    expect(nextLoginStep(answer({ cambiarClaveCaducada: 'S' }))).toBe('changePassword');
    expect(nextLoginStep(answer({ primeraClaveCambiada: 'N' }))).toBe('changePassword');
    expect(nextLoginStep(answer())).toBe('profile');
  });

  it('words the password-expiry notice at 6 days or fewer', () => {
    expect(expiryNotice(30)).toBeUndefined();
    expect(expiryNotice(null)).toBeUndefined();
    expect(expiryNotice(6)).toEqual({ messageKey: 'login.expiresInDays', params: { days: 6 } });
    expect(expiryNotice(0)).toEqual({ messageKey: 'login.expiresToday' });
  });
});
