import {
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  FormControlLabel,
  Stack,
  Switch,
  TextField,
} from '@mui/material';
import { useMutation } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { useTranslate } from 'react-admin';
import { Refusal } from '../../components/Refusal.js';
import { type Booking, inductionApi } from './api.js';
import { scoreProblem } from './BookingResults.js';

/** A reason is at least this long (the server's rule). */
const REASON_MIN = 3;

/** A dialog that asks for a reason before it does what it says; its refusal stays in it. */
function ReasonDialog({
  id,
  title,
  intro,
  confirm,
  pending,
  error,
  extra,
  ready = true,
  onConfirm,
  onClose,
}: {
  id: string;
  title: string;
  intro: string;
  confirm: string;
  pending: boolean;
  error: unknown;
  extra?: ReactNode;
  ready?: boolean;
  onConfirm(reason: string): void;
  onClose(): void;
}) {
  const translate = useTranslate();
  const [reason, setReason] = useState('');
  const enough = reason.trim().length >= REASON_MIN;
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="xs" aria-labelledby={`${id}-title`}>
      <DialogTitle id={`${id}-title`}>{title}</DialogTitle>
      <DialogContent>
        <Stack spacing={2} data-testid={id}>
          <DialogContentText>{intro}</DialogContentText>
          {extra}
          <TextField
            id={`${id}-reason`}
            label={translate('induction.screens.session.reason')}
            value={reason}
            onChange={(event) => setReason(event.target.value)}
            multiline
            minRows={2}
            required
            slotProps={{ htmlInput: { maxLength: 300 } }}
          />
          <Refusal error={error} testId={`${id}-refusal`} />
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{translate('induction.screens.session.dismiss')}</Button>
        <Button
          variant="contained"
          color="warning"
          disabled={pending || !enough || !ready}
          onClick={() => onConfirm(reason.trim())}
          data-testid={`${id}-confirm`}
        >
          {confirm}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

/** Cancelling a scheduled session, with the reason its booked people are told by mail. */
export function CancelSessionDialog({
  sessionId,
  onClose,
  onDone,
}: {
  sessionId: number;
  onClose(): void;
  onDone(): void;
}) {
  const translate = useTranslate();
  const cancel = useMutation({
    mutationFn: (reason: string) => inductionApi.cancel(sessionId, reason),
    onSuccess: onDone,
  });
  return (
    <ReasonDialog
      id="cancel-session"
      title={translate('induction.screens.session.cancelTitle')}
      intro={translate('induction.screens.session.cancelText')}
      confirm={translate('induction.screens.session.cancel')}
      pending={cancel.isPending}
      error={cancel.error}
      onConfirm={(reason) => cancel.mutate(reason)}
      onClose={onClose}
    />
  );
}

/** An administrator's change of a closed session's result: attendance, score and the reason (audited). */
export function AmendResultDialog({
  booking,
  onClose,
  onDone,
}: {
  booking: Booking;
  onClose(): void;
  onDone(): void;
}) {
  const translate = useTranslate();
  const text = (key: string, options?: object) => translate(`induction.screens.session.${key}`, options);
  const [attended, setAttended] = useState(booking.Asistio === 'S');
  const [score, setScore] = useState(booking.Nota === null ? '' : String(booking.Nota));
  const amend = useMutation({
    mutationFn: (Motivo: string) =>
      inductionApi.amend(booking.IdInscripcion, {
        Asistio: attended ? 'S' : 'N',
        Nota: attended && score.trim() !== '' ? Number(score) : null,
        Motivo,
      }),
    onSuccess: onDone,
  });
  const wrong = scoreProblem(score);
  return (
    <ReasonDialog
      id="amend-result"
      title={text('amendTitle', { name: booking.Persona })}
      intro={text('amendText')}
      confirm={text('amend')}
      pending={amend.isPending}
      error={amend.error}
      ready={!wrong}
      extra={
        <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
          <FormControlLabel
            control={<Switch checked={attended} onChange={(event) => setAttended(event.target.checked)} />}
            label={text('attended')}
          />
          <TextField
            id="amend-result-score"
            size="small"
            label={text('score')}
            value={score}
            disabled={!attended}
            onChange={(event) => setScore(event.target.value)}
            error={wrong}
            helperText={wrong ? text('scoreRange') : undefined}
            slotProps={{ htmlInput: { inputMode: 'numeric', maxLength: 3 } }}
            sx={{ width: 120 }}
          />
        </Stack>
      }
      onConfirm={(reason) => amend.mutate(reason)}
      onClose={onClose}
    />
  );
}
