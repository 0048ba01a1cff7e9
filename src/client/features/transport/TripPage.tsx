import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import { Alert, Button, Card, CardContent, LinearProgress, Stack, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslate } from 'react-admin';
import { Refusal } from '../../components/Refusal.js';
import { ScreenHeader } from '../../components/ScreenHeader.js';
import { formatDate } from '../../format.js';
import { useConsoleTitle } from '../../resources/ScreenTitle.js';
import { type NoShow, seatsApi } from './api.js';
import { BoardingDesk } from './BoardingDesk.js';
import { BookDialog } from './BookDialog.js';
import { NoShows } from './NoShows.js';
import { TripStateChip } from './StateChips.js';
import { TripActions } from './TripActions.js';
import type { Asked } from './TripConfirms.js';
import { TripConfirms } from './TripConfirms.js';
import { TripFacts } from './TripFacts.js';
import { TripSeats } from './TripSeats.js';
import { useTripWork } from './useTripWork.js';

const T = 'transport.screens.trip';

/**
 * A trip's page for the coordinator: its facts, the door of the bus (a badge typed by hand), its
 * passengers with their seats and states, and what its state allows: booking people, the manifest,
 * departure (its no-shows listed), arrival, cancelling.
 */
export function TripPage({ id, onBack }: { id: number; onBack(): void }) {
  const translate = useTranslate();
  const detail = useQuery({ queryKey: ['transport-trip', id], queryFn: () => seatsApi.trip(id) });
  const [notice, setNotice] = useState<string>();
  const [asked, setAsked] = useState<Asked>();
  const [noShows, setNoShows] = useState<NoShow[]>();
  const work = useTripWork(id, setNotice);
  const trip = detail.data;
  const title = trip
    ? `${trip.RutaCodigo} · ${formatDate(trip.Fecha)} ${trip.Hora}`
    : translate(`${T}.title`);
  useConsoleTitle(title, translate('app.menu.items.transportTrips'));
  const open = trip?.Estado === 'P' || trip?.Estado === 'E';
  const close = () => setAsked(undefined);
  const waiting = trip?.reservas.filter((s) => s.Estado === 'R').length ?? 0;
  return (
    <Stack spacing={2} sx={{ mt: 1, minWidth: 0 }} data-testid="transport-trip" data-state={trip?.Estado}>
      <ScreenHeader title={title}>
        {trip && <TripStateChip state={trip.Estado} />}
        <Button startIcon={<ArrowBackIcon />} onClick={onBack} data-testid="trip-back">
          {translate(`${T}.back`)}
        </Button>
      </ScreenHeader>
      {detail.isFetching && <LinearProgress aria-label={translate('ra.page.loading')} />}
      <Refusal error={detail.error} />
      {noShows && <NoShows people={noShows} onClose={() => setNoShows(undefined)} />}
      {notice && (
        <Alert severity="success" onClose={() => setNotice(undefined)} data-testid="trip-notice">
          {notice}
        </Alert>
      )}
      {trip && <TripFacts trip={trip} />}
      {trip && (open || trip.Estado === 'S') && <BoardingDesk tripId={id} onBoarded={work.refresh} />}
      {trip && (
        <Card>
          <CardContent sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, alignItems: 'center' }}>
            <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600, flex: '1 1 auto' }}>
              {translate(`${T}.passengers`)}
            </Typography>
            <TripActions trip={trip} work={work} onAsk={setAsked} />
          </CardContent>
          <Refusal
            error={
              work.depart.error ??
              work.arrive.error ??
              work.cancel.error ??
              work.manifest.error ??
              work.cancelSeat.error
            }
            sx={{ mx: 2, mb: 1 }}
          />
          <TripSeats
            seats={trip.reservas}
            emergency
            onCancel={open ? setAsked : undefined}
            busy={work.cancelSeat.isPending}
          />
        </Card>
      )}
      {trip && asked === 'book' && (
        <BookDialog
          trip={trip}
          onClose={close}
          onBooked={async (count) => {
            close();
            await work.refresh();
            setNotice(translate(`${T}.booked`, { smart_count: count }));
          }}
        />
      )}
      <TripConfirms asked={asked} work={work} waiting={waiting} onClose={close} onNoShows={setNoShows} />
    </Stack>
  );
}
