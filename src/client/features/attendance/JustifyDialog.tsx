import { Button, Dialog, DialogActions, DialogContent, DialogTitle, Stack, TextField } from '@mui/material';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslate } from 'react-admin';
import { Pick } from '../../components/fields.js';
import { Refusal } from '../../components/Refusal.js';
import { attendanceApi } from './api.js';
import { JustificationPick, useJustifications } from './JustificationPick.js';

type Kind = 'F' | 'T' | 'H';

/**
 * A supervisor justifies a person's day: the justification of the client's catalogue, what it
 * covers (an absence, a late entry, hours), the hours for a late entry or hours, and an
 * observation. The server keeps the justification's rules; a refusal stays in the dialog with its
 * message.
 */
export function JustifyDialog({
  person,
  day,
  suggested,
  onClose,
  onDone,
}: {
  person: number;
  day: string;
  /** What the day calls for: an absence's, a late entry's. */
  suggested: Kind;
  onClose(): void;
  onDone(): void;
}) {
  const translate = useTranslate();
  const text = (key: string, options?: Record<string, unknown>) =>
    translate(`attendance.justify.${key}`, options);
  const catalogue = useJustifications();
  const [justification, setJustification] = useState<number | ''>('');
  const [kind, setKind] = useState<Kind | ''>(suggested);
  const [hours, setHours] = useState('');
  const [observation, setObservation] = useState('');
  const chosen = catalogue.data?.find((j) => j.IdJustificacion === justification);
  const save = useMutation({
    mutationFn: () =>
      attendanceApi.justify({
        IdPersona: person,
        IdJustificacion: justification as number,
        Fecha: day,
        Tipo: kind as Kind,
        ...(kind !== 'F' && hours.trim() !== '' && { Horas: Number(hours) }),
        ...(observation.trim() && { Observacion: observation.trim() }),
      }),
    onSuccess: onDone,
  });
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm" aria-labelledby="justify-dialog-title">
      <DialogTitle id="justify-dialog-title">
        {text('title', { day: `${day.slice(8)}/${day.slice(5, 7)}/${day.slice(0, 4)}` })}
      </DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }} data-testid="justify-dialog">
          <JustificationPick id="justify-justification" value={justification} onChange={setJustification} />
          <Pick
            id="justify-kind"
            label={text('kind')}
            value={kind}
            options={(['F', 'T', 'H'] as const).map((k) => ({
              value: k,
              label: translate(`enums.justificationKind.${k}`),
            }))}
            onChange={setKind}
            width="100%"
            required
          />
          {kind !== 'F' && (
            <TextField
              id="justify-hours"
              size="small"
              type="number"
              label={text('hours')}
              value={hours}
              onChange={(event) => setHours(event.target.value)}
              helperText={chosen?.HorasMaximo != null ? `≤ ${chosen.HorasMaximo}` : undefined}
              slotProps={{ htmlInput: { min: 0, max: 24, step: 0.25 } }}
            />
          )}
          <TextField
            id="justify-observation"
            label={text('observation')}
            value={observation}
            onChange={(event) => setObservation(event.target.value)}
            required={chosen?.RequiereObservacion === 'S'}
            multiline
            minRows={2}
            slotProps={{ htmlInput: { maxLength: 500 } }}
          />
          <Refusal error={catalogue.error ?? save.error} testId="justify-refusal" />
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{translate('ra.action.cancel')}</Button>
        <Button
          variant="contained"
          disabled={save.isPending || justification === '' || kind === ''}
          onClick={() => {
            save.reset();
            save.mutate();
          }}
          data-testid="justify-save"
        >
          {text('save')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
