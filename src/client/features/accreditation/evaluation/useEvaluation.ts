import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNotify, useTranslate } from 'react-admin';
import { useNavigate } from 'react-router-dom';
import {
  REQUEST_REFUSALS,
  type RequestEvent,
  requestMachine,
} from '../../../../../workflows/request.machine.js';
import type { LineStatus } from '../../../../../workflows/requirement-approval.machine.js';
import type { EntityCode } from '../../../../shared/accreditation.js';
import { useConsoleTitle } from '../../../resources/ScreenTitle.js';
import { ApiRequestError } from '../../../session/http.js';
import {
  accreditationApi,
  type Detail,
  type Item,
  type LineEvaluation,
  type RequestAction,
  type RequestRecord,
  screenPath,
} from '../api.js';
import { itemKey, shownValue, valueProblem } from '../request/Requirements.js';

export type Change = { EstadoAprobacion: LineStatus; Observacion: string };

const EVENTS: Record<RequestAction, RequestEvent['type']> = {
  APROBAR: 'APPROVE',
  OBSERVAR: 'OBSERVE',
  RECHAZAR: 'REJECT',
  DEVOLVER: 'RETURN',
};

const unexplained = (change: Change | undefined) =>
  Boolean(
    change &&
      (change.EstadoAprobacion === 'O' || change.EstadoAprobacion === 'R') &&
      !change.Observacion.trim(),
  );

/**
 * An authoriser's evaluation of a request: the lines' changes and typed values, what the request
 * machine allows with them (and why not, in words), the reason asked for a decision, and sending.
 */
export function useEvaluation({
  entity,
  record,
  detail,
}: {
  entity: EntityCode;
  record: RequestRecord;
  detail: Detail;
}) {
  const translate = useTranslate();
  const notify = useNotify();
  const navigate = useNavigate();
  const client = useQueryClient();
  const [changes, setChanges] = useState<Record<number, Change>>({});
  const [edits, setEdits] = useState<Record<string, string | null>>({});
  const [problems, setProblems] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const [asking, setAsking] = useState<RequestAction>();
  const [reason, setReason] = useState('');
  const [indiscipline, setIndiscipline] = useState(false);
  const [indisciplineKind, setIndisciplineKind] = useState<number>();
  const items = [...detail[0], ...detail[1]];
  const pending = record.EstadoAprobacion === 'P';
  useConsoleTitle(
    `${translate('accreditation.form.request')} ${record.NumeroSolicitud}`,
    translate('accreditation.actions.evaluate'),
  );
  const stateOf = (item: Item): LineStatus | null =>
    changes[item.IdSecuencial]?.EstadoAprobacion ?? item.EstadoAprobacion;
  // The request's facts as they would be with the changes: the buttons the request machine allows.
  const evaluated = items.filter((i) => i.Aprobar === 'S' && stateOf(i) !== null);
  const count = (s: LineStatus) => evaluated.filter((i) => stateOf(i) === s).length;
  const snapshot = requestMachine.resolveState({
    value: record.EstadoAprobacion,
    context: {
      complete: true,
      datesValid: true,
      linesPending: count('P'),
      linesObserved: count('O'),
      linesRejected: count('R'),
    },
  });
  const allowed = (action: RequestAction, withReason: boolean) =>
    pending && snapshot.can({ type: EVENTS[action], ...(withReason ? { reason: 'x' } : {}) } as RequestEvent);
  /**
   * Why a whole-request action cannot be taken now, in words (none when it can): the decision is
   * another approver's or not yet this one's turn, or the lines do not allow it (approving waits
   * for every line to be approved).
   */
  const whyNot = (action: RequestAction): string | undefined => {
    if (record.Decision === 'notYours') return translate('accreditation.refusals.notYourDecision');
    if (record.Decision === 'notYourTurn') return translate('accreditation.refusals.notYourTurn');
    if (allowed(action, action !== 'APROBAR')) return undefined;
    if (action === 'APROBAR')
      return translate('accreditation.evaluation.approveWaits', {
        pending: count('P'),
        observed: count('O'),
        rejected: count('R'),
      });
    return translate(REQUEST_REFUSALS[EVENTS[action]]);
  };
  const lines = (): LineEvaluation[] =>
    items
      .filter((item) => changes[item.IdSecuencial] || itemKey(item) in edits)
      .map((item) => ({
        IdDetalle: item.IdSecuencial,
        EstadoAprobacion: stateOf(item) as LineStatus,
        Observacion: changes[item.IdSecuencial]?.Observacion ?? item.Observacion,
        ...(itemKey(item) in edits ? { Valor: edits[itemKey(item)] } : {}),
      }));
  /** The lines' problems shown (an observation missing, a value refused); the first missing observation focused. */
  const check = (): boolean => {
    const found: Record<string, string> = {};
    for (const item of items) {
      if (unexplained(changes[item.IdSecuencial]))
        found[itemKey(item)] = translate('accreditation.refusals.observationRequired');
      const problem =
        itemKey(item) in edits ? valueProblem(item, shownValue(item, edits), detail[3]) : undefined;
      if (problem) found[itemKey(item)] = translate(problem.messageKey, problem.params);
    }
    setProblems(found);
    if (Object.keys(found).length) notify('accreditation.form.stepInvalid', { type: 'warning' });
    const missing = items.find((item) => unexplained(changes[item.IdSecuencial]));
    const field =
      missing && document.querySelector<HTMLElement>(`[data-observation="${missing.IdSecuencial}"]`);
    if (field) {
      field.scrollIntoView({ block: 'center' });
      field.focus();
    }
    return Object.keys(found).length === 0;
  };
  const submit = async (action?: RequestAction) => {
    if (!check()) return;
    setBusy(true);
    try {
      const answer = await accreditationApi.evaluate(
        {
          IdSolicitud: record.IdSolicitud,
          Detalle: lines(),
          ...(action ? { Accion: action } : {}),
          ...(action && action !== 'APROBAR' ? { MotivoRechazo: reason.trim() } : {}),
          ...(action === 'RECHAZAR' ? { IndisciplinaRechazo: indiscipline ? 'S' : 'N' } : {}),
          ...(action === 'RECHAZAR' && indiscipline && indisciplineKind
            ? { IdIndisciplina: indisciplineKind }
            : {}),
        },
        record.TipoSolicitud,
      );
      setAsking(undefined);
      notify(action ? `accreditation.evaluation.done.${action}` : 'accreditation.evaluation.saved', {
        type: 'success',
        messageArgs: { number: record.NumeroSolicitud },
      });
      await client.invalidateQueries({ queryKey: ['accreditation'] });
      if (action || answer.EstadoAprobacion !== 'P')
        navigate(`${screenPath('autorizador', entity, undefined, record.TipoSolicitud)}?estado=P`);
    } catch (error) {
      notify(error instanceof ApiRequestError ? error.message : 'ra.notification.http_error', {
        type: 'error',
      });
    } finally {
      setBusy(false);
    }
  };
  return {
    entity,
    record,
    detail,
    pending,
    busy,
    changes,
    setChanges,
    edits,
    setEdits,
    problems,
    stateOf,
    allowed,
    whyNot,
    submit,
    asking,
    setAsking,
    reason,
    setReason,
    indiscipline,
    setIndiscipline,
    indisciplineKind,
    setIndisciplineKind,
    dirty: Object.keys(changes).length > 0 || Object.keys(edits).length > 0,
  };
}

export type EvaluationState = ReturnType<typeof useEvaluation>;
