import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import { Alert, Button, Card, CardContent, LinearProgress, Stack, Typography } from '@mui/material';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Confirm, useTranslate } from 'react-admin';
import { Refusal } from '../../components/Refusal.js';
import { formatDate } from '../../format.js';
import { type Seat, seatsApi, type Traveller, type TripDetail } from './api.js';
import { seatedOn } from './BookDialog.js';
import { PeopleFinder } from './PeopleFinder.js';
import { TripStateChip } from './StateChips.js';
import { TripSeats } from './TripSeats.js';
import { useCancelSeat, useTripRefresh } from './useTripWork.js';

const T = 'transport.screens.seats';

/** The requester's workers to book on the trip: ticked, then booked all or none. */
function BookWorkers({ trip, onBooked }: { trip: TripDetail; onBooked(count: number): void }) {
  const translate = useTranslate();
  const [chosen, setChosen] = useState<Map<number, Traveller>>(new Map());
  const book = useMutation({
    mutationFn: () => seatsApi.book(trip.IdViaje, [...chosen.keys()]),
    onSuccess: (done) => {
      setChosen(new Map());
      onBooked(done.reservados.length);
    },
  });
  return (
    <Card>
      <CardContent>
        <Stack spacing={2}>
          <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600 }}>
            {translate(`${T}.bookTitle`)}
          </Typography>
          <PeopleFinder
            day={trip.Fecha}
            minLetters={0}
            chosen={chosen}
            blocked={seatedOn(trip, (seat) => translate('transport.screens.book.seated', { seat }))}
            onChange={(next) => {
              book.reset();
              setChosen(next);
            }}
          />
          <Refusal error={book.error} testId="seats-book-refusal" />
          <Button
            variant="contained"
            disabled={chosen.size === 0 || book.isPending}
            onClick={() => book.mutate()}
            data-testid="seats-book"
            sx={{ alignSelf: { xs: 'stretch', sm: 'flex-start' } }}
          >
            {translate('transport.screens.book.book', { smart_count: chosen.size })}
          </Button>
        </Stack>
      </CardContent>
    </Card>
  );
}

/**
 * A trip as the requester books it: its hour, route, bus and seats free; its workers to tick and
 * book; and its own bookings on the trip, each cancellable while the trip is open.
 */
export function SeatsTrip({ id, onBack }: { id: number; onBack(): void }) {
  const translate = useTranslate();
  const detail = useQuery({ queryKey: ['transport-trip', id], queryFn: () => seatsApi.trip(id) });
  const [notice, setNotice] = useState<string>();
  const [cancelling, setCancelling] = useState<Seat>();
  const refresh = useTripRefresh(id);
  const cancel = useCancelSeat(id, setNotice);
  const trip = detail.data;
  const open = trip?.Estado === 'P' || trip?.Estado === 'E';
  return (
    <Stack spacing={2} data-testid="seats-trip" data-trip={id}>
      <Card>
        <CardContent sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, alignItems: 'center' }}>
          <Stack sx={{ flex: '1 1 auto', minWidth: 0 }}>
            <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600 }}>
              {trip
                ? `${formatDate(trip.Fecha)} ${trip.Hora} · ${trip.RutaCodigo}`
                : translate('ra.page.loading')}
            </Typography>
            {trip && (
              <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
                {`${trip.Ruta} · ${trip.Placa} · ${translate('transport.screens.common.free', { smart_count: trip.Asientos - trip.Reservados })}`}
              </Typography>
            )}
          </Stack>
          {trip && <TripStateChip state={trip.Estado} />}
          <Button startIcon={<ArrowBackIcon />} onClick={onBack} data-testid="seats-back">
            {translate(`${T}.otherTrip`)}
          </Button>
        </CardContent>
        {detail.isFetching && <LinearProgress aria-label={translate('ra.page.loading')} />}
      </Card>
      <Refusal error={detail.error} />
      {notice && (
        <Alert severity="success" onClose={() => setNotice(undefined)} data-testid="seats-notice">
          {notice}
        </Alert>
      )}
      {trip && open && (
        <BookWorkers
          trip={trip}
          onBooked={async (count) => {
            await refresh();
            setNotice(translate(`${T}.booked`, { smart_count: count }));
          }}
        />
      )}
      {trip && (
        <Card>
          <CardContent sx={{ pb: 0 }}>
            <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600 }}>
              {translate(`${T}.mine`)}
            </Typography>
          </CardContent>
          <Refusal error={cancel.error} sx={{ mx: 2, mt: 1 }} />
          <TripSeats
            seats={trip.reservas}
            onCancel={open ? setCancelling : undefined}
            busy={cancel.isPending}
          />
        </Card>
      )}
      <Confirm
        isOpen={cancelling !== undefined}
        loading={cancel.isPending}
        title="transport.screens.trip.cancelSeatTitle"
        content="transport.screens.trip.cancelSeatText"
        translateOptions={{ name: cancelling?.Persona ?? '' }}
        confirm="transport.screens.trip.cancelSeat"
        cancel="transport.screens.trip.dismiss"
        onConfirm={() =>
          cancelling && cancel.mutate(cancelling, { onSettled: () => setCancelling(undefined) })
        }
        onClose={() => setCancelling(undefined)}
      />
    </Stack>
  );
}
