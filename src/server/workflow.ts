import {
  type AnyStateMachine,
  type ContextFrom,
  type EventFromLogic,
  type SnapshotFrom,
  type StateValue,
  transition,
} from 'xstate';
import { ApiError } from './errors.js';

/**
 * The server's side of a workflow: it loads the stored state, asks the same machine the console
 * drives whether the event is allowed there (`snapshot.can`), and refuses otherwise with 409 (or
 * the business-rule 400 the caller asks for) and the message key the caller names. Allowed, it answers the snapshot the event leads to, whose
 * value is what the caller stores. The machine is pure, so nothing runs but the decision.
 */
export function requireTransition<M extends AnyStateMachine>(
  machine: M,
  stored: { value: StateValue; context: ContextFrom<M> },
  event: EventFromLogic<M>,
  refusal: {
    messageKey: string;
    params?: Record<string, string | number>;
    code?: 'CONFLICT' | 'BUSINESS_RULE';
  },
): SnapshotFrom<M> {
  const snapshot = machine.resolveState(stored) as SnapshotFrom<M>;
  if (!(snapshot as { can(event: unknown): boolean }).can(event))
    throw new ApiError(refusal.code ?? 'CONFLICT', {
      messageKey: refusal.messageKey,
      params: refusal.params,
    });
  return transition(machine, snapshot, event)[0];
}
