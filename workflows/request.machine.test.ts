import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import {
  type RequestEvent,
  type RequestFacts,
  type RequestStatus,
  requestMachine,
} from './request.machine.js';

const ready: RequestFacts = {
  complete: true,
  datesValid: true,
  linesPending: 0,
  linesObserved: 0,
  linesRejected: 0,
};
const at = (status: RequestStatus, facts: Partial<RequestFacts> = {}) =>
  requestMachine.resolveState({ value: status, context: { ...ready, ...facts } });
const allowed = (status: RequestStatus, event: RequestEvent, facts: Partial<RequestFacts> = {}) =>
  at(status, facts).can(event);

const EVENTS: RequestEvent[] = [
  { type: 'UPDATE' },
  { type: 'SEND' },
  { type: 'OBSERVE', reason: 'FALTA PÁGINA 2' },
  { type: 'REJECT', reason: 'DOCUMENTO ILEGIBLE' },
  { type: 'APPROVE' },
  { type: 'RETURN', reason: 'PERFIL EQUIVOCADO' },
  { type: 'DELETE' },
];

describe('request machine', () => {
  it('starts incomplete', () => {
    const actor = createActor(requestMachine, { input: ready }).start();
    expect(actor.getSnapshot().value).toBe('I');
  });

  it('takes exactly these events in each status, when every fact holds', () => {
    const table: Record<RequestStatus, string[]> = {
      I: ['UPDATE', 'SEND', 'DELETE'],
      P: ['OBSERVE', 'REJECT', 'APPROVE', 'RETURN'],
      O: ['UPDATE', 'SEND'],
      R: [],
      A: [],
    };
    for (const [status, events] of Object.entries(table) as Array<[RequestStatus, string[]]>)
      expect(
        EVENTS.filter((e) => allowed(status, e)).map((e) => e.type),
        status,
      ).toEqual(events);
  });

  it('walks I → P → O → P → A, and I → P → R, I → P → I, I → deleted', () => {
    const walk = (events: RequestEvent[]) => {
      const actor = createActor(requestMachine, { input: ready }).start();
      for (const event of events) actor.send(event);
      return actor.getSnapshot();
    };
    expect(
      walk([{ type: 'SEND' }, { type: 'OBSERVE', reason: 'X' }, { type: 'SEND' }, { type: 'APPROVE' }]).value,
    ).toBe('A');
    expect(walk([{ type: 'SEND' }, { type: 'REJECT', reason: 'X' }]).value).toBe('R');
    expect(walk([{ type: 'SEND' }, { type: 'RETURN', reason: 'X' }]).value).toBe('I');
    expect(walk([{ type: 'DELETE' }]).status).toBe('done');
  });

  it('refuses to send what is incomplete, with dates out of bounds, or still observed', () => {
    expect(allowed('I', { type: 'SEND' }, { complete: false })).toBe(false);
    expect(allowed('I', { type: 'SEND' }, { datesValid: false })).toBe(false);
    expect(allowed('O', { type: 'SEND' }, { linesObserved: 1 })).toBe(false);
    expect(allowed('O', { type: 'SEND' })).toBe(true);
  });

  it('refuses a sent request’s edit or delete, and an answered one’s', () => {
    for (const status of ['P', 'R', 'A'] as const) {
      expect(allowed(status, { type: 'UPDATE' }), status).toBe(false);
      expect(allowed(status, { type: 'DELETE' }), status).toBe(false);
    }
    expect(allowed('O', { type: 'DELETE' })).toBe(false);
  });

  it('blocks approval while any line it evaluates is pending, observed or rejected', () => {
    expect(allowed('P', { type: 'APPROVE' }, { linesPending: 1 })).toBe(false);
    expect(allowed('P', { type: 'APPROVE' }, { linesObserved: 1 })).toBe(false);
    expect(allowed('P', { type: 'APPROVE' }, { linesRejected: 1 })).toBe(false);
  });

  it('observes with an observed line or a reason; rejects and returns only with a reason', () => {
    expect(allowed('P', { type: 'OBSERVE' })).toBe(false);
    expect(allowed('P', { type: 'OBSERVE' }, { linesObserved: 2 })).toBe(true);
    expect(allowed('P', { type: 'OBSERVE', reason: '  ' })).toBe(false);
    expect(allowed('P', { type: 'REJECT', reason: '' })).toBe(false);
    expect(allowed('P', { type: 'RETURN', reason: '' })).toBe(false);
  });
});
