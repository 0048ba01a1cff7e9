import AddIcon from '@mui/icons-material/Add';
import ChevronLeftIcon from '@mui/icons-material/ChevronLeft';
import ChevronRightIcon from '@mui/icons-material/ChevronRight';
import {
  Box,
  Button,
  Card,
  CardContent,
  IconButton,
  LinearProgress,
  Stack,
  ToggleButton,
  ToggleButtonGroup,
  Typography,
} from '@mui/material';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useLocaleState, useTranslate } from 'react-admin';
import { useSearchParams } from 'react-router-dom';
import { Refusal } from '../../components/Refusal.js';
import { ScreenHeader } from '../../components/ScreenHeader.js';
import { useConsoleTitle } from '../../resources/ScreenTitle.js';
import { inductionApi, siteToday } from './api.js';
import { type CalendarView, periodOf, periodTitle, stepped } from './calendar.js';
import { NewSessionDialog } from './NewSessionDialog.js';
import { SessionCalendar } from './SessionCalendar.js';
import { SessionPage } from './SessionPage.js';

/** The division's courses, every one (a session of a course since retired still names it). */
export function useCourses() {
  return useQuery({ queryKey: ['induction-courses'], queryFn: inductionApi.courses, staleTime: 5 * 60_000 });
}

/** The calendar's controls: week or month, back, today, ahead, and what is shown. */
function Navigation({
  view,
  anchor,
  onView,
  onAnchor,
}: {
  view: CalendarView;
  anchor: string;
  onView(view: CalendarView): void;
  onAnchor(anchor: string): void;
}) {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const text = (key: string) => translate(`induction.screens.calendar.${key}`);
  return (
    <CardContent sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, alignItems: 'center', pb: 1 }}>
      <ToggleButtonGroup
        size="small"
        exclusive
        value={view}
        onChange={(_event, value: CalendarView | null) => value && onView(value)}
        aria-label={text('view')}
      >
        <ToggleButton value="week">{text('week')}</ToggleButton>
        <ToggleButton value="month">{text('month')}</ToggleButton>
      </ToggleButtonGroup>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.5 }}>
        <IconButton
          size="small"
          onClick={() => onAnchor(stepped(view, anchor, -1))}
          aria-label={text('previous')}
        >
          <ChevronLeftIcon />
        </IconButton>
        <Button size="small" onClick={() => onAnchor(siteToday())}>
          {text('today')}
        </Button>
        <IconButton size="small" onClick={() => onAnchor(stepped(view, anchor, 1))} aria-label={text('next')}>
          <ChevronRightIcon />
        </IconButton>
      </Box>
      <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600 }} data-testid="sessions-period">
        {periodTitle(view, anchor, locale)}
      </Typography>
    </CardContent>
  );
}

/**
 * The trainer's induction sessions (Inductions module): the division's sessions as a week or a
 * month, a new session, and a session's page (`?sesion=<id>`): its bookings, attendance by name or
 * by a badge's QR, scores, closing, cancelling and certificates.
 */
export default function SessionsScreen() {
  const translate = useTranslate();
  const title = translate('app.menu.items.trainingSessions');
  useConsoleTitle(title);
  const [params, setParams] = useSearchParams();
  const opened = Number(params.get('sesion')) || undefined;
  const today = siteToday();
  const [view, setView] = useState<CalendarView>('week');
  const [anchor, setAnchor] = useState(today);
  const [creating, setCreating] = useState(false);
  const [notice, setNotice] = useState<string>();
  const period = periodOf(view, anchor);
  const courses = useCourses();
  const sessions = useQuery({
    queryKey: ['induction-sessions', period.from, period.to],
    queryFn: () => inductionApi.sessions(period.from, period.to),
    placeholderData: keepPreviousData,
    enabled: !opened,
  });
  const open = (id?: number) => setParams(id ? { sesion: String(id) } : {});
  if (opened) return <SessionPage id={opened} onBack={() => open()} />;
  const courseMap = new Map((courses.data ?? []).map((c) => [c.IdCurso, c]));
  return (
    <Stack spacing={2} sx={{ mt: 1, minWidth: 0 }} data-testid="induction-sessions">
      <ScreenHeader title={title}>
        <Button
          variant="contained"
          startIcon={<AddIcon />}
          onClick={() => setCreating(true)}
          data-testid="session-new"
        >
          {translate('induction.screens.calendar.newSession')}
        </Button>
      </ScreenHeader>
      {notice && (
        <Typography role="status" color="success.main" data-testid="sessions-notice">
          {notice}
        </Typography>
      )}
      <Card>
        <Navigation view={view} anchor={anchor} onView={setView} onAnchor={setAnchor} />
        {(sessions.isFetching || courses.isPending) && (
          <LinearProgress aria-label={translate('ra.page.loading')} />
        )}
        <CardContent sx={{ pt: 1 }}>
          <Refusal error={sessions.error ?? courses.error} />
          <SessionCalendar
            view={view}
            days={period.days}
            month={period.month}
            today={today}
            sessions={sessions.data ?? []}
            courses={courseMap}
            onOpen={open}
          />
        </CardContent>
      </Card>
      {creating && (
        <NewSessionDialog
          courses={(courses.data ?? []).filter((c) => c.Activo === 'S')}
          onClose={() => setCreating(false)}
          onDone={(fecha, message) => {
            setCreating(false);
            setAnchor(fecha);
            setNotice(message);
            void sessions.refetch();
          }}
        />
      )}
    </Stack>
  );
}
