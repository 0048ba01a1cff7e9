import { Box, Stack, type Theme, Typography, useMediaQuery } from '@mui/material';
import { useLocaleState, useTranslate } from 'react-admin';
import { formatDate } from '../../format.js';
import { type Course, inLanguage, type TrainingSession } from './api.js';
import { type CalendarView, weekdayName } from './calendar.js';
import { SessionTile } from './SessionTile.js';

interface DayProps {
  day: string;
  sessions: TrainingSession[];
  courses: Map<number, Course>;
  view: CalendarView;
  /** A day of the month shown (a month's view also shows the neighbouring months' days of its weeks). */
  inMonth: boolean;
  today: boolean;
  onOpen(id: number): void;
}

/** A day's cell: its date, then its sessions by starting time. */
function Day({ day, sessions, courses, view, inMonth, today, onOpen }: DayProps) {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const phone = useMediaQuery<Theme>((theme) => theme.breakpoints.down('sm'), { noSsr: true });
  const course = (id: number) => {
    const c = courses.get(id);
    return { code: c?.Codigo ?? String(id), name: c ? inLanguage(locale, c.Nombre, c.NombreIngles) : '' };
  };
  const heading =
    phone || view === 'week'
      ? `${weekdayName(day, locale)} ${formatDate(day).slice(0, 5)}`
      : day.slice(8).replace(/^0/, '');
  return (
    <Box
      data-day={day}
      sx={{
        minWidth: 0,
        minHeight: { xs: 0, sm: view === 'week' ? 220 : 112 },
        p: 0.75,
        border: 1,
        borderRadius: 1,
        borderColor: today ? 'primary.main' : 'divider',
        bgcolor: inMonth ? 'background.paper' : 'action.hover',
      }}
    >
      <Typography
        variant="caption"
        component="h3"
        sx={{
          display: 'block',
          mb: 0.5,
          fontWeight: today ? 700 : 500,
          color: inMonth ? 'text.primary' : 'text.secondary',
        }}
      >
        {heading}
        {today && ` · ${translate('induction.screens.calendar.today')}`}
      </Typography>
      <Stack spacing={0.5}>
        {sessions.map((s) => (
          <SessionTile
            key={s.IdSesion}
            session={s}
            course={course(s.IdCurso)}
            compact={view === 'month' && !phone}
            onOpen={() => onOpen(s.IdSesion)}
          />
        ))}
        {phone && !sessions.length && (
          <Typography variant="caption" color="text.secondary">
            {translate('induction.screens.calendar.none')}
          </Typography>
        )}
      </Stack>
    </Box>
  );
}

/**
 * The division's sessions as a week or a month from Monday: seven columns on a wider screen; on a
 * phone the days one under another (a month's, only those with a session).
 */
export function SessionCalendar({
  view,
  days,
  month,
  today,
  sessions,
  courses,
  onOpen,
}: {
  view: CalendarView;
  days: string[];
  month: string;
  today: string;
  sessions: TrainingSession[];
  courses: Map<number, Course>;
  onOpen(id: number): void;
}) {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const phone = useMediaQuery<Theme>((theme) => theme.breakpoints.down('sm'), { noSsr: true });
  const byDay = new Map<string, TrainingSession[]>();
  for (const s of [...sessions].sort((a, b) => a.HoraInicio.localeCompare(b.HoraInicio))) {
    const day = s.Fecha.slice(0, 10);
    byDay.set(day, [...(byDay.get(day) ?? []), s]);
  }
  const shown = phone && view === 'month' ? days.filter((d) => byDay.has(d)) : days;
  return (
    <Box
      role="region"
      aria-label={translate('induction.screens.calendar.label')}
      data-testid="sessions-calendar"
      data-view={view}
      sx={{
        display: 'grid',
        gap: 0.75,
        gridTemplateColumns: { xs: '1fr', sm: 'repeat(7, minmax(0, 1fr))' },
      }}
    >
      {!phone &&
        view === 'month' &&
        days.slice(0, 7).map((d) => (
          <Typography key={d} variant="caption" color="text.secondary" sx={{ textAlign: 'center' }}>
            {weekdayName(d, locale)}
          </Typography>
        ))}
      {shown.map((day) => (
        <Day
          key={day}
          day={day}
          sessions={byDay.get(day) ?? []}
          courses={courses}
          view={view}
          inMonth={view === 'week' || day.startsWith(month)}
          today={day === today}
          onOpen={onOpen}
        />
      ))}
      {phone && !shown.length && (
        <Typography color="text.secondary" sx={{ py: 2, textAlign: 'center' }}>
          {translate('induction.screens.calendar.empty')}
        </Typography>
      )}
    </Box>
  );
}
