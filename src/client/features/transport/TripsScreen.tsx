import AddIcon from '@mui/icons-material/Add';
import { Alert, Button, Card, Stack } from '@mui/material';
import { useState } from 'react';
import { useTranslate } from 'react-admin';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { DateInput } from '../../components/fields.js';
import { Refusal } from '../../components/Refusal.js';
import { ScreenHeader } from '../../components/ScreenHeader.js';
import { useConsoleTitle } from '../../resources/ScreenTitle.js';
import { siteToday } from './api.js';
import { ProposalDialog } from './ProposalDialog.js';
import { ReleasedDialog } from './ReleasedDialog.js';
import { TimetableDialog } from './TimetableDialog.js';
import { TripList } from './TripList.js';
import { TripPage } from './TripPage.js';
import { useDayTrips } from './useDayTrips.js';

type Dialog = 'timetable' | 'proposal' | 'released';

/**
 * The coordinator's trips and manifests (Transport module): a day's trips with their bus, driver and
 * seats; a new trip, a roster's timetable, the day's proposed manifests, the seats released; and a
 * trip's page (`?viaje=<id>`).
 */
export default function TripsScreen() {
  const translate = useTranslate();
  const text = (key: string) => translate(`transport.screens.trips.${key}`);
  const title = translate('app.menu.items.transportTrips');
  useConsoleTitle(title);
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const opened = Number(params.get('viaje')) || undefined;
  const { day, setDay, ready, trips } = useDayTrips(!opened);
  const [dialog, setDialog] = useState<Dialog>();
  const [notice, setNotice] = useState<string>();
  if (opened) return <TripPage id={opened} onBack={() => setParams({})} />;
  const done = (message: string, on?: string) => {
    setDialog(undefined);
    setNotice(message);
    if (on) setDay(on);
    void trips.refetch();
  };
  return (
    <Stack spacing={2} sx={{ mt: 1, minWidth: 0 }} data-testid="transport-trips-screen">
      <ScreenHeader title={title}>
        <Button
          variant="contained"
          startIcon={<AddIcon />}
          onClick={() => navigate('/trip/create')}
          data-testid="trip-new"
        >
          {text('new')}
        </Button>
        <Button variant="outlined" onClick={() => setDialog('timetable')} data-testid="trips-timetable">
          {text('timetable')}
        </Button>
        <Button
          variant="outlined"
          disabled={!ready}
          onClick={() => setDialog('proposal')}
          data-testid="trips-proposal"
        >
          {text('proposal')}
        </Button>
        <Button variant="outlined" onClick={() => setDialog('released')} data-testid="trips-released">
          {text('released')}
        </Button>
      </ScreenHeader>
      {notice && (
        <Alert severity="success" onClose={() => setNotice(undefined)} data-testid="trips-notice">
          {notice}
        </Alert>
      )}
      <Card sx={{ p: { xs: 1, sm: 2 } }}>
        <Stack spacing={2}>
          <DateInput id="transport-day" label={text('day')} value={day} onChange={setDay} />
          <Refusal error={trips.error} />
          <TripList
            trips={ready ? trips.data : []}
            empty={text('none')}
            onOpen={(trip) => setParams({ viaje: String(trip.IdViaje) })}
            testId="transport-trips"
          />
        </Stack>
      </Card>
      {dialog === 'timetable' && <TimetableDialog onClose={() => setDialog(undefined)} onDone={done} />}
      {dialog === 'proposal' && day && (
        <ProposalDialog day={day} onClose={() => setDialog(undefined)} onDone={(message) => done(message)} />
      )}
      {dialog === 'released' && (
        <ReleasedDialog from={day ?? siteToday()} onClose={() => setDialog(undefined)} />
      )}
    </Stack>
  );
}
