import { useMachine } from '@xstate/react';
import { type RefObject, useEffect, useMemo, useRef } from 'react';
import { useTranslate } from 'react-admin';
import { useLocation } from 'react-router-dom';
import { requestMachine } from '../../../../../workflows/request.machine.js';
import { WIZARD_STEPS, type WizardStep, wizardMachine } from '../../../../../workflows/wizard.machine.js';
import { type EntityCode, holdsContract, VEHICLE_FIELDS } from '../../../../shared/accreditation.js';
import type { ResourceMeta } from '../../../../shared/schema/types.js';
import type { FieldsFormHandle } from '../../../resources/form/FieldsForm.js';
import { useFieldRules } from '../../../resources/form/parts.js';
import { useConsoleTitle } from '../../../resources/ScreenTitle.js';
import { session } from '../../../session/store.js';
import type { Detail, RequestRecord } from '../api.js';
import { ADDITIONAL, personSteps } from './fields.js';
import { useResource } from './KnownHolder.js';
import { itemKey, missingItems, shownValue, valueProblem } from './Requirements.js';
import { useRequestActions } from './useRequestActions.js';
import { type Data, type FormProps, useRequestValues } from './useRequestValues.js';

/**
 * A request made or edited step by step, as the step components and the action bar share it: the
 * schemas and rules its forms draw, what the request machine allows from the stored status, the
 * wizard's step, the values typed so far with their problems, and the actions.
 */
export function useRequestForm({ entity, record, detail }: FormProps) {
  const translate = useTranslate();
  const holderName = entity === 'T' ? 'person' : 'vehicle';
  const meta = {
    request: useResource('request'),
    holder: useResource(holderName),
    visitor: useResource('visit-person'),
  };
  const requestRules = useFieldRules('request');
  // A visit's and a company's request have no worker or vehicle form: no rules to read for one.
  const holderRules = useFieldRules(holderName, holdsContract(entity));
  const isNew = !record;
  const status = record?.EstadoAprobacion;
  // What the request machine allows from the stored status: saving, sending, deleting.
  const request = useMemo(
    () =>
      record
        ? requestMachine.resolveState({ value: record.EstadoAprobacion, context: record.hechos })
        : undefined,
    [record],
  );
  const editable = isNew || Boolean(request?.can({ type: 'UPDATE' }));
  const deletable = Boolean(request?.can({ type: 'DELETE' }));
  // A request that may no longer be changed is only read: its last step returns home.
  const [snapshot, sendWizard] = useMachine(wizardMachine, {
    input: { mode: isNew ? 'new' : editable ? 'edit' : 'read' },
  });
  const step = snapshot.value as WizardStep;
  // A renewal changes one requirement's data and file: the rest of the request is shown, not edited.
  const renewal = record?.TipoSolicitud === 'A';
  useOpeningStep(status, detail, renewal, step, sendWizard);
  const values = useRequestValues({ entity, record });
  const forms: Record<string, RefObject<FieldsFormHandle | null>> = {
    general: useRef<FieldsFormHandle>(null),
    personal: useRef<FieldsFormHandle>(null),
    additionalHolder: useRef<FieldsFormHandle>(null),
    additional: useRef<FieldsFormHandle>(null),
  };
  const steps = personSteps(meta.holder, holderRules.data);
  useConsoleTitle(
    record
      ? `${translate('accreditation.form.request')} ${record.NumeroSolicitud}`
      : translate('accreditation.form.new'),
    translate(`accreditation.entities.${entity}`),
  );
  const visitorNames = Object.fromEntries(
    (record?.Visitantes ?? []).map((v) => [
      v.IdVisitaPersona,
      `${v.Apellido ?? ''} ${v.Nombre ?? ''}`.trim(),
    ]),
  ) as Record<number, string>;

  /** The date problems of a step's fields, shown from now on; whether there were none. */
  const datesHold = (fields: readonly string[]) => {
    values.setDatesShown((shown) => [...new Set([...shown, ...fields])]);
    return fields.every((field) => !values.dateProblems[field]);
  };
  /** Checks the step's values; the requirements by their types, with the server's own check. */
  const validate = (at: WizardStep): boolean => {
    if (at === 'general')
      return [forms.general.current?.validate() ?? true, datesHold(['FechaInicio', 'FechaFin'])].every(
        Boolean,
      );
    if (at === 'personal')
      return [forms.personal.current?.validate() ?? true, datesHold(['FechaNacimiento'])].every(Boolean);
    if (at === 'additional')
      return [forms.additionalHolder, forms.additional].every((f) => f.current?.validate() ?? true);
    if (at === 'requirements' && detail) {
      const found: Record<string, string> = {};
      for (const item of detail[0]) {
        const problem = valueProblem(item, shownValue(item, values.edits), detail[3]);
        if (problem) found[itemKey(item)] = translate(problem.messageKey, problem.params);
      }
      values.setProblems(found);
      return Object.keys(found).length === 0;
    }
    return true;
  };
  /** The step that shows a field the server refused. */
  const stepOf = (field: string): WizardStep => {
    if (field.startsWith('Detalle')) return 'requirements';
    if (
      field.startsWith('Visitantes') ||
      steps.personal.includes(field as never) ||
      VEHICLE_FIELDS.includes(field as never)
    )
      return 'personal';
    if (ADDITIONAL.includes(field) || steps.additional.includes(field as never)) return 'additional';
    return 'general';
  };
  const actions = useRequestActions({
    entity,
    record,
    detail,
    isNew,
    step,
    values,
    validate,
    stepOf,
    sendWizard,
  });
  const missing = detail ? missingItems(detail[0], values.edits) : [];
  // Observed lines not corrected yet: no new value typed, no new file (a new file makes it pending).
  const uncorrected =
    status === 'O' && detail
      ? detail[0].filter((item) => item.EstadoAprobacion === 'O' && !(itemKey(item) in values.edits))
      : [];
  const disabled = !editable || Boolean(values.busy) || renewal;
  // What every step's form shares: the request's own fields, and the worker's or vehicle's.
  const shared = {
    mode: isNew ? ('create' as const) : ('edit' as const),
    record,
    errors: values.errors,
    disabled,
  };
  return {
    entity,
    record,
    detail,
    meta,
    loading: requestRules.isPending || holderRules.isLoading,
    isNew,
    status,
    editable,
    deletable,
    disabled,
    step,
    last: step === WIZARD_STEPS[WIZARD_STEPS.length - 1],
    wizard: snapshot,
    sendWizard,
    forms,
    steps,
    values,
    actions,
    missing,
    uncorrected,
    visitorNames,
    holderLabel: holderLabelOf(entity, record, values.holder),
    headerForm: {
      ...shared,
      meta: meta.request as ResourceMeta,
      value: values.header,
      onChange: (value: Data) => values.setHeader({ ...value, IdEntidad: entity }),
      rules: requestRules.data,
    },
    holderForm: {
      ...shared,
      // Shown only once the holder's resource is known.
      meta: meta.holder as ResourceMeta,
      value: values.holder,
      onChange: values.setHolder,
      rules: holderRules.data,
    },
  };
}

export type RequestFormState = ReturnType<typeof useRequestForm>;

/**
 * The step a request opens on: the one a new request was created from, or for an observed request
 * or a renewal the requirements, the first observation in view.
 */
function useOpeningStep(
  status: string | undefined,
  detail: Detail | undefined,
  renewal: boolean,
  step: WizardStep,
  sendWizard: (event: { type: 'GOTO'; step: WizardStep }) => void,
) {
  const location = useLocation();
  const opened = (location.state as { step?: WizardStep } | null)?.step;
  const observedOnOpen = status === 'O' && (detail?.[0] ?? []).some((item) => item.EstadoAprobacion === 'O');
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, on the step a new request was created from
  useEffect(() => {
    if (opened) sendWizard({ type: 'GOTO', step: opened });
    else if (observedOnOpen || renewal) sendWizard({ type: 'GOTO', step: 'requirements' });
  }, []);
  // biome-ignore lint/correctness/useExhaustiveDependencies: once the requirements first show
  useEffect(() => {
    if (!observedOnOpen || step !== 'requirements') return;
    const first = document.querySelector<HTMLElement>(
      '.requirement-item[data-line-status="O"] .line-observation',
    );
    first?.scrollIntoView({ block: 'center' });
  }, [step === 'requirements']);
}

/** What the heading and the preview call the request's holder: the company, the visit's reason (a renewal's visitor), the worker, the plate. */
function holderLabelOf(
  entity: EntityCode,
  record: RequestRecord | undefined,
  holder: Data,
): string | undefined {
  if (entity === 'E') return (record?.Compania ?? session.profile()?.current.Compania) as string | undefined;
  // A visit's renewal is its one visitor's.
  const visitor = record?.TipoSolicitud === 'A' ? record.Visitantes?.[0] : undefined;
  if (entity === 'P' && visitor) return `${visitor.Apellido} ${visitor.Nombre}`;
  if (entity === 'P') return record?.MotivoVisita as string | undefined;
  if (entity === 'T') return [holder.Apellido, holder.Nombre].filter(Boolean).join(' ');
  return holder.Placa as string | undefined;
}
