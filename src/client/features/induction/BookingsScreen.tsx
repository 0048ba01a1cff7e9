import { Alert, Button, Card, Stack, Tab, Tabs } from '@mui/material';
import { useState } from 'react';
import { useTranslate } from 'react-admin';
import { ScreenHeader } from '../../components/ScreenHeader.js';
import { useConsoleTitle } from '../../resources/ScreenTitle.js';
import { BookingDialog } from './BookingDialog.js';
import { type OpenSession, UpcomingSessions } from './UpcomingSessions.js';
import { WorkersInductions } from './WorkersInductions.js';

type View = 'sessions' | 'workers';

/**
 * A contractor's requester's inductions (issue 42): the division's sessions to come, where it
 * books its workers (one by one, a contract's crew or a bulk request's), and its workers'
 * inductions: passed with their valid-until and certificate, expiring, booked, failed or absent.
 */
export default function BookingsScreen() {
  const translate = useTranslate();
  const title = translate('app.menu.items.trainingBookings');
  useConsoleTitle(title);
  const [view, setView] = useState<View>('sessions');
  const [booking, setBooking] = useState<OpenSession>();
  const [notice, setNotice] = useState<string>();
  return (
    <Stack spacing={2} sx={{ mt: 1, minWidth: 0 }} data-testid="induction-bookings">
      <ScreenHeader title={title} />
      <Card>
        <Tabs
          value={view}
          onChange={(_, next: View) => {
            setView(next);
            setNotice(undefined);
          }}
          variant="fullWidth"
          aria-label={title}
        >
          <Tab
            value="sessions"
            label={translate('induction.screens.bookings.sessions')}
            data-view="sessions"
          />
          <Tab value="workers" label={translate('induction.screens.bookings.workers')} data-view="workers" />
        </Tabs>
      </Card>
      {notice && (
        <Alert
          severity="success"
          onClose={() => setNotice(undefined)}
          action={
            view === 'sessions' ? (
              <Button color="inherit" size="small" onClick={() => setView('workers')}>
                {translate('induction.screens.bookings.seeWorkers')}
              </Button>
            ) : undefined
          }
          data-testid="booking-notice"
        >
          {notice}
        </Alert>
      )}
      {view === 'sessions' ? (
        <UpcomingSessions
          onBook={(session) => {
            setNotice(undefined);
            setBooking(session);
          }}
        />
      ) : (
        <WorkersInductions onNotice={setNotice} />
      )}
      {booking && (
        <BookingDialog
          session={booking}
          onClose={() => setBooking(undefined)}
          onBooked={(count) => {
            setNotice(
              translate('induction.screens.booking.booked', {
                smart_count: count,
                course: booking.courseName,
              }),
            );
            setBooking(undefined);
          }}
        />
      )}
    </Stack>
  );
}
