import {
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslate } from 'react-admin';
import { Refusal } from '../../components/Refusal.js';
import { diningApi, type LastMeal } from './api.js';

/** Shortest reason of a void the server takes. */
const MIN_REASON = 3;

/** Voids a meal served by mistake, with its reason (required); a refusal stays in the dialog. */
export function VoidDialog({ meal, onClose, onDone }: { meal: LastMeal; onClose(): void; onDone(): void }) {
  const translate = useTranslate();
  const text = (key: string, options?: Record<string, unknown>) =>
    translate(`dining.screens.void.${key}`, options);
  const [reason, setReason] = useState('');
  const [tried, setTried] = useState(false);
  const run = useMutation({
    mutationFn: () => diningApi.voidMeal(meal.IdConsumo, reason.trim()),
    onSuccess: onDone,
  });
  const short = reason.trim().length < MIN_REASON;
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm" aria-labelledby="void-dialog-title">
      <DialogTitle id="void-dialog-title">{text('title')}</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }} data-testid="void-dialog" data-meal={meal.IdConsumo}>
          <Typography variant="body2">
            {text('summary', {
              name: meal.Nombres ?? meal.Documento ?? '—',
              service: meal.Servicio ?? '—',
              time: meal.Hora.slice(0, 5),
            })}
          </Typography>
          <TextField
            id="void-reason"
            label={text('reason')}
            value={reason}
            onChange={(event) => setReason(event.target.value)}
            required
            multiline
            minRows={2}
            autoFocus
            error={tried && short}
            helperText={translate('dining.screens.minLength', { min: MIN_REASON })}
            slotProps={{ htmlInput: { maxLength: 300 } }}
          />
          <Refusal error={run.error} testId="void-refusal" />
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{translate('ra.action.cancel')}</Button>
        <Button
          variant="contained"
          color="error"
          disabled={run.isPending}
          onClick={() => {
            setTried(true);
            if (!short) run.mutate();
          }}
          data-testid="void-confirm"
        >
          {text('confirm')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
