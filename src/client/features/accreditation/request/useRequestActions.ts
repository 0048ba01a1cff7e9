import { useQueryClient } from '@tanstack/react-query';
import { useNotify, useTranslate } from 'react-admin';
import { useLocation, useNavigate } from 'react-router-dom';
import type { WizardStep } from '../../../../../workflows/wizard.machine.js';
import type { EntityCode } from '../../../../shared/accreditation.js';
import { TOAST_MS } from '../../../../shared/constants.js';
import { dataUrlFile } from '../../../files.js';
import { ApiRequestError } from '../../../session/http.js';
import {
  accreditationApi,
  type Detail,
  fieldErrors,
  type Item,
  type RequestRecord,
  screenPath,
} from '../api.js';
import { pick } from './fields.js';
import { fileKey, itemKey } from './Requirements.js';
import type { Data, RequestValues } from './useRequestValues.js';
import { VISITOR_FIELDS } from './Visitors.js';

interface ActionsInput {
  entity: EntityCode;
  record?: RequestRecord;
  detail?: Detail;
  isNew: boolean;
  step: WizardStep;
  values: RequestValues;
  validate: (step: WizardStep) => boolean;
  stepOf: (field: string) => WizardStep;
  sendWizard: (event: { type: 'GOTO'; step: WizardStep } | { type: 'NEXT'; valid: boolean }) => void;
}

/**
 * What the requester does with a request: the next step (creating the request when the holder's
 * step ends), save, send, delete, attach a requirement's file. A refusal is shown where it
 * belongs: under its fields, on their step, and in a message.
 */
export function useRequestActions(input: ActionsInput) {
  const { entity, record, detail, values } = input;
  const translate = useTranslate();
  const notify = useNotify();
  const navigate = useNavigate();
  const client = useQueryClient();
  const refresh = () => client.invalidateQueries({ queryKey: ['accreditation'] });
  /** Every read of the area again but a deleted request's own (which would answer 404). */
  const refreshWithout = (id: number) =>
    client.invalidateQueries({
      queryKey: ['accreditation'],
      predicate: ({ queryKey: [, what, a, b] }) =>
        !(((what === 'record' || what === 'detail') && b === id) || (what === 'photo' && a === id)),
    });
  // The list the request was opened from, with its filters (the list passes its address along).
  const from = listOf(useLocation().state);
  const back = () => from ?? screenPath('solicitante', entity, undefined, record?.TipoSolicitud);

  const refused = (error: unknown) => {
    const fields = fieldErrors(error);
    values.setErrors(fields);
    const found: Record<string, string> = {};
    for (const [field, problem] of Object.entries(fields)) {
      const datum = /^Detalle\.(\d+)$/.exec(field)?.[1];
      if (datum && detail)
        for (const item of [...detail[0], ...detail[1]].filter((i) => String(i.IdDatoEvaluar) === datum))
          found[itemKey(item)] = translate(problem.messageKey, problem.params);
    }
    values.setProblems(found);
    const first = Object.keys(fields)[0];
    if (first) input.sendWizard({ type: 'GOTO', step: input.stepOf(first) });
    notify(error instanceof ApiRequestError ? error.message : 'ra.notification.http_error', {
      type: 'error',
      autoHideDuration: TOAST_MS.default,
    });
  };
  /** Runs `work` as the busy `action`; a refusal is shown, and answers whether it went through. */
  const busyWith = async (action: string, work: () => Promise<void>): Promise<boolean> => {
    values.setBusy(action);
    try {
      await work();
      return true;
    } catch (error) {
      refused(error);
      return false;
    } finally {
      values.setBusy(undefined);
    }
  };
  const body = (): Data => requestBody(entity, detail, values);
  const withPhoto = async (id: number) => {
    if (values.photo) await accreditationApi.uploadPhoto(id, dataUrlFile(values.photo, 'foto.png'));
  };

  const create = () =>
    busyWith('create', async () => {
      const made = await accreditationApi.create(body());
      await withPhoto(made.IdSolicitud);
      notify('accreditation.form.created', { type: 'success' });
      await refresh();
      navigate(screenPath('solicitante', entity, made.IdSolicitud), {
        replace: true,
        state: { step: 'requirements', from },
      });
    });
  /** Stores what was typed; whether it went through. */
  const store = async (quiet = false): Promise<boolean> =>
    Boolean(record) &&
    busyWith('save', async () => {
      const id = (record as RequestRecord).IdSolicitud;
      await accreditationApi.update({ IdSolicitud: id, ...body() });
      await withPhoto(id);
      values.setErrors({});
      values.setProblems({});
      await refresh();
      values.setEdits({});
      values.setAdditional({});
      values.setPhoto(undefined);
      if (!quiet) notify('accreditation.form.saved', { type: 'success' });
    });
  /** Sends or deletes the request, then goes back to its list. */
  const finish = async (action: 'send' | 'delete', call: (id: number) => Promise<unknown>, done: string) => {
    if (!record) return;
    await busyWith(action, async () => {
      await call(record.IdSolicitud);
      notify(done, { type: 'success' });
      navigate(back());
      await (action === 'delete' ? refreshWithout(record.IdSolicitud) : refresh());
    });
  };
  const attach = async (item: Item, file: File) => {
    if (!record) return;
    values.setBusy(`attach:${itemKey(item)}`);
    try {
      await accreditationApi.attach(record.IdSolicitud, item.IdDatoEvaluar, file, item.IdVisitaPersona);
      values.setProblems(({ [itemKey(item)]: _gone, [fileKey(item)]: _refused, ...rest }) => rest);
      await client.invalidateQueries({
        queryKey: ['accreditation', 'detail', 'solicitante', record.IdSolicitud],
      });
    } catch (error) {
      const message =
        error instanceof ApiRequestError ? error.message : translate('ra.notification.http_error');
      // Said on the line the file was for, as well as in the toast.
      values.setProblems((all) => ({ ...all, [fileKey(item)]: `${file.name}: ${message}` }));
      notify(message, { type: 'error' });
    } finally {
      values.setBusy(undefined);
    }
  };
  const next = () => {
    const valid = input.validate(input.step);
    if (valid && input.isNew && input.step === 'personal') {
      void create();
      return;
    }
    input.sendWizard({ type: 'NEXT', valid });
    if (!valid)
      notify('accreditation.form.stepInvalid', { type: 'error', autoHideDuration: TOAST_MS.wizard });
  };
  return {
    next,
    /** Saves, then goes back to the list (its grids read again). */
    save: async () => {
      if (await store()) navigate(back());
    },
    attach,
    back,
    submit: async () => {
      if (record && (await store(true)))
        await finish('send', accreditationApi.send, 'accreditation.form.sentDone');
    },
    remove: () => finish('delete', accreditationApi.remove, 'accreditation.form.deleted'),
  };
}

/** The list address a request was opened with (`state.from`), if any. */
export function listOf(state: unknown): string | undefined {
  const from = (state as { from?: unknown } | null)?.from;
  return typeof from === 'string' && from.startsWith('/') && !from.startsWith('//') ? from : undefined;
}

/** What a save or a creation sends: the header, the holder or the visitors, the requirement values typed. */
function requestBody(entity: EntityCode, detail: Detail | undefined, values: RequestValues): Data {
  return {
    ...values.header,
    IdEntidad: entity,
    ...(entity === 'P'
      ? {
          Visitantes: values.visitors.map((v) => ({
            ...(v.IdVisitaPersona ? { IdVisitaPersona: v.IdVisitaPersona } : {}),
            ...pick(v as Data, VISITOR_FIELDS),
          })),
        }
      : values.holder),
    ...(Object.keys(values.additional).length && {
      DatosAdicionales: Object.entries(values.additional).map(([id, Valor]) => ({
        IdDatoAdicional: Number(id),
        Valor,
      })),
    }),
    Detalle: JSON.stringify(
      (detail?.[0] ?? [])
        .filter((item) => itemKey(item) in values.edits)
        .map((item) => ({
          IdDatoEvaluar: item.IdDatoEvaluar,
          Valor: values.edits[itemKey(item)],
          ...(item.IdVisitaPersona ? { IdVisitaPersona: item.IdVisitaPersona } : {}),
        })),
    ),
  };
}
