import {
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Stack,
  type Theme,
  useMediaQuery,
} from '@mui/material';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslate } from 'react-admin';
import { addDays, daysBetween, isIsoDate } from '../../../shared/dates.js';
import { DateInput } from '../../components/fields.js';
import { type GridColumn, LocalGrid, personColumn } from '../../components/grid/Grid.js';
import { Refusal } from '../../components/Refusal.js';
import { formatDate } from '../../format.js';
import { type ReleasedSeat, transportApi } from './api.js';

const dated = (v: string | undefined): v is string => Boolean(v && isIsoDate(v));

/** The columns of the released seats: who, of which company, which trip and seat, and why. */
function useColumns(): GridColumn<ReleasedSeat>[] {
  const translate = useTranslate();
  const text = (key: string) => translate(`transport.screens.released.${key}`);
  return [
    personColumn<ReleasedSeat>(text('person')),
    { id: 'Compania', label: text('company') },
    { id: 'Viaje', label: text('trip'), render: (r) => `${formatDate(r.Fecha)} ${r.Hora} · ${r.Ruta}` },
    { id: 'Asiento', label: text('seat'), align: 'right' },
    {
      id: 'Motivo',
      label: text('reason'),
      render: (r) => (
        <span data-reason={r.Motivo}>{translate(`transport.released.${r.Motivo}`, { _: r.Motivo })}</span>
      ),
    },
  ];
}

/** Who lost a seat in a period (from the screen's day, a month on unless changed), and why. */
export function ReleasedDialog({ from: start, onClose }: { from: string; onClose(): void }) {
  const translate = useTranslate();
  const text = (key: string) => translate(`transport.screens.released.${key}`);
  const phone = useMediaQuery<Theme>((theme) => theme.breakpoints.down('md'), { noSsr: true });
  const columns = useColumns();
  const [from, setFrom] = useState<string | undefined>(start);
  const [to, setTo] = useState<string | undefined>(addDays(start, 30));
  const ready = dated(from) && dated(to) && daysBetween(from, to) >= 0;
  const released = useQuery({
    queryKey: ['transport-released', from, to],
    queryFn: () => transportApi.released(from as string, to as string),
    enabled: ready,
    placeholderData: keepPreviousData,
  });
  return (
    <Dialog
      open
      onClose={onClose}
      fullWidth
      maxWidth="lg"
      fullScreen={phone}
      aria-labelledby="released-title"
    >
      <DialogTitle id="released-title">{text('title')}</DialogTitle>
      <DialogContent dividers>
        <Stack spacing={2}>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
            <DateInput id="released-from" label={text('from')} value={from} onChange={setFrom} />
            <DateInput id="released-to" label={text('to')} value={to} onChange={setTo} min={from} />
          </Stack>
          <Refusal error={released.error} />
          <LocalGrid
            label={text('title')}
            columns={columns}
            rows={ready ? released.data : []}
            perPage={20}
            rowKey={(r) => r.IdReserva}
            empty={text('none')}
            testId="released-seats"
          />
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{translate('ra.action.close')}</Button>
      </DialogActions>
    </Dialog>
  );
}
