import { setup } from 'xstate';

/** A request's status (spec section 4, EstadoAprobacion): incomplete, pending, observed, rejected, approved. */
export type RequestStatus = 'I' | 'P' | 'O' | 'R' | 'A';
export const REQUEST_STATUSES: readonly RequestStatus[] = ['I', 'P', 'O', 'R', 'A'];

/**
 * What the request's rules are decided on. The server computes these facts from the stored
 * request and its lines before it asks the machine; the console from what it shows.
 */
export interface RequestFacts {
  /** Every mandatory requirement entered, and attached where it asks for a file. */
  complete: boolean;
  /** Starts today or later and ends within the contract's dates (and a visit's longest stay). */
  datesValid: boolean;
  /** Lines an authoriser evaluates (Aprobar S), by their state. */
  linesPending: number;
  linesObserved: number;
  linesRejected: number;
}

export type RequestEvent =
  /** The requester saves changes. */
  | { type: 'UPDATE' }
  /** The requester sends (closes) the request for evaluation. */
  | { type: 'SEND' }
  /** An authoriser observes it: the requester must correct what is observed. */
  | { type: 'OBSERVE'; reason?: string }
  /** An authoriser rejects it, with its reason. */
  | { type: 'REJECT'; reason: string }
  /** An authoriser approves it. */
  | { type: 'APPROVE' }
  /** An authoriser returns it to the requester, incomplete, with its reason. */
  | { type: 'RETURN'; reason: string }
  /** The requester deletes it. */
  | { type: 'DELETE' };

/** The message keys of refusals, by event: what the server answers and the console shows. */
export const REQUEST_REFUSALS: Record<RequestEvent['type'], string> = {
  UPDATE: 'accreditation.refusals.sentNotEditable',
  SEND: 'accreditation.refusals.cannotSend',
  OBSERVE: 'accreditation.refusals.cannotObserve',
  REJECT: 'accreditation.refusals.cannotReject',
  APPROVE: 'ACCREDITATION.MESSAGE.APPROVALSTATUS',
  RETURN: 'accreditation.refusals.cannotReturn',
  DELETE: 'accreditation.refusals.sentNotDeletable',
};

const hasReason = (event: RequestEvent) => 'reason' in event && Boolean(event.reason?.trim());

/**
 * The request lifecycle (spec section 4). The requester edits an incomplete or observed request
 * and sends it when everything is entered and attached and its dates hold; a sent request cannot
 * be edited or deleted, and an answered one is never deleted. An authoriser observes it (some line
 * observed, or a reason), rejects it (with a reason), returns it (with a reason) or approves it,
 * which needs every line it evaluates approved: approval is blocked while any is pending review.
 * The machine is pure: the server asks it from the stored status before every write, and the
 * console asks it which buttons to offer.
 */
export const requestMachine = setup({
  types: {
    context: {} as RequestFacts,
    events: {} as RequestEvent,
    input: {} as RequestFacts,
  },
  guards: {
    sendable: ({ context }) => context.complete && context.datesValid && context.linesObserved === 0,
    observable: ({ context, event }) => context.linesObserved > 0 || hasReason(event),
    withReason: ({ event }) => hasReason(event),
    allApproved: ({ context }) =>
      context.linesPending === 0 && context.linesObserved === 0 && context.linesRejected === 0,
  },
}).createMachine({
  id: 'request',
  context: ({ input }) => input,
  initial: 'I',
  states: {
    I: {
      on: {
        UPDATE: 'I',
        SEND: { guard: 'sendable', target: 'P' },
        DELETE: 'deleted',
      },
    },
    P: {
      on: {
        OBSERVE: { guard: 'observable', target: 'O' },
        REJECT: { guard: 'withReason', target: 'R' },
        APPROVE: { guard: 'allApproved', target: 'A' },
        RETURN: { guard: 'withReason', target: 'I' },
      },
    },
    O: {
      on: {
        UPDATE: 'O',
        SEND: { guard: 'sendable', target: 'P' },
      },
    },
    R: { type: 'final' },
    A: { type: 'final' },
    deleted: { type: 'final' },
  },
});
