import { setup } from 'xstate';

/** A line's evaluation (spec section 4, per-requirement approval): pending, approved, rejected, observed. */
export type LineStatus = 'P' | 'A' | 'R' | 'O';

/** What a line's evaluation is decided on. */
export interface LineFacts {
  /** S: the requester provides it; A: the authoriser records it (an induction given on site). */
  requirementType: 'S' | 'A';
  /** The datum is flagged for approval (Aprobar S). */
  approvable: boolean;
  /** Some requester-type line flagged for approval, in the same request, is not approved yet. */
  requesterPending: boolean;
}

export type LineEvent =
  | { type: 'APPROVE' }
  | { type: 'REJECT' }
  | { type: 'OBSERVE' }
  /** An authoriser puts an authoriser-type line back to pending. */
  | { type: 'RESET' }
  /** The requester corrects an observed line: it is pending again. */
  | { type: 'CORRECT' }
  /** The system proves the line from a valid record of its requirement's source (a passed induction). */
  | { type: 'PROVE' };

/** The event that leads to each status, for the state choice the console offers. */
export const EVENT_FOR_STATUS: Record<LineStatus, LineEvent['type']> = {
  A: 'APPROVE',
  R: 'REJECT',
  O: 'OBSERVE',
  P: 'RESET',
};

/**
 * The evaluation of one line (spec section 4). Only lines flagged for approval change. A
 * requester-type line is evaluated while pending (approved, rejected or observed) and is read-only
 * afterwards, but an observed one the requester corrects goes back to pending; observed exists
 * only for requester-type lines. An authoriser-type line is always changeable among pending,
 * approved and rejected, but is not approved while any requester-type line is not approved yet.
 * A line the system proves from a valid record of its requirement's source (a passed induction) is
 * approved at once from pending or observed, whoever provides it: the record is the evidence the
 * authoriser would otherwise check (a rejected one stays the authoriser's decision).
 */
export const requirementApprovalMachine = setup({
  types: {
    context: {} as LineFacts,
    events: {} as LineEvent,
    input: {} as LineFacts,
  },
  guards: {
    flagged: ({ context }) => context.approvable,
    requesterLine: ({ context }) => context.approvable && context.requirementType === 'S',
    authoriserLine: ({ context }) => context.approvable && context.requirementType === 'A',
    authoriserApprovable: ({ context }) =>
      context.approvable && context.requirementType === 'A' && !context.requesterPending,
  },
}).createMachine({
  id: 'requirementApproval',
  context: ({ input }) => input,
  initial: 'P',
  states: {
    P: {
      on: {
        APPROVE: [
          { guard: 'requesterLine', target: 'A' },
          { guard: 'authoriserApprovable', target: 'A' },
        ],
        REJECT: [
          { guard: 'requesterLine', target: 'R' },
          { guard: 'authoriserLine', target: 'R' },
        ],
        OBSERVE: { guard: 'requesterLine', target: 'O' },
        PROVE: { guard: 'flagged', target: 'A' },
      },
    },
    A: {
      on: {
        RESET: { guard: 'authoriserLine', target: 'P' },
        REJECT: { guard: 'authoriserLine', target: 'R' },
      },
    },
    R: {
      on: {
        RESET: { guard: 'authoriserLine', target: 'P' },
        APPROVE: { guard: 'authoriserApprovable', target: 'A' },
      },
    },
    O: {
      on: {
        CORRECT: { guard: 'requesterLine', target: 'P' },
        PROVE: { guard: 'flagged', target: 'A' },
      },
    },
  },
});
