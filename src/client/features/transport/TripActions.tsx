import DownloadIcon from '@mui/icons-material/Download';
import PersonAddIcon from '@mui/icons-material/PersonAdd';
import { Box, Button } from '@mui/material';
import { useTranslate } from 'react-admin';
import type { TripDetail } from './api.js';
import type { useTripWork } from './useTripWork.js';

export type Asked = 'book' | 'depart' | 'cancel';

/**
 * What the coordinator may do with a trip in its state: book people, print the manifest, see it
 * depart or cancel it while it boards; see it arrive while it is on the road.
 */
export function TripActions({
  trip,
  work,
  onAsk,
}: {
  trip: TripDetail;
  work: ReturnType<typeof useTripWork>;
  onAsk(what: Asked): void;
}) {
  const translate = useTranslate();
  const text = (key: string) => translate(`transport.screens.trip.${key}`);
  const open = trip.Estado === 'P' || trip.Estado === 'E';
  const busy = work.depart.isPending || work.arrive.isPending || work.cancel.isPending;
  return (
    <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1 }}>
      {open && (
        <Button
          variant="contained"
          startIcon={<PersonAddIcon />}
          onClick={() => onAsk('book')}
          data-testid="trip-book"
        >
          {text('book')}
        </Button>
      )}
      <Button
        variant="outlined"
        startIcon={<DownloadIcon />}
        disabled={work.manifest.isPending}
        onClick={() => work.manifest.mutate()}
        data-testid="trip-manifest"
      >
        {text('manifest')}
      </Button>
      {open && (
        <Button variant="outlined" disabled={busy} onClick={() => onAsk('depart')} data-testid="trip-depart">
          {text('depart')}
        </Button>
      )}
      {trip.Estado === 'S' && (
        <Button
          variant="outlined"
          disabled={busy}
          onClick={() => work.arrive.mutate()}
          data-testid="trip-arrive"
        >
          {text('arrive')}
        </Button>
      )}
      {open && (
        <Button
          variant="outlined"
          color="error"
          disabled={busy}
          onClick={() => onAsk('cancel')}
          data-testid="trip-cancel"
        >
          {text('cancel')}
        </Button>
      )}
    </Box>
  );
}
