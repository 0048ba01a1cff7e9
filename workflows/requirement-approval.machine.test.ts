import { describe, expect, it } from 'vitest';
import {
  type LineEvent,
  type LineFacts,
  type LineStatus,
  requirementApprovalMachine,
} from './requirement-approval.machine.js';

const EVENTS: LineEvent['type'][] = ['APPROVE', 'REJECT', 'OBSERVE', 'RESET', 'CORRECT'];
const facts = (over: Partial<LineFacts> = {}): LineFacts => ({
  requirementType: 'S',
  approvable: true,
  requesterPending: false,
  ...over,
});
const offered = (status: LineStatus, over: Partial<LineFacts> = {}) => {
  const snapshot = requirementApprovalMachine.resolveState({ value: status, context: facts(over) });
  return EVENTS.filter((type) => snapshot.can({ type }));
};

describe('requirement approval machine', () => {
  it('evaluates a requester-type line while pending, then keeps it read-only but for a correction', () => {
    expect(offered('P')).toEqual(['APPROVE', 'REJECT', 'OBSERVE']);
    expect(offered('A')).toEqual([]);
    expect(offered('R')).toEqual([]);
    expect(offered('O')).toEqual(['CORRECT']);
  });

  it('offers an authoriser-type line approved, pending and rejected, never observed', () => {
    const a = { requirementType: 'A' as const };
    expect(offered('P', a)).toEqual(['APPROVE', 'REJECT']);
    expect(offered('A', a)).toEqual(['REJECT', 'RESET']);
    expect(offered('R', a)).toEqual(['APPROVE', 'RESET']);
  });

  it('does not approve an authoriser-type line while a requester-type one is not approved', () => {
    const a = { requirementType: 'A' as const, requesterPending: true };
    expect(offered('P', a)).toEqual(['REJECT']);
    expect(offered('R', a)).toEqual(['RESET']);
  });

  it('approves a line its source proves from pending or observed, whoever provides it, never a rejected one', () => {
    const proves = (status: LineStatus, over: Partial<LineFacts> = {}) =>
      requirementApprovalMachine.resolveState({ value: status, context: facts(over) }).can({ type: 'PROVE' });
    for (const over of [{}, { requirementType: 'A' as const, requesterPending: true }]) {
      expect(proves('P', over)).toBe(true);
      expect(proves('R', over)).toBe(false);
      expect(proves('A', over)).toBe(false);
    }
    expect(proves('O')).toBe(true);
    expect(proves('P', { approvable: false })).toBe(false);
  });

  it('changes nothing of a line not flagged for approval', () => {
    for (const status of ['P', 'A', 'R', 'O'] as const) {
      expect(offered(status, { approvable: false }), status).toEqual([]);
      expect(offered(status, { approvable: false, requirementType: 'A' }), status).toEqual([]);
    }
  });
});
