import {
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  type Theme,
  Typography,
  useMediaQuery,
} from '@mui/material';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslate } from 'react-admin';
import { Refusal } from '../../components/Refusal.js';
import { formatDate } from '../../format.js';
import { seatsApi, type Traveller, type TripDetail } from './api.js';
import { PeopleFinder } from './PeopleFinder.js';

/** Who holds a live seat on the trip already, with the seat. */
export function seatedOn(trip: TripDetail, say: (seat: number) => string): Map<number, string> {
  return new Map(
    trip.reservas
      .filter((s) => s.Estado === 'R' || s.Estado === 'A')
      .map((s) => [s.IdPersona, say(s.Asiento)]),
  );
}

/** The coordinator books people on a trip: found by name or document, all ticked booked or none. */
export function BookDialog({
  trip,
  onClose,
  onBooked,
}: {
  trip: TripDetail;
  onClose(): void;
  onBooked(count: number): void;
}) {
  const translate = useTranslate();
  const text = (key: string, options?: object) => translate(`transport.screens.book.${key}`, options);
  const phone = useMediaQuery<Theme>((theme) => theme.breakpoints.down('sm'), { noSsr: true });
  const [chosen, setChosen] = useState<Map<number, Traveller>>(new Map());
  const book = useMutation({
    mutationFn: () => seatsApi.book(trip.IdViaje, [...chosen.keys()]),
    onSuccess: (done) => onBooked(done.reservados.length),
  });
  return (
    <Dialog open onClose={onClose} fullScreen={phone} fullWidth maxWidth="sm" aria-labelledby="book-title">
      <DialogTitle id="book-title">
        {text('title')}
        <Typography component="span" variant="body2" color="text.secondary" sx={{ display: 'block' }}>
          {`${trip.RutaCodigo} · ${formatDate(trip.Fecha)} ${trip.Hora} · `}
          {translate('transport.screens.common.free', { smart_count: trip.Asientos - trip.Reservados })}
        </Typography>
      </DialogTitle>
      <DialogContent dividers>
        <PeopleFinder
          day={trip.Fecha}
          minLetters={2}
          chosen={chosen}
          blocked={seatedOn(trip, (seat) => text('seated', { seat }))}
          onChange={(next) => {
            book.reset();
            setChosen(next);
          }}
        />
        <Refusal error={book.error} testId="book-refusal" sx={{ mt: 2 }} />
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{translate('ra.action.cancel')}</Button>
        <Button
          variant="contained"
          disabled={chosen.size === 0 || book.isPending}
          onClick={() => book.mutate()}
          data-testid="book-chosen"
        >
          {text('book', { smart_count: chosen.size })}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
