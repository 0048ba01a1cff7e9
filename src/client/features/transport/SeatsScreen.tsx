import EventSeatIcon from '@mui/icons-material/EventSeat';
import { Button, Card, Chip, Stack } from '@mui/material';
import { useState } from 'react';
import { useTranslate } from 'react-admin';
import { DateInput } from '../../components/fields.js';
import { Refusal } from '../../components/Refusal.js';
import { ScreenHeader } from '../../components/ScreenHeader.js';
import { useConsoleTitle } from '../../resources/ScreenTitle.js';
import type { Trip } from './api.js';
import { SeatsTrip } from './SeatsTrip.js';
import { TripList } from './TripList.js';
import { useDayTrips } from './useDayTrips.js';

/** A trip's button: chosen to book on, or full. */
function Choose({ trip, onChoose }: { trip: Trip; onChoose(trip: Trip): void }) {
  const translate = useTranslate();
  if (trip.Libres === 0) return <Chip size="small" label={translate('transport.screens.seats.full')} />;
  return (
    <Button
      size="small"
      variant="contained"
      startIcon={<EventSeatIcon />}
      onClick={() => onChoose(trip)}
      data-testid={`choose-trip-${trip.IdViaje}`}
    >
      {translate('transport.screens.seats.choose')}
    </Button>
  );
}

/**
 * A contractor's requester's seats on the division's buses: a day's open trips with their free
 * seats; a trip chosen, its workers booked on it, and its own bookings there, each cancellable.
 */
export default function SeatsScreen() {
  const translate = useTranslate();
  const title = translate('app.menu.items.transportSeats');
  useConsoleTitle(title);
  const [chosen, setChosen] = useState<number>();
  const { day, setDay, ready, trips } = useDayTrips(chosen === undefined);
  const open = trips.data?.filter((v) => v.Estado === 'P' || v.Estado === 'E');
  return (
    <Stack spacing={2} sx={{ mt: 1, minWidth: 0 }} data-testid="transport-seats">
      <ScreenHeader title={title}>
        {chosen === undefined && (
          <DateInput
            id="seats-day"
            label={translate('transport.screens.trips.day')}
            value={day}
            onChange={setDay}
          />
        )}
      </ScreenHeader>
      {chosen !== undefined ? (
        <SeatsTrip id={chosen} onBack={() => setChosen(undefined)} />
      ) : (
        <Card sx={{ p: { xs: 1, sm: 2 } }}>
          <Refusal error={trips.error} />
          <TripList
            trips={ready ? open : []}
            empty={translate('transport.screens.seats.none')}
            action={(trip) => <Choose trip={trip} onChoose={(v) => setChosen(v.IdViaje)} />}
            testId="seats-trips"
          />
        </Card>
      )}
    </Stack>
  );
}
