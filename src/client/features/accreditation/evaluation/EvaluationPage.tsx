import AssignmentReturnIcon from '@mui/icons-material/AssignmentReturn';
import BlockIcon from '@mui/icons-material/Block';
import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import ReportProblemIcon from '@mui/icons-material/ReportProblem';
import SaveIcon from '@mui/icons-material/Save';
import {
  Alert,
  Avatar,
  Box,
  Button,
  Card,
  CardContent,
  Checkbox,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  FormControl,
  FormControlLabel,
  InputLabel,
  LinearProgress,
  MenuItem,
  Select,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNotify, useTranslate } from 'react-admin';
import { Link, useNavigate, useParams } from 'react-router-dom';
import {
  REQUEST_REFUSALS,
  type RequestEvent,
  requestMachine,
} from '../../../../../workflows/request.machine.js';
import type { LineStatus } from '../../../../../workflows/requirement-approval.machine.js';
import { COMPANY_FIELDS, type EntityCode } from '../../../../shared/accreditation.js';
import { OBSERVATION_MAX_LENGTH } from '../../../../shared/constants.js';
import { ReasonButton } from '../../../components/ReasonButton.js';
import { formatDate } from '../../../format.js';
import { useConsoleTitle } from '../../../resources/ScreenTitle.js';
import { ApiRequestError } from '../../../session/http.js';
import {
  accreditationApi,
  type Detail,
  type Item,
  KIND_OF_SEGMENT,
  type LineEvaluation,
  type RequestAction,
  type RequestRecord,
  screenPath,
} from '../api.js';
import { History } from '../request/History.js';
import PdfPreview, { type PreviewFile } from '../request/PdfPreview.js';
import { RequestHeading } from '../request/RequestHeading.js';
import { itemKey, Requirements, shownValue, valueProblem } from '../request/Requirements.js';

/** /movilizacion/autorizador/:kind/:id: a request evaluated requirement by requirement. */
export default function EvaluationPage() {
  const { kind = 'persona', id } = useParams();
  const entity = KIND_OF_SEGMENT[kind] as EntityCode;
  const requestId = Number(id);
  const translate = useTranslate();
  const record = useQuery({
    queryKey: ['accreditation', 'record', 'autorizador', requestId],
    queryFn: () => accreditationApi.record('autorizador', requestId),
  });
  const detail = useQuery({
    queryKey: ['accreditation', 'detail', 'autorizador', requestId],
    queryFn: () => accreditationApi.detail('autorizador', entity, requestId),
  });
  if (record.isError || detail.isError)
    return (
      <Alert
        severity="error"
        sx={{ mt: 2 }}
        action={
          <Button component={Link} to={screenPath('autorizador', entity)}>
            {translate('ra.action.back')}
          </Button>
        }
      >
        {(record.error ?? detail.error)?.message}
      </Alert>
    );
  if (!record.data || !detail.data)
    return <LinearProgress sx={{ mt: 2 }} aria-label={translate('ra.page.loading')} />;
  return (
    <Evaluation
      key={`${requestId}:${record.dataUpdatedAt}`}
      entity={entity}
      record={record.data}
      detail={detail.data}
    />
  );
}

type Change = { EstadoAprobacion: LineStatus; Observacion: string };

/** The holder as the authoriser checks it: photo, document and names, or the vehicle's data. */
function Holder({ entity, record }: { entity: EntityCode; record: RequestRecord }) {
  const translate = useTranslate();
  const photo = useQuery({
    queryKey: ['accreditation', 'photo', record.IdSolicitud, record.ClaveFoto],
    queryFn: async () => {
      const file = await accreditationApi.photo(record.IdSolicitud);
      return `data:image/${file.file.startsWith('/9j') ? 'jpeg' : 'png'};base64,${file.file}`;
    },
    enabled: Boolean(record.ClaveFoto),
  });
  const fields =
    entity === 'T'
      ? [
          'Documento',
          'Apellido',
          'Nombre',
          'FechaNacimiento',
          'TelefonoMovil',
          'Email',
          'NumeroLicenciaConducir',
        ]
      : entity === 'V'
        ? ['Placa', 'Modelo', 'Serie', 'Anio', 'NumeroPasajeros']
        : entity === 'E'
          ? [...COMPANY_FIELDS]
          : ['MotivoVisita', 'NumeroVisitantes'];
  const resource = { T: 'person', V: 'vehicle', E: 'company', P: 'request' }[entity];
  return (
    <Card variant="outlined">
      <CardContent sx={{ display: 'flex', gap: 2, flexWrap: 'wrap' }}>
        {entity === 'T' && (
          <Avatar
            variant="rounded"
            src={photo.data}
            alt={translate('accreditation.form.photo')}
            sx={{ width: 90, height: 96 }}
          />
        )}
        <Box
          component="dl"
          sx={{
            m: 0,
            flex: 1,
            display: 'grid',
            gridTemplateColumns: { xs: '1fr', sm: 'repeat(3, minmax(0, 1fr))' },
            gap: 1,
          }}
        >
          {fields.map((field) => (
            <div key={field}>
              <Typography component="dt" variant="caption" color="text.secondary">
                {translate(`resources.${resource}.fields.${field}`)}
              </Typography>
              <Typography component="dd" variant="body2" sx={{ m: 0 }}>
                {field.startsWith('Fecha') ? formatDate(record[field]) : String(record[field] ?? '—')}
              </Typography>
            </div>
          ))}
        </Box>
        {entity === 'P' && (
          <Box sx={{ flexBasis: '100%' }}>
            <Typography variant="subtitle2" component="h2">
              {translate('accreditation.form.visitors')}
            </Typography>
            <Box component="ul" sx={{ m: 0, pl: 3 }}>
              {(record.Visitantes ?? []).map((v) => (
                <li key={v.IdVisitaPersona}>
                  {v.Documento} · {v.Apellido} {v.Nombre}
                </li>
              ))}
            </Box>
          </Box>
        )}
      </CardContent>
    </Card>
  );
}

function Evaluation({
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
  const [preview, setPreview] = useState<PreviewFile>();
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
  const can = (event: RequestEvent) => pending && snapshot.can(event);
  const EVENTS: Record<RequestAction, RequestEvent['type']> = {
    APROBAR: 'APPROVE',
    OBSERVAR: 'OBSERVE',
    RECHAZAR: 'REJECT',
    DEVOLVER: 'RETURN',
  };
  const allowed = (action: RequestAction, withReason: boolean) =>
    can({ type: EVENTS[action], ...(withReason ? { reason: 'x' } : {}) } as RequestEvent);
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

  const check = (): boolean => {
    const found: Record<string, string> = {};
    for (const item of items) {
      const change = changes[item.IdSecuencial];
      if (
        change &&
        (change.EstadoAprobacion === 'O' || change.EstadoAprobacion === 'R') &&
        !change.Observacion.trim()
      )
        found[itemKey(item)] = translate('accreditation.refusals.observationRequired');
      const problem =
        itemKey(item) in edits ? valueProblem(item, shownValue(item, edits), detail[3]) : undefined;
      if (problem) found[itemKey(item)] = translate(problem.messageKey, problem.params);
    }
    setProblems(found);
    if (Object.keys(found).length) notify('accreditation.form.stepInvalid', { type: 'warning' });
    // The first line observed or rejected without its observation: its field, in view and focused.
    const missing = items.find((item) => {
      const change = changes[item.IdSecuencial];
      return (
        change &&
        (change.EstadoAprobacion === 'O' || change.EstadoAprobacion === 'R') &&
        !change.Observacion.trim()
      );
    });
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

  const evaluation = (item: Item) => {
    const waits =
      pending && item.Espera?.length ? (
        <Typography variant="body2" color="text.secondary" data-waits={item.IdSecuencial}>
          {translate('accreditation.evaluation.waitsFor', { lines: item.Espera.join('; ') })}
        </Typography>
      ) : null;
    if (!pending || item.opciones.length === 0) return waits;
    const change = changes[item.IdSecuencial];
    const status = stateOf(item) as LineStatus;
    const set = (next: Partial<Change>) =>
      setChanges((all) => ({
        ...all,
        [item.IdSecuencial]: {
          EstadoAprobacion: status,
          Observacion: change?.Observacion ?? item.Observacion ?? '',
          ...next,
        },
      }));
    const labelId = `state-${item.IdSecuencial}`;
    return (
      <Stack
        direction={{ xs: 'column', sm: 'row' }}
        spacing={1}
        className="evaluation"
        data-evaluate={item.IdSecuencial}
      >
        <FormControl size="small" sx={{ minWidth: 160 }} disabled={item.opciones.length <= 1 || busy}>
          <InputLabel id={labelId}>{translate('accreditation.evaluation.state')}</InputLabel>
          <Select
            labelId={labelId}
            label={translate('accreditation.evaluation.state')}
            value={status}
            onChange={(event) => set({ EstadoAprobacion: event.target.value as LineStatus })}
            inputProps={{ 'data-state-select': item.IdSecuencial }}
          >
            {item.opciones.map((option) => (
              <MenuItem key={option} value={option} data-option={option}>
                {translate(`enums.approvalStatus.${option}`)}
              </MenuItem>
            ))}
          </Select>
        </FormControl>
        {waits}
        {(status === 'O' || status === 'R' || change?.Observacion) && (
          <TextField
            size="small"
            fullWidth
            label={translate('accreditation.evaluation.observation')}
            value={change?.Observacion ?? item.Observacion ?? ''}
            onChange={(event) => set({ Observacion: event.target.value.toLocaleUpperCase('es') })}
            required={status === 'O' || status === 'R'}
            error={
              (status === 'O' || status === 'R') &&
              !(change?.Observacion ?? '').trim() &&
              Boolean(problems[itemKey(item)])
            }
            helperText={
              (status === 'O' || status === 'R') &&
              !(change?.Observacion ?? '').trim() &&
              problems[itemKey(item)]
                ? problems[itemKey(item)]
                : undefined
            }
            slotProps={{
              htmlInput: { maxLength: OBSERVATION_MAX_LENGTH, 'data-observation': item.IdSecuencial },
            }}
            disabled={busy}
          />
        )}
      </Stack>
    );
  };

  const holder =
    entity === 'T'
      ? [record.Apellido, record.Nombre].filter(Boolean).join(' ')
      : entity === 'V'
        ? String(record.Placa ?? '')
        : String((entity === 'E' ? record.Compania : record.MotivoVisita) ?? '');
  const needsReason = asking && asking !== 'APROBAR';
  const dirty = Object.keys(changes).length > 0 || Object.keys(edits).length > 0;
  return (
    <Stack spacing={2} sx={{ mt: 1 }} data-testid="evaluation" data-status={record.EstadoAprobacion}>
      <RequestHeading entity={entity} record={record} holder={holder} detail={detail} />
      {!pending && <Alert severity="info">{translate('accreditation.evaluation.notPending')}</Alert>}
      <Holder entity={entity} record={record} />
      <Card>
        {busy && <LinearProgress aria-label={translate('ra.page.loading')} />}
        <CardContent>
          <Requirements
            detail={detail}
            edits={edits}
            onEdit={(key, value) => setEdits((all) => ({ ...all, [key]: value }))}
            problems={problems}
            editable={pending && !busy}
            canType={(item) => item.TipoRequisito === 'A' && !item.readOnly}
            onPreview={(item) =>
              setPreview({
                title: `${item.Requisito} · ${item.Text}`,
                subtitle: holder,
                name: item.NombreArchivo ?? `${item.Requisito}.pdf`,
                load: async () =>
                  (await accreditationApi.download(entity, item.IdSolicitud, item.IdSecuencial)).file,
              })
            }
            visitorNames={Object.fromEntries(
              (record.Visitantes ?? []).map((v) => [
                v.IdVisitaPersona,
                `${v.Apellido ?? ''} ${v.Nombre ?? ''}`.trim(),
              ]),
            )}
            extra={evaluation}
          />
        </CardContent>
        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, p: 2, pt: 0, justifyContent: 'flex-end' }}>
          <Button
            component={Link}
            to={screenPath('autorizador', entity, undefined, record.TipoSolicitud)}
            sx={{ mr: 'auto' }}
          >
            {translate('ra.action.back')}
          </Button>
          {pending && (
            <>
              <Button
                startIcon={<SaveIcon />}
                onClick={() => submit()}
                disabled={busy || !dirty}
                data-testid="save-evaluation"
              >
                {translate('accreditation.evaluation.save')}
              </Button>
              <ReasonButton
                startIcon={<AssignmentReturnIcon />}
                onClick={() => setAsking('DEVOLVER')}
                disabled={busy}
                reason={whyNot('DEVOLVER')}
                data-action="DEVOLVER"
              >
                {translate('accreditation.evaluation.actions.DEVOLVER')}
              </ReasonButton>
              <ReasonButton
                color="error"
                startIcon={<BlockIcon />}
                onClick={() => setAsking('RECHAZAR')}
                disabled={busy}
                reason={whyNot('RECHAZAR')}
                data-action="RECHAZAR"
              >
                {translate('accreditation.evaluation.actions.RECHAZAR')}
              </ReasonButton>
              <ReasonButton
                color="warning"
                variant="outlined"
                startIcon={<ReportProblemIcon />}
                onClick={() => (allowed('OBSERVAR', false) ? submit('OBSERVAR') : setAsking('OBSERVAR'))}
                disabled={busy}
                reason={whyNot('OBSERVAR')}
                data-action="OBSERVAR"
              >
                {translate('accreditation.evaluation.actions.OBSERVAR')}
              </ReasonButton>
              <ReasonButton
                variant="contained"
                color="success"
                startIcon={<CheckCircleIcon />}
                onClick={() => submit('APROBAR')}
                disabled={busy}
                reason={whyNot('APROBAR')}
                data-action="APROBAR"
              >
                {translate('accreditation.evaluation.actions.APROBAR')}
              </ReasonButton>
            </>
          )}
        </Box>
      </Card>
      <Card>
        <CardContent>
          <History rows={record.historial} />
        </CardContent>
      </Card>
      <PdfPreview file={preview} onClose={() => setPreview(undefined)} />
      <Dialog open={Boolean(needsReason)} onClose={() => setAsking(undefined)} fullWidth maxWidth="sm">
        <DialogTitle>{asking && translate(`accreditation.evaluation.actions.${asking}`)}</DialogTitle>
        <DialogContent>
          <TextField
            autoFocus
            fullWidth
            multiline
            minRows={3}
            margin="dense"
            label={translate('accreditation.evaluation.reason')}
            value={reason}
            onChange={(event) => setReason(event.target.value)}
            slotProps={{ htmlInput: { maxLength: OBSERVATION_MAX_LENGTH, 'data-testid': 'action-reason' } }}
            required
          />
          {asking === 'RECHAZAR' && (
            <FormControlLabel
              control={
                <Checkbox
                  checked={indiscipline}
                  onChange={(event) => setIndiscipline(event.target.checked)}
                />
              }
              label={translate('accreditation.evaluation.indiscipline')}
            />
          )}
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setAsking(undefined)}>{translate('ra.action.cancel')}</Button>
          <Button
            variant="contained"
            onClick={() => asking && submit(asking)}
            disabled={busy || !reason.trim()}
            data-testid="confirm-action"
          >
            {translate('ra.action.confirm')}
          </Button>
        </DialogActions>
      </Dialog>
    </Stack>
  );
}
