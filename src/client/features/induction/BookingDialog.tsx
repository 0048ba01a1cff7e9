import {
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Stack,
  type Theme,
  Typography,
  useMediaQuery,
} from '@mui/material';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslate } from 'react-admin';
import { addDays } from '../../../shared/dates.js';
import { CREW_MAX, EXPIRING_WITHIN_DAYS } from '../../../shared/induction.js';
import { Refusal } from '../../components/Refusal.js';
import { formatDate } from '../../format.js';
import { bookingApi, type Candidate, type CrewQuery, type WorkersInductions } from './api.js';
import { CandidateChecklist } from './CandidateChecklist.js';
import { CrewFinder } from './CrewFinder.js';
import type { OpenSession } from './UpcomingSessions.js';

/** The requester's workers' inductions and bookings (one query for the screen's two tabs). */
export const useWorkersInductions = () =>
  useQuery({ queryKey: ['induction-workers'], queryFn: bookingApi.workers });

/** Why the session would refuse each worker: booked on its course already, or holding it beyond the session. */
function refusalsFor(
  session: OpenSession,
  workers: WorkersInductions | undefined,
  say: (key: string, date: string) => string,
) {
  const code = session.course?.Codigo;
  const beyond = addDays(session.Fecha, EXPIRING_WITHIN_DAYS);
  const why = new Map<number, string>();
  if (!code || !workers) return why;
  for (const r of workers.registros)
    if (r.Codigo === code && r.Vigente && r.VenceEl > beyond)
      why.set(r.IdPersona, say('holds', formatDate(r.VenceEl)));
  for (const b of workers.reservas)
    if (b.Codigo === code && b.Estado === 'R') why.set(b.IdPersona, say('bookedOn', formatDate(b.Fecha)));
  return why;
}

/**
 * Booking workers on a session: found one by one, or a contract's or a bulk request's crew; those
 * ticked are booked all or none, and a refusal (full, booked already, not eligible) says why.
 */
export function BookingDialog({
  session,
  onClose,
  onBooked,
}: {
  session: OpenSession;
  onClose(): void;
  onBooked(count: number): void;
}) {
  const translate = useTranslate();
  const text = (key: string, options?: object) => translate(`induction.screens.booking.${key}`, options);
  const phone = useMediaQuery<Theme>((theme) => theme.breakpoints.down('sm'), { noSsr: true });
  const queryClient = useQueryClient();
  const [query, setQuery] = useState<CrewQuery>();
  const [chosen, setChosen] = useState<Map<number, Candidate>>(new Map());
  const workers = useWorkersInductions();
  const found = useQuery({
    queryKey: ['induction-candidates', query],
    queryFn: () => bookingApi.candidates(query as CrewQuery),
    enabled: query !== undefined,
  });
  const blocked = refusalsFor(session, workers.data, (key, date) => text(key, { date }));
  const book = useMutation({
    mutationFn: () => bookingApi.book(session.IdSesion, [...chosen.keys()]),
    onSuccess: (done) => {
      void queryClient.invalidateQueries({ queryKey: ['induction-open-sessions'] });
      void queryClient.invalidateQueries({ queryKey: ['induction-workers'] });
      onBooked(done.reservados.length);
    },
  });
  const tooMany = chosen.size > CREW_MAX;
  return (
    <Dialog open onClose={onClose} fullScreen={phone} fullWidth maxWidth="md" aria-labelledby="booking-title">
      <DialogTitle id="booking-title">
        {text('title')}
        <Typography
          component="span"
          variant="body2"
          color="text.secondary"
          sx={{ display: 'block' }}
          data-testid="booking-session"
        >
          {session.courseName} · {formatDate(session.Fecha)} {session.HoraInicio}–{session.HoraFin} ·{' '}
          {session.Sala}
          {' · '}
          {text('seatsLeft', { smart_count: session.seatsLeft })}
        </Typography>
      </DialogTitle>
      <DialogContent dividers>
        <Stack spacing={2}>
          <CrewFinder onQuery={setQuery} />
          <Refusal error={found.error} testId="candidates-refusal" />
          <CandidateChecklist
            found={query ? found.data : undefined}
            loading={found.isFetching}
            chosen={chosen}
            blocked={blocked}
            onChange={(next) => {
              book.reset();
              setChosen(next);
            }}
          />
          {tooMany && <Typography color="error">{text('tooMany', { max: CREW_MAX })}</Typography>}
          <Refusal error={book.error} testId="booking-refusal" />
        </Stack>
      </DialogContent>
      <DialogActions sx={{ flexWrap: 'wrap', gap: 1 }}>
        <Button onClick={onClose}>{translate('ra.action.cancel')}</Button>
        <Button
          variant="contained"
          disabled={chosen.size === 0 || tooMany || book.isPending}
          onClick={() => book.mutate()}
          data-testid="book-chosen"
        >
          {text('book', { smart_count: chosen.size })}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
