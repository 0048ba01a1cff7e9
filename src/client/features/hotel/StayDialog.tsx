import {
  Alert,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslate } from 'react-admin';
import type { LodgingTurn, ReservationState } from '../../../shared/hotel.js';
import { Refusal } from '../../components/Refusal.js';
import { formatDate } from '../../format.js';
import { hotelApi } from './api.js';
import { BedPicker } from './BedPicker.js';
import { StateChip, siteToday, TurnPick } from './fields.js';

/** A stay as its actions need it, from the reservations list or from the grid. */
export interface StaySummary {
  IdReserva: number;
  IdCampamento: number;
  IdCama: number;
  Cama: string;
  Persona: string;
  Documento: string;
  Compania: string | null;
  FechaInicio: string;
  FechaFin: string;
  Turno: LodgingTurn;
  Estado: ReservationState;
  Suspendida?: boolean;
}

export type StayAction = 'checkIn' | 'checkOut' | 'move' | 'cancel';

/** What a stay's state allows: a requester only cancels what is not checked in yet. */
export function stayActions(state: ReservationState, administrator: boolean): StayAction[] {
  if (state === 'R') return administrator ? ['checkIn', 'move', 'cancel'] : ['cancel'];
  if (state === 'I' && administrator) return ['checkOut', 'move'];
  return [];
}

/** Every screen that shows stays reads them again after one changes. */
export function useStaysChanged() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all(
      ['hotel-reservations', 'hotel-grid', 'hotel-free-beds', 'hotel-dashboard', 'hotel-occupancy'].map(
        (key) => queryClient.invalidateQueries({ queryKey: [key] }),
      ),
    );
}

/**
 * A stay and what can be done with it: check in (reserved), check out (checked in), move to another
 * bed free for the nights left, cancel (reserved, with an observation). Check-in and check-out go
 * at once; a move asks for the bed, a cancellation for its confirmation. A refusal stays in the
 * dialog.
 */
export function StayDialog({
  stay,
  administrator,
  initial,
  onClose,
  onDone,
}: {
  stay: StaySummary;
  administrator: boolean;
  /** The action to open with (a row's button); else the dialog offers them all. */
  initial?: StayAction;
  onClose(): void;
  onDone(message: string): void;
}) {
  const translate = useTranslate();
  const changed = useStaysChanged();
  const actions = stayActions(stay.Estado, administrator);
  const [action, setAction] = useState<StayAction | undefined>(initial);
  const [bed, setBed] = useState<number>();
  const [turn, setTurn] = useState<LodgingTurn>(stay.Turno);
  const [note, setNote] = useState('');
  const today = siteToday();
  const run = useMutation({
    mutationFn: async (chosen: StayAction) => {
      if (chosen === 'checkIn') return hotelApi.checkIn(stay.IdReserva);
      if (chosen === 'checkOut') return hotelApi.checkOut(stay.IdReserva);
      if (chosen === 'move') return hotelApi.move(stay.IdReserva, bed as number, turn);
      return hotelApi.cancel(stay.IdReserva, note.trim() || undefined);
    },
    onSuccess: async (_, chosen) => {
      await changed();
      onDone(translate(`hotel.screens.stay.done.${chosen}`, { name: stay.Persona }));
    },
  });
  const start = (chosen: StayAction) => {
    run.reset();
    if (chosen === 'checkIn' || chosen === 'checkOut') run.mutate(chosen);
    else setAction(chosen);
  };
  const from = stay.FechaInicio > today ? stay.FechaInicio : today;
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm" aria-labelledby="stay-dialog-title">
      <DialogTitle id="stay-dialog-title">{stay.Persona}</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }} data-testid="stay-dialog" data-reservation={stay.IdReserva}>
          <Stack direction="row" spacing={1} alignItems="center" flexWrap="wrap" useFlexGap>
            <StateChip state={stay.Estado} />
            <Typography variant="body2">
              {translate('hotel.screens.stay.summary', {
                document: stay.Documento,
                company: stay.Compania ?? '—',
                bed: stay.Cama,
                from: formatDate(stay.FechaInicio),
                to: formatDate(stay.FechaFin),
                turn: translate(`enums.lodgingTurn.${stay.Turno}`),
              })}
            </Typography>
          </Stack>
          {stay.Suspendida && (
            <Alert severity="warning" data-testid="stay-suspended">
              {translate('hotel.screens.grid.suspended')}
            </Alert>
          )}
          {!actions.length && <Alert severity="info">{translate('hotel.screens.stay.nothing')}</Alert>}
          {action === 'move' && (
            <>
              <BedPicker
                id="stay-move-bed"
                camp={stay.IdCampamento}
                from={from}
                to={stay.FechaFin}
                value={bed}
                onChange={setBed}
                except={stay.IdCama}
              />
              <TurnPick id="stay-move-turn" value={turn} onChange={setTurn} />
            </>
          )}
          {action === 'cancel' && (
            <TextField
              id="stay-cancel-note"
              size="small"
              label={translate('resources.reservation.fields.Observacion')}
              value={note}
              onChange={(event) => setNote(event.target.value)}
              slotProps={{ htmlInput: { maxLength: 300 } }}
            />
          )}
          <Refusal error={run.error} testId="stay-refusal" />
        </Stack>
      </DialogContent>
      <DialogActions sx={{ flexWrap: 'wrap', gap: 1 }}>
        <Button onClick={onClose}>{translate('ra.action.close')}</Button>
        {action ? (
          <Button
            variant="contained"
            color={action === 'cancel' ? 'error' : 'primary'}
            disabled={run.isPending || !actions.includes(action) || (action === 'move' && !bed)}
            onClick={() => run.mutate(action)}
            data-testid="stay-confirm"
          >
            {translate(`hotel.screens.stay.confirm.${action}`)}
          </Button>
        ) : (
          actions.map((a) => (
            <Button
              key={a}
              variant={a === 'checkIn' || a === 'checkOut' ? 'contained' : 'outlined'}
              color={a === 'cancel' ? 'error' : 'primary'}
              disabled={run.isPending}
              onClick={() => start(a)}
              data-action={a}
            >
              {translate(`hotel.screens.stay.actions.${a}`)}
            </Button>
          ))
        )}
      </DialogActions>
    </Dialog>
  );
}
