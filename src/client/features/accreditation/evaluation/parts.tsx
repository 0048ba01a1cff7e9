import AssignmentReturnIcon from '@mui/icons-material/AssignmentReturn';
import BlockIcon from '@mui/icons-material/Block';
import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import ReportProblemIcon from '@mui/icons-material/ReportProblem';
import SaveIcon from '@mui/icons-material/Save';
import {
  Box,
  Button,
  Checkbox,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  FormControl,
  FormControlLabel,
  InputLabel,
  MenuItem,
  Select,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import { useGetList, useTranslate } from 'react-admin';
import { Link } from 'react-router-dom';
import type { LineStatus } from '../../../../../workflows/requirement-approval.machine.js';
import { OBSERVATION_MAX_LENGTH } from '../../../../shared/constants.js';
import { ReasonButton } from '../../../components/ReasonButton.js';
import { type Item, screenPath } from '../api.js';
import { itemKey } from '../request/Requirements.js';
import type { Change, EvaluationState } from './useEvaluation.js';

/** A line's evaluation: its state among the options the authoriser has, and the observation it needs. */
export function LineControls({ form, item }: { form: EvaluationState; item: Item }) {
  const translate = useTranslate();
  const { pending, busy, problems } = form;
  const waits =
    pending && item.Espera?.length ? (
      <Typography variant="body2" color="text.secondary" data-waits={item.IdSecuencial}>
        {translate('accreditation.evaluation.waitsFor', { lines: item.Espera.join('; ') })}
      </Typography>
    ) : null;
  if (!pending || item.opciones.length === 0) return waits;
  const change = form.changes[item.IdSecuencial];
  const status = form.stateOf(item) as LineStatus;
  const set = (next: Partial<Change>) =>
    form.setChanges((all) => ({
      ...all,
      [item.IdSecuencial]: {
        EstadoAprobacion: status,
        Observacion: change?.Observacion ?? item.Observacion ?? '',
        ...next,
      },
    }));
  const labelId = `state-${item.IdSecuencial}`;
  const explains = status === 'O' || status === 'R';
  const unexplained = explains && !(change?.Observacion ?? '').trim() && Boolean(problems[itemKey(item)]);
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
      {(explains || change?.Observacion) && (
        <TextField
          size="small"
          fullWidth
          label={translate('accreditation.evaluation.observation')}
          value={change?.Observacion ?? item.Observacion ?? ''}
          onChange={(event) => set({ Observacion: event.target.value.toLocaleUpperCase('es') })}
          required={explains}
          error={unexplained}
          helperText={unexplained ? problems[itemKey(item)] : undefined}
          slotProps={{
            htmlInput: { maxLength: OBSERVATION_MAX_LENGTH, 'data-observation': item.IdSecuencial },
          }}
          disabled={busy}
        />
      )}
    </Stack>
  );
}

/** Back, save the lines, and the decisions on the whole request, each saying why it cannot be taken yet. */
export function DecisionBar({ form }: { form: EvaluationState }) {
  const translate = useTranslate();
  const { busy, record, whyNot, submit, setAsking } = form;
  return (
    <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, p: 2, pt: 0, justifyContent: 'flex-end' }}>
      <Button
        component={Link}
        to={screenPath('autorizador', form.entity, undefined, record.TipoSolicitud)}
        sx={{ mr: 'auto' }}
      >
        {translate('ra.action.back')}
      </Button>
      {form.pending && (
        <>
          <Button
            startIcon={<SaveIcon />}
            onClick={() => submit()}
            disabled={busy || !form.dirty}
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
            onClick={() => (form.allowed('OBSERVAR', false) ? submit('OBSERVAR') : setAsking('OBSERVAR'))}
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
  );
}

/**
 * The kind of indiscipline a rejection records against the worker, from the client's catalogue;
 * choosing one writes its name as the reason when none was typed.
 */
function IndisciplineKind({ form }: { form: EvaluationState }) {
  const translate = useTranslate();
  const { data = [] } = useGetList('indiscipline', {
    filter: { Activo: 'S' },
    pagination: { page: 1, perPage: 200 },
    sort: { field: 'Descripcion', order: 'ASC' },
  });
  return (
    <TextField
      select
      fullWidth
      margin="dense"
      label={translate('accreditation.evaluation.indisciplineKind')}
      value={form.indisciplineKind ?? ''}
      onChange={(event) => {
        const kind = data.find((k) => k.id === Number(event.target.value));
        form.setIndisciplineKind(kind ? Number(kind.id) : undefined);
        if (kind && !form.reason.trim()) form.setReason(String(kind.Descripcion));
      }}
      slotProps={{ htmlInput: { 'data-testid': 'indiscipline-kind' } }}
    >
      {data.map((kind) => (
        <MenuItem key={kind.id} value={kind.id}>
          {kind.Descripcion}
        </MenuItem>
      ))}
    </TextField>
  );
}

/** The reason a return, rejection or observation of the whole request needs (and a rejection's indiscipline). */
export function ReasonDialog({ form }: { form: EvaluationState }) {
  const translate = useTranslate();
  const { asking, setAsking, reason } = form;
  return (
    <Dialog
      open={Boolean(asking && asking !== 'APROBAR')}
      onClose={() => setAsking(undefined)}
      fullWidth
      maxWidth="sm"
    >
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
          onChange={(event) => form.setReason(event.target.value)}
          slotProps={{ htmlInput: { maxLength: OBSERVATION_MAX_LENGTH, 'data-testid': 'action-reason' } }}
          required
        />
        {asking === 'RECHAZAR' && (
          <FormControlLabel
            control={
              <Checkbox
                checked={form.indiscipline}
                onChange={(event) => form.setIndiscipline(event.target.checked)}
              />
            }
            label={translate('accreditation.evaluation.indiscipline')}
          />
        )}
        {asking === 'RECHAZAR' && form.indiscipline && <IndisciplineKind form={form} />}
      </DialogContent>
      <DialogActions>
        <Button onClick={() => setAsking(undefined)}>{translate('ra.action.cancel')}</Button>
        <Button
          variant="contained"
          onClick={() => asking && form.submit(asking)}
          disabled={form.busy || !reason.trim()}
          data-testid="confirm-action"
        >
          {translate('ra.action.confirm')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
