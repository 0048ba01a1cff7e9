import { Box, ButtonBase, Chip, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import type { SessionState, TrainingSession } from './api.js';

/** How a session's state reads on the calendar and its page. */
export const STATE_COLOURS: Record<SessionState, 'info' | 'success' | 'default'> = {
  P: 'info',
  C: 'success',
  X: 'default',
};

/** A session's state as a chip. */
export function SessionStateChip({ state }: { state: SessionState }) {
  const translate = useTranslate();
  return (
    <Chip
      size="small"
      color={STATE_COLOURS[state]}
      variant={state === 'X' ? 'outlined' : 'filled'}
      label={translate(`enums.sessionState.${state}`)}
      data-state={state}
    />
  );
}

/**
 * A session on the calendar: its hours, course, room and seats booked of its capacity, and its
 * state; the whole tile opens the session's page.
 */
export function SessionTile({
  session,
  course,
  compact,
  onOpen,
}: {
  session: TrainingSession;
  /** The course's code and name in the console's language. */
  course: { code: string; name: string };
  /** A month's cell: the hours, the code and the seats only. */
  compact?: boolean;
  onOpen(): void;
}) {
  const translate = useTranslate();
  const hours = `${session.HoraInicio}–${session.HoraFin}`;
  const seats = translate('induction.screens.calendar.seats', {
    booked: session.Reservados,
    capacity: session.Capacidad,
  });
  return (
    <ButtonBase
      onClick={onOpen}
      data-session={session.IdSesion}
      sx={{
        display: 'flex',
        flexDirection: 'column',
        alignItems: 'stretch',
        textAlign: 'left',
        width: '100%',
        gap: 0.25,
        p: compact ? 0.5 : 1,
        borderRadius: 1,
        border: 1,
        borderLeft: 4,
        borderColor: 'divider',
        borderLeftColor:
          session.Estado === 'P' ? 'info.main' : session.Estado === 'C' ? 'success.main' : 'grey.400',
        bgcolor: 'background.paper',
        opacity: session.Estado === 'X' ? 0.7 : 1,
        '&:hover': { bgcolor: 'action.hover' },
      }}
    >
      <Typography variant="caption" sx={{ fontWeight: 600 }}>
        {hours}
      </Typography>
      <Typography variant="body2" sx={{ fontWeight: 500, overflowWrap: 'anywhere' }}>
        {compact ? course.code : `${course.code} · ${course.name}`}
      </Typography>
      {!compact && (
        <Typography variant="caption" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
          {session.Sala}
        </Typography>
      )}
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5, alignItems: 'center' }}>
        <Typography variant="caption" color="text.secondary" sx={{ flex: '1 1 auto' }} data-seats>
          {seats}
        </Typography>
        {!compact && <SessionStateChip state={session.Estado} />}
      </Box>
    </ButtonBase>
  );
}
