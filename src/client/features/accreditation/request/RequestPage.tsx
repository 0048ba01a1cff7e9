import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import ArrowForwardIcon from '@mui/icons-material/ArrowForward';
import DeleteIcon from '@mui/icons-material/Delete';
import SaveIcon from '@mui/icons-material/Save';
import SendIcon from '@mui/icons-material/Send';
import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  LinearProgress,
  Stack,
  Tab,
  Tabs,
} from '@mui/material';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useMachine } from '@xstate/react';
import { type RefObject, useEffect, useMemo, useRef, useState } from 'react';
import { useNotify, useTranslate } from 'react-admin';
import { Link, useLocation, useNavigate, useParams } from 'react-router-dom';
import { requestMachine } from '../../../../../workflows/request.machine.js';
import { WIZARD_STEPS, type WizardStep, wizardMachine } from '../../../../../workflows/wizard.machine.js';
import {
  type EntityCode,
  HEADER_FIELDS,
  holdsContract,
  PERSON_FIELDS,
  VEHICLE_FIELDS,
} from '../../../../shared/accreditation.js';
import { TOAST_MS } from '../../../../shared/constants.js';
import type { FieldError } from '../../../../shared/errors.js';
import type { ResourceMeta } from '../../../../shared/schema/types.js';
import { ReasonButton } from '../../../components/ReasonButton.js';
import { dataUrlFile } from '../../../files.js';
import { FieldsForm, type FieldsFormHandle } from '../../../resources/form/FieldsForm.js';
import { useFieldRules } from '../../../resources/form/parts.js';
import { PhotoPicker } from '../../../resources/form/widgets/ImageWidget.js';
import { useConsoleTitle } from '../../../resources/ScreenTitle.js';
import { ApiRequestError } from '../../../session/http.js';
import { session } from '../../../session/store.js';
import {
  accreditationApi,
  type Detail,
  fieldErrors,
  type Item,
  KIND_OF_SEGMENT,
  type RequestRecord,
  screenPath,
  type Visitor,
} from '../api.js';
import { CompanyData } from './CompanyData.js';
import { ADDITIONAL, DATE_FIELDS, GENERAL, personSteps, pick, stepLabel } from './fields.js';
import { History } from './History.js';
import { KnownHolder, useKnownHolder, useResource } from './KnownHolder.js';
import PdfPreview, { type PreviewFile } from './PdfPreview.js';
import { RequestHeading } from './RequestHeading.js';
import { fileKey, itemKey, missingItems, Requirements, shownValue, valueProblem } from './Requirements.js';
import { useDateProblems } from './useDateProblems.js';
import { VISITOR_FIELDS, Visitors } from './Visitors.js';

type Data = Record<string, unknown>;

/** /movilizacion/solicitante/:kind/:id (or /nueva): a request made or edited step by step. */
export default function RequestPage() {
  const { kind = 'persona', id } = useParams();
  const entity = KIND_OF_SEGMENT[kind] as EntityCode;
  const requestId = id && id !== 'nueva' ? Number(id) : undefined;
  const translate = useTranslate();
  const record = useQuery({
    queryKey: ['accreditation', 'record', 'solicitante', requestId],
    queryFn: () => accreditationApi.record('solicitante', requestId as number),
    enabled: requestId !== undefined,
  });
  const detail = useQuery({
    queryKey: ['accreditation', 'detail', 'solicitante', requestId],
    queryFn: () => accreditationApi.detail('solicitante', entity, requestId as number),
    enabled: requestId !== undefined,
  });
  if (requestId !== undefined && (record.isError || detail.isError))
    return (
      <Alert
        severity="error"
        sx={{ mt: 2 }}
        action={
          <Button component={Link} to={screenPath('solicitante', entity)}>
            {translate('ra.action.back')}
          </Button>
        }
      >
        {(record.error ?? detail.error)?.message}
      </Alert>
    );
  if (requestId !== undefined && (!record.data || !detail.data))
    return <LinearProgress sx={{ mt: 2 }} aria-label={translate('ra.page.loading')} />;
  return <RequestForm key={requestId ?? 'new'} entity={entity} record={record.data} detail={detail.data} />;
}

interface FormProps {
  entity: EntityCode;
  record?: RequestRecord;
  detail?: Detail;
}

function RequestForm({ entity, record, detail }: FormProps) {
  const translate = useTranslate();
  const notify = useNotify();
  const navigate = useNavigate();
  const location = useLocation();
  const client = useQueryClient();
  const requestMeta = useResource('request');
  const holderName = entity === 'T' ? 'person' : 'vehicle';
  const holderMeta = useResource(holderName);
  const visitorMeta = useResource('visit-person');
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
  const [snapshot, sendWizard] = useMachine(wizardMachine, { input: { mode: isNew ? 'new' : 'edit' } });
  const step = snapshot.value as WizardStep;
  const opened = (location.state as { step?: WizardStep } | null)?.step;
  // An observed request opens on what must be corrected: the requirements, the first observation in view.
  const observedOnOpen = status === 'O' && (detail?.[0] ?? []).some((item) => item.EstadoAprobacion === 'O');
  // A renewal changes one requirement's data and file: the rest of the request is shown, not edited.
  const renewal = record?.TipoSolicitud === 'A';
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

  const [header, setHeader] = useState<Data>(() => ({ ...pick(record, HEADER_FIELDS), IdEntidad: entity }));
  const [holder, setHolder] = useState<Data>(() =>
    pick(record, entity === 'T' ? PERSON_FIELDS : entity === 'V' ? VEHICLE_FIELDS : []),
  );
  const [visitors, setVisitors] = useState<Visitor[]>(() => record?.Visitantes ?? []);
  const known = useKnownHolder(entity, isNew, holder, (found) =>
    setHolder((typed) => {
      const fields = entity === 'T' ? PERSON_FIELDS : VEHICLE_FIELDS;
      const empty = (value: unknown) => value === undefined || value === null || value === '';
      return {
        ...typed,
        ...pick(
          found,
          fields.filter((f) => empty(typed[f])),
        ),
      };
    }),
  );
  const [edits, setEdits] = useState<Record<string, string | null>>({});
  const [problems, setProblems] = useState<Record<string, string>>({});
  const [photo, setPhoto] = useState<string>();
  const [serverErrors, setErrors] = useState<Record<string, FieldError>>({});
  // The request's dates, checked as the server checks them (src/shared/request-dates.ts): on the
  // step where they are, under the field, once the step is left or the dates were refused; a
  // problem goes as soon as the value is fixed.
  const dateProblems = useDateProblems(entity, header, holder);
  const [datesShown, setDatesShown] = useState<string[]>([]);
  const errors: Record<string, FieldError> = { ...serverErrors };
  for (const field of DATE_FIELDS) {
    const problem = dateProblems[field];
    if (datesShown.includes(field) || serverErrors[field])
      if (problem) errors[field] = { ...problem, message: translate(problem.messageKey, problem.params) };
      else delete errors[field];
  }
  const [busy, setBusy] = useState<string>();
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [preview, setPreview] = useState<PreviewFile>();

  const stored = useQuery({
    queryKey: ['accreditation', 'photo', record?.IdSolicitud, record?.ClaveFoto],
    queryFn: async () => {
      const file = await accreditationApi.photo(record?.IdSolicitud as number);
      return `data:image/${file.file.startsWith('/9j') ? 'jpeg' : 'png'};base64,${file.file}`;
    },
    enabled: entity === 'T' && Boolean(record?.ClaveFoto),
  });

  const forms: Record<string, RefObject<FieldsFormHandle | null>> = {
    general: useRef<FieldsFormHandle>(null),
    personal: useRef<FieldsFormHandle>(null),
    additionalHolder: useRef<FieldsFormHandle>(null),
    additional: useRef<FieldsFormHandle>(null),
  };
  const steps = personSteps(holderMeta, holderRules.data);
  const kindName = translate(`accreditation.entities.${entity}`);
  useConsoleTitle(
    record
      ? `${translate('accreditation.form.request')} ${record.NumeroSolicitud}`
      : translate('accreditation.form.new'),
    kindName,
  );

  const visitorNames = Object.fromEntries(
    (record?.Visitantes ?? []).map((v) => [
      v.IdVisitaPersona,
      `${v.Apellido ?? ''} ${v.Nombre ?? ''}`.trim(),
    ]),
  ) as Record<number, string>;

  /** Checks the step's values; the requirements by their types, with the server's own check. */
  /** The date problems of a step's fields, shown from now on; whether there were none. */
  const datesHold = (fields: readonly string[]) => {
    setDatesShown((shown) => [...new Set([...shown, ...fields])]);
    return fields.every((field) => !dateProblems[field]);
  };
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
        const problem = valueProblem(item, shownValue(item, edits), detail[3]);
        if (problem) found[itemKey(item)] = translate(problem.messageKey, problem.params);
      }
      setProblems(found);
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

  /** A refusal shown where it belongs: under its fields, on their step, and in a message. */
  const refused = (error: unknown) => {
    const fields = fieldErrors(error);
    setErrors(fields);
    const found: Record<string, string> = {};
    for (const [field, problem] of Object.entries(fields)) {
      const datum = /^Detalle\.(\d+)$/.exec(field)?.[1];
      if (datum && detail)
        for (const item of [...detail[0], ...detail[1]].filter((i) => String(i.IdDatoEvaluar) === datum))
          found[itemKey(item)] = translate(problem.messageKey, problem.params);
    }
    setProblems(found);
    const first = Object.keys(fields)[0];
    if (first) sendWizard({ type: 'GOTO', step: stepOf(first) });
    notify(error instanceof ApiRequestError ? error.message : 'ra.notification.http_error', {
      type: 'error',
      autoHideDuration: TOAST_MS.default,
    });
  };

  const body = (): Data => ({
    ...header,
    IdEntidad: entity,
    ...(entity === 'P'
      ? {
          Visitantes: visitors.map((v) => ({
            ...(v.IdVisitaPersona ? { IdVisitaPersona: v.IdVisitaPersona } : {}),
            ...pick(v as Data, VISITOR_FIELDS),
          })),
        }
      : holder),
    Detalle: JSON.stringify(
      (detail?.[0] ?? [])
        .filter((item) => itemKey(item) in edits)
        .map((item) => ({
          IdDatoEvaluar: item.IdDatoEvaluar,
          Valor: edits[itemKey(item)],
          ...(item.IdVisitaPersona ? { IdVisitaPersona: item.IdVisitaPersona } : {}),
        })),
    ),
  });

  const refresh = () => client.invalidateQueries({ queryKey: ['accreditation'] });

  const create = async () => {
    setBusy('create');
    try {
      const made = await accreditationApi.create(body());
      if (photo) await accreditationApi.uploadPhoto(made.IdSolicitud, dataUrlFile(photo, 'foto.png'));
      notify('accreditation.form.created', { type: 'success' });
      await refresh();
      navigate(screenPath('solicitante', entity, made.IdSolicitud), {
        replace: true,
        state: { step: 'requirements' },
      });
    } catch (error) {
      refused(error);
    } finally {
      setBusy(undefined);
    }
  };

  const save = async (quiet = false): Promise<boolean> => {
    if (!record) return false;
    setBusy('save');
    try {
      await accreditationApi.update({ IdSolicitud: record.IdSolicitud, ...body() });
      if (photo) await accreditationApi.uploadPhoto(record.IdSolicitud, dataUrlFile(photo, 'foto.png'));
      setErrors({});
      setProblems({});
      await refresh();
      setEdits({});
      setPhoto(undefined);
      if (!quiet) notify('accreditation.form.saved', { type: 'success' });
      return true;
    } catch (error) {
      refused(error);
      return false;
    } finally {
      setBusy(undefined);
    }
  };

  /** Sends or deletes the request, then goes back to its list; a refusal is said where it belongs. */
  const finish = async (action: 'send' | 'delete', call: (id: number) => Promise<unknown>, done: string) => {
    if (!record) return;
    setBusy(action);
    try {
      await call(record.IdSolicitud);
      notify(done, { type: 'success' });
      await refresh();
      navigate(screenPath('solicitante', entity, undefined, record?.TipoSolicitud));
    } catch (error) {
      refused(error);
    } finally {
      setBusy(undefined);
    }
  };
  const submit = async () => {
    if (record && (await save(true)))
      await finish('send', accreditationApi.send, 'accreditation.form.sentDone');
  };
  const remove = async () => {
    setConfirmDelete(false);
    await finish('delete', accreditationApi.remove, 'accreditation.form.deleted');
  };

  const attach = async (item: Item, file: File) => {
    if (!record) return;
    setBusy(`attach:${itemKey(item)}`);
    try {
      await accreditationApi.attach(record.IdSolicitud, item.IdDatoEvaluar, file, item.IdVisitaPersona);
      setProblems(({ [itemKey(item)]: _gone, [fileKey(item)]: _refused, ...rest }) => rest);
      await client.invalidateQueries({
        queryKey: ['accreditation', 'detail', 'solicitante', record.IdSolicitud],
      });
    } catch (error) {
      const message =
        error instanceof ApiRequestError ? error.message : translate('ra.notification.http_error');
      // Said on the line the file was for, as well as in the toast.
      setProblems((all) => ({ ...all, [fileKey(item)]: `${file.name}: ${message}` }));
      notify(message, { type: 'error' });
    } finally {
      setBusy(undefined);
    }
  };

  const next = () => {
    const valid = validate(step);
    if (valid && isNew && step === 'personal') {
      void create();
      return;
    }
    sendWizard({ type: 'NEXT', valid });
    if (!valid)
      notify('accreditation.form.stepInvalid', { type: 'warning', autoHideDuration: TOAST_MS.wizard });
  };

  const last = step === WIZARD_STEPS[WIZARD_STEPS.length - 1];
  const missing = detail ? missingItems(detail[0], edits) : [];
  // Observed lines not corrected yet: no new value typed, no new file (a new file makes it pending).
  const uncorrected =
    status === 'O' && detail
      ? detail[0].filter((item) => item.EstadoAprobacion === 'O' && !(itemKey(item) in edits))
      : [];
  const holderLabel =
    entity === 'E'
      ? ((record?.Compania ?? session.profile()?.current.Compania) as string | undefined)
      : entity === 'P'
        ? (record?.MotivoVisita as string | undefined)
        : entity === 'T'
          ? [holder.Apellido, holder.Nombre].filter(Boolean).join(' ')
          : (holder.Placa as string | undefined);

  if (!requestMeta || (holdsContract(entity) && !holderMeta) || (entity === 'P' && !visitorMeta))
    return <Alert severity="error">{translate('accreditation.form.noAccess')}</Alert>;
  if (requestRules.isPending || holderRules.isLoading)
    return <LinearProgress aria-label={translate('ra.page.loading')} />;
  const disabled = !editable || Boolean(busy) || renewal;
  // What every step's form shares: the request's own fields, and the worker's or vehicle's.
  const shared = { mode: isNew ? ('create' as const) : ('edit' as const), record, errors, disabled };
  const headerForm = {
    ...shared,
    meta: requestMeta,
    value: header,
    onChange: (value: Data) => setHeader({ ...value, IdEntidad: entity }),
    rules: requestRules.data,
  };
  const holderForm = {
    ...shared,
    // Shown only once the holder's resource is known.
    meta: holderMeta as ResourceMeta,
    value: holder,
    onChange: setHolder,
    rules: holderRules.data,
  };

  return (
    <Stack spacing={2} sx={{ mt: 1 }} data-testid="request-form" data-status={status ?? 'new'}>
      <RequestHeading entity={entity} record={record} holder={holderLabel} detail={detail} />
      <Card>
        <Tabs
          value={step}
          onChange={(_event, value: WizardStep) => sendWizard({ type: 'GOTO', step: value })}
          variant="scrollable"
          scrollButtons="auto"
          aria-label={translate('accreditation.form.steps')}
        >
          {WIZARD_STEPS.map((s, index) => (
            <Tab
              key={s}
              value={s}
              label={`${index + 1}. ${translate(stepLabel(s, entity))}`}
              disabled={!snapshot.can({ type: 'GOTO', step: s }) && s !== step}
              data-step={s}
            />
          ))}
        </Tabs>
        {busy && <LinearProgress aria-label={translate('ra.page.loading')} />}
        <CardContent>
          <Box hidden={step !== 'general'}>
            <FieldsForm
              ref={forms.general}
              {...headerForm}
              fields={GENERAL[entity]}
              ui={{ IdPerfilAcreditacion: { 'ui:options': { filter: { IdEntidad: 'IdEntidad' } } } }}
              idPrefix="general"
            />
          </Box>
          <Box hidden={step !== 'personal'}>
            {entity === 'E' ? (
              <CompanyData record={record} />
            ) : entity === 'P' && visitorMeta ? (
              <Visitors
                ref={forms.personal}
                meta={visitorMeta}
                visitors={visitors}
                onChange={setVisitors}
                disabled={disabled}
                errors={errors}
              />
            ) : (
              holderMeta && (
                <Stack spacing={2}>
                  {entity === 'T' && (
                    <PhotoPicker
                      id="request-photo"
                      label={translate('accreditation.form.photo')}
                      value={photo ?? stored.data}
                      onChange={(value) => setPhoto(value)}
                      disabled={disabled}
                    />
                  )}
                  <KnownHolder entity={entity} known={known} />
                  <FieldsForm
                    ref={forms.personal}
                    {...holderForm}
                    fields={entity === 'T' ? steps.personal : VEHICLE_FIELDS}
                    idPrefix="personal"
                  />
                </Stack>
              )
            )}
          </Box>
          {step === 'requirements' &&
            (detail ? (
              <Requirements
                detail={detail}
                edits={edits}
                onEdit={(key, value) => {
                  setEdits((all) => ({ ...all, [key]: value }));
                  setProblems(({ [key]: _gone, ...rest }) => rest);
                }}
                problems={problems}
                editable={editable && !busy}
                onAttach={attach}
                onPreview={(item) =>
                  setPreview({
                    title: `${item.Requisito} · ${item.Text}`,
                    subtitle: holderLabel,
                    name: item.NombreArchivo ?? `${item.Requisito}.pdf`,
                    load: async () =>
                      (await accreditationApi.download(entity, item.IdSolicitud, item.IdSecuencial)).file,
                  })
                }
                visitorNames={visitorNames}
                uploading={busy?.startsWith('attach:') ? busy.slice(7) : undefined}
              />
            ) : (
              <Alert severity="info">{translate('accreditation.form.saveFirst')}</Alert>
            ))}
          <Box hidden={step !== 'additional'}>
            {entity === 'T' && holderMeta && (
              <FieldsForm
                ref={forms.additionalHolder}
                {...holderForm}
                fields={steps.additional}
                idPrefix="additionalHolder"
              />
            )}
            <FieldsForm ref={forms.additional} {...headerForm} fields={ADDITIONAL} idPrefix="additional" />
          </Box>
          {step === 'finalise' && (
            <Stack spacing={2} data-testid="finalise">
              {editable &&
                record &&
                (missing.length || uncorrected.length ? (
                  <>
                    {missing.length > 0 && (
                      <Alert severity="warning" data-testid="missing">
                        {translate('accreditation.form.missing', { smart_count: missing.length })}
                        <Box component="ul" sx={{ m: 0, pl: 3 }}>
                          {missing.map((item) => (
                            <li key={item.IdSecuencial}>
                              {item.Requisito} · {item.Text}
                              {item.IdVisitaPersona ? ` (${visitorNames[item.IdVisitaPersona] ?? ''})` : ''}
                            </li>
                          ))}
                        </Box>
                      </Alert>
                    )}
                    {uncorrected.length > 0 && (
                      <Alert severity="warning" data-testid="uncorrected">
                        {translate('accreditation.form.uncorrected', { smart_count: uncorrected.length })}
                        <Box component="ul" sx={{ m: 0, pl: 3 }}>
                          {uncorrected.map((item) => (
                            <li key={item.IdSecuencial}>
                              {item.Requisito} · {item.Text}: {item.Observacion}
                            </li>
                          ))}
                        </Box>
                      </Alert>
                    )}
                  </>
                ) : (
                  <Alert severity="success">{translate('accreditation.form.ready')}</Alert>
                ))}
              {record && <History rows={record.historial} />}
            </Stack>
          )}
        </CardContent>
        <Box
          sx={{
            display: 'flex',
            flexWrap: 'wrap',
            gap: 1,
            p: 2,
            pt: 0,
            justifyContent: 'flex-end',
            alignItems: 'center',
          }}
        >
          {deletable && (
            <Button
              color="error"
              startIcon={<DeleteIcon />}
              onClick={() => setConfirmDelete(true)}
              disabled={Boolean(busy)}
              sx={{ mr: 'auto' }}
            >
              {translate('ra.action.delete')}
            </Button>
          )}
          <Button component={Link} to={screenPath('solicitante', entity, undefined, record?.TipoSolicitud)}>
            {translate('ra.action.cancel')}
          </Button>
          <Button
            startIcon={<ArrowBackIcon />}
            onClick={() => sendWizard({ type: 'BACK' })}
            disabled={!snapshot.can({ type: 'BACK' })}
          >
            {translate('accreditation.form.back')}
          </Button>
          {record && editable && (
            <Button
              startIcon={<SaveIcon />}
              onClick={() => save()}
              disabled={Boolean(busy)}
              data-testid="save-request"
            >
              {translate('ra.action.save')}
            </Button>
          )}
          {!last && (
            <Button
              variant="contained"
              endIcon={<ArrowForwardIcon />}
              onClick={next}
              disabled={Boolean(busy)}
              data-testid="next-step"
            >
              {translate(
                isNew && step === 'personal'
                  ? 'accreditation.form.createAndContinue'
                  : 'accreditation.form.next',
              )}
            </Button>
          )}
          {last && record && editable && (
            <ReasonButton
              variant="contained"
              startIcon={<SendIcon />}
              onClick={submit}
              disabled={Boolean(busy)}
              reason={(missing.length
                ? translate('accreditation.form.missing', { smart_count: missing.length })
                : uncorrected.length
                  ? translate('accreditation.form.uncorrected', { smart_count: uncorrected.length })
                  : undefined
              )?.replace(/:\s*$/, '.')}
              data-testid="send-request"
            >
              {translate('accreditation.form.send')}
            </ReasonButton>
          )}
          {last && !(record && editable) && (
            <Button
              variant="contained"
              component={Link}
              to={screenPath('solicitante', entity, undefined, record?.TipoSolicitud)}
            >
              {translate('accreditation.form.return')}
            </Button>
          )}
        </Box>
      </Card>
      <PdfPreview file={preview} onClose={() => setPreview(undefined)} />
      <Dialog open={confirmDelete} onClose={() => setConfirmDelete(false)}>
        <DialogTitle>{translate('accreditation.form.deleteTitle')}</DialogTitle>
        <DialogContent>
          <DialogContentText>
            {translate('accreditation.form.deleteConfirm', { number: record?.NumeroSolicitud })}
          </DialogContentText>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setConfirmDelete(false)}>{translate('ra.action.cancel')}</Button>
          <Button color="error" onClick={remove} data-testid="confirm-delete">
            {translate('ra.action.delete')}
          </Button>
        </DialogActions>
      </Dialog>
    </Stack>
  );
}
