import {
  Alert,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  FormControl,
  InputLabel,
  MenuItem,
  Select,
  Stack,
  TextField,
} from '@mui/material';
import { DatePicker } from '@mui/x-date-pickers/DatePicker';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslate } from 'react-admin';
import type { HolderRow } from '../../../shared/identification.js';
import { Refusal } from '../../components/Refusal.js';
import { formatDate } from '../../format.js';
import { DATE_FORMAT, DatesProvider, fromDate, toDate } from '../../resources/form/dates.js';
import { type Choice, identificationApi } from './api.js';

export type CredentialAction = 'issue' | 'reissue' | 'inactivate';

function Choose({
  id,
  label,
  value,
  choices,
  onChange,
  required = true,
}: {
  id: string;
  label: string;
  value: number | '';
  choices: Choice[] | undefined;
  onChange(value: number | ''): void;
  required?: boolean;
}) {
  return (
    <FormControl fullWidth required={required} size="small">
      <InputLabel id={`${id}-label`}>{label}</InputLabel>
      <Select
        labelId={`${id}-label`}
        id={id}
        label={label}
        value={choices ? value : ''}
        onChange={(event) => {
          const picked = event.target.value as number | '';
          onChange(picked === '' ? '' : Number(picked));
        }}
      >
        {(choices ?? []).map((c) => (
          <MenuItem key={c.id} value={c.id}>
            {c.name}
          </MenuItem>
        ))}
      </Select>
    </FormControl>
  );
}

/**
 * Issue, reissue or inactivate a person's credential: the credential type and the reason of issue
 * (issue, reissue), the reason of inactivation (reissue, inactivate), and the dates, which default
 * to today and the type's validity within the accreditation. A refusal is shown in the dialog.
 */
export function CredentialDialog({
  action,
  holder,
  onClose,
  onDone,
}: {
  action: CredentialAction;
  holder: HolderRow;
  onClose(): void;
  onDone(message: string): void;
}) {
  const translate = useTranslate();
  const issuing = action !== 'inactivate';
  const inactivating = action !== 'issue';
  const types = useQuery({
    queryKey: ['credential-types'],
    queryFn: identificationApi.types,
    enabled: issuing,
  });
  const issueReasons = useQuery({
    queryKey: ['identification-reasons', 'E'],
    queryFn: () => identificationApi.reasons('E'),
    enabled: issuing,
  });
  const endReasons = useQuery({
    queryKey: ['identification-reasons', 'I'],
    queryFn: () => identificationApi.reasons('I'),
    enabled: inactivating,
  });
  const [type, setType] = useState<number | ''>('');
  const [issueReason, setIssueReason] = useState<number | ''>('');
  const [endReason, setEndReason] = useState<number | ''>('');
  const [start, setStart] = useState<string | undefined>();
  const [end, setEnd] = useState<string | undefined>();
  const [numero, setNumero] = useState('');
  const [shown, setShown] = useState(false);
  const missing =
    (action === 'issue' && type === '') ||
    (issuing && issueReason === '') ||
    (inactivating && endReason === '');
  const save = useMutation({
    mutationFn: async () => {
      const dates = { ...(start && { FechaInicio: start }), ...(end && { FechaFin: end }) };
      if (action === 'issue')
        return identificationApi.issue({
          ...(holder.IdVehiculo ? { IdVehiculo: holder.IdVehiculo } : { IdPersona: holder.IdPersona }),
          IdTipoCredencial: type,
          IdMotivoEmision: issueReason,
          ...(numero.trim() && { Numero: numero.trim() }),
          ...dates,
        });
      const id = holder.IdCredencial as number;
      if (action === 'reissue')
        return identificationApi.reissue(id, {
          IdMotivoInactivacion: endReason,
          IdMotivoEmision: issueReason,
          ...(type !== '' && { IdTipoCredencial: type }),
          ...(numero.trim() && { Numero: numero.trim() }),
          ...dates,
        });
      return identificationApi.inactivate(id, { IdMotivoInactivacion: endReason });
    },
    onSuccess: (credential) =>
      onDone(translate(`identification.screen.done.${action}`, { number: String(credential.Numero ?? '') })),
  });
  const date = (
    id: string,
    label: string,
    value: string | undefined,
    set: (v: string | undefined) => void,
  ) => (
    <DatePicker
      label={label}
      format={DATE_FORMAT}
      value={toDate(value)}
      minDate={toDate(holder.AcreditacionInicio) ?? undefined}
      maxDate={toDate(holder.AcreditacionFin) ?? undefined}
      onChange={(v) => set(fromDate(v))}
      slotProps={{ textField: { id, size: 'small', fullWidth: true } }}
    />
  );
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm" aria-labelledby="credential-dialog-title">
      <DialogTitle id="credential-dialog-title">
        {translate(`identification.screen.${action}Title`, { name: holder.Nombres })}
      </DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }} data-testid="credential-dialog">
          {holder.Numero && (
            <Alert severity="info">
              {translate('identification.screen.current', {
                number: holder.Numero,
                type: holder.TipoCredencial ?? '',
                to: formatDate(holder.FechaFin),
              })}
            </Alert>
          )}
          {inactivating && (
            <Choose
              id="credential-end-reason"
              label={translate('identification.screen.endReason')}
              value={endReason}
              choices={endReasons.data}
              onChange={setEndReason}
            />
          )}
          {issuing && (
            <>
              <Choose
                id="credential-type"
                label={translate('resources.credential.fields.IdTipoCredencial')}
                value={type}
                choices={types.data}
                onChange={setType}
                required={action === 'issue'}
              />
              <Choose
                id="credential-issue-reason"
                label={translate('identification.screen.issueReason')}
                value={issueReason}
                choices={issueReasons.data}
                onChange={setIssueReason}
              />
              <DatesProvider>
                <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
                  {date(
                    'credential-start',
                    translate('resources.credential.fields.FechaInicio'),
                    start,
                    setStart,
                  )}
                  {date('credential-end', translate('resources.credential.fields.FechaFin'), end, setEnd)}
                </Stack>
              </DatesProvider>
              <TextField
                id="credential-number"
                size="small"
                label={translate('resources.credential.fields.Numero')}
                helperText={translate('identification.screen.numberHelp')}
                value={numero}
                onChange={(event) => setNumero(event.target.value.toUpperCase())}
                slotProps={{ htmlInput: { maxLength: 30 } }}
              />
              <Alert severity="info" variant="outlined">
                {translate('identification.screen.within', {
                  from: formatDate(holder.AcreditacionInicio),
                  to: formatDate(holder.AcreditacionFin),
                })}
              </Alert>
            </>
          )}
          {shown && missing && (
            <Alert severity="warning" data-testid="credential-missing">
              {translate('identification.screen.missing')}
            </Alert>
          )}
          <Refusal error={save.error} testId="credential-refusal" />
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{translate('ra.action.cancel')}</Button>
        <Button
          variant="contained"
          color={action === 'inactivate' ? 'error' : 'primary'}
          disabled={save.isPending}
          onClick={() => {
            setShown(true);
            if (!missing) save.mutate();
          }}
          data-testid="credential-save"
        >
          {translate(`identification.screen.${action}`)}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
