import {
  Alert,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Stack,
  TextField,
} from '@mui/material';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslate } from 'react-admin';
import { Pick } from '../../components/fields.js';
import { Refusal } from '../../components/Refusal.js';
import { type DiningRoomChoice, diningApi, type MealRegistered } from './api.js';

/** Shortest observation of a meal by hand the server takes. */
const MIN_OBSERVATION = 3;

/**
 * Registers a meal by hand (a reader was down): the service of the room, the person's document and
 * why (required). The reader's rules apply; a refusal (409) stays in the dialog with its reason.
 */
export function ManualMealDialog({
  room,
  initialService,
  onClose,
  onDone,
}: {
  room: DiningRoomChoice;
  initialService?: number;
  onClose(): void;
  onDone(meal: MealRegistered): void;
}) {
  const translate = useTranslate();
  const text = (key: string) => translate(`dining.screens.manual.${key}`);
  const services = room.servicios.filter((s) => s.Activo === 'S');
  const [service, setService] = useState<number | ''>(initialService ?? '');
  const [document, setDocument] = useState('');
  const [observation, setObservation] = useState('');
  const [tried, setTried] = useState(false);
  const run = useMutation({
    mutationFn: () =>
      diningApi.register({
        IdComedor: room.IdComedor,
        IdServicio: service as number,
        Documento: document.trim(),
        Observacion: observation.trim(),
      }),
    onSuccess: onDone,
  });
  const missing = {
    service: service === '',
    document: !document.trim(),
    observation: observation.trim().length < MIN_OBSERVATION,
  };
  const save = () => {
    setTried(true);
    run.reset();
    if (!Object.values(missing).some(Boolean)) run.mutate();
  };
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm" aria-labelledby="manual-dialog-title">
      <DialogTitle id="manual-dialog-title">{text('title')}</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }} data-testid="manual-dialog">
          <Pick
            id="manual-service"
            label={text('service')}
            value={service}
            options={services.map((s) => ({
              value: s.IdServicio,
              label: `${s.Descripcion} (${s.HoraInicio}–${s.HoraFin})`,
            }))}
            onChange={setService}
            width="100%"
            required
          />
          <TextField
            id="manual-document"
            size="small"
            label={text('document')}
            value={document}
            onChange={(event) => setDocument(event.target.value)}
            required
            error={tried && missing.document}
            slotProps={{ htmlInput: { maxLength: 20, autoComplete: 'off' } }}
          />
          <TextField
            id="manual-observation"
            label={text('observation')}
            value={observation}
            onChange={(event) => setObservation(event.target.value)}
            required
            multiline
            minRows={2}
            error={tried && missing.observation}
            helperText={text('observationHelp')}
            slotProps={{ htmlInput: { maxLength: 500 } }}
          />
          {tried && missing.service && <Alert severity="warning">{text('serviceRequired')}</Alert>}
          <Refusal error={run.error} testId="manual-refusal" />
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{translate('ra.action.cancel')}</Button>
        <Button variant="contained" disabled={run.isPending} onClick={save} data-testid="manual-save">
          {text('save')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
