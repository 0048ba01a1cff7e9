import { Chip } from '@mui/material';
import { useTranslate } from 'react-admin';
import type { SeatState, TripState } from './api.js';

type Colour = 'info' | 'warning' | 'success' | 'default' | 'error';

const TRIP_COLOURS: Record<TripState, Colour> = {
  P: 'info',
  E: 'warning',
  S: 'success',
  L: 'default',
  X: 'default',
};
const SEAT_COLOURS: Record<SeatState, Colour> = { R: 'info', A: 'success', N: 'error', L: 'default' };

/** A trip's state in words: scheduled, boarding, on the road, arrived, cancelled. */
export function TripStateChip({ state }: { state: TripState }) {
  const translate = useTranslate();
  return (
    <Chip
      size="small"
      color={TRIP_COLOURS[state]}
      variant={state === 'X' || state === 'L' ? 'outlined' : 'filled'}
      label={translate(`enums.tripState.${state}`)}
      data-trip-state={state}
    />
  );
}

/** A seat's state in words: booked, boarded, no-show, released. */
export function SeatStateChip({ state }: { state: SeatState }) {
  const translate = useTranslate();
  return (
    <Chip
      size="small"
      variant="outlined"
      color={SEAT_COLOURS[state]}
      label={translate(`enums.seatState.${state}`)}
      data-seat-state={state}
    />
  );
}
