import EventAvailableIcon from '@mui/icons-material/EventAvailable';
import { Button, Card, Chip, Stack, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useLocale, useTranslate } from 'react-admin';
import { Grid, type GridColumn, useGridState } from '../../components/grid/Grid.js';
import { Refusal } from '../../components/Refusal.js';
import { formatDate } from '../../format.js';
import { bookingApi, type Course, inductionApi, inLanguage, siteToday, type TrainingSession } from './api.js';

/** A session to come as the requester reads it: its course named, its seats left. */
export interface OpenSession extends TrainingSession {
  course?: Course;
  courseName: string;
  seatsLeft: number;
}

/** The division's scheduled sessions from today on, soonest first, with their courses. */
export function useOpenSessions() {
  const locale = useLocale();
  const today = siteToday();
  const sessions = useQuery({
    queryKey: ['induction-open-sessions', today],
    queryFn: () => bookingApi.upcoming(today),
  });
  const courses = useQuery({
    queryKey: ['induction-course-names'],
    queryFn: inductionApi.courses,
    staleTime: 300_000,
  });
  const byId = new Map((courses.data ?? []).map((c) => [c.IdCurso, c]));
  const rows: OpenSession[] | undefined =
    sessions.data && courses.data
      ? sessions.data
          .filter((s) => s.Estado === 'P' && s.Fecha >= today)
          .map((s) => {
            const course = byId.get(s.IdCurso);
            return {
              ...s,
              course,
              courseName: course ? inLanguage(locale, course.Nombre, course.NombreIngles) : String(s.IdCurso),
              seatsLeft: Math.max(0, s.Capacidad - (s.Reservados ?? 0)),
            };
          })
          .sort((a, b) => `${a.Fecha} ${a.HoraInicio}`.localeCompare(`${b.Fecha} ${b.HoraInicio}`))
      : undefined;
  return { rows, loading: sessions.isFetching || courses.isFetching, error: sessions.error ?? courses.error };
}

const Nowrap = ({ children }: { children: string }) => (
  <span style={{ whiteSpace: 'nowrap' }}>{children}</span>
);

/** The sessions the requester may book on: course, day, hours, room and seats left, each with its button. */
export function UpcomingSessions({ onBook }: { onBook(session: OpenSession): void }) {
  const translate = useTranslate();
  const text = (key: string, options?: object) => translate(`induction.screens.sessions.${key}`, options);
  const { rows, loading, error } = useOpenSessions();
  const [grid, setGrid] = useGridState(100);
  const columns: GridColumn<OpenSession>[] = [
    {
      id: 'Curso',
      label: text('course'),
      render: (row) => (
        <span>
          {row.courseName}
          <Typography component="span" variant="caption" color="text.secondary" sx={{ display: 'block' }}>
            {row.course?.Codigo}
            {row.course?.Modalidad === 'V' && ` · ${text('online')}`}
          </Typography>
        </span>
      ),
    },
    { id: 'Fecha', label: text('date'), render: (row) => <Nowrap>{formatDate(row.Fecha)}</Nowrap> },
    {
      id: 'Horas',
      label: text('hours'),
      render: (row) => <Nowrap>{`${row.HoraInicio}–${row.HoraFin}`}</Nowrap>,
    },
    { id: 'Sala', label: text('room') },
    {
      id: 'Plazas',
      label: text('seatsLeft'),
      align: 'right',
      render: (row) =>
        row.seatsLeft > 0 ? (
          <span data-seats={row.seatsLeft}>{row.seatsLeft}</span>
        ) : (
          <Chip size="small" label={text('full')} data-seats={0} />
        ),
    },
    {
      id: 'actions',
      label: '',
      align: 'right',
      render: (row) => (
        <Button
          size="small"
          variant="contained"
          startIcon={<EventAvailableIcon />}
          disabled={row.seatsLeft === 0}
          onClick={() => onBook(row)}
          data-testid={`book-session-${row.IdSesion}`}
        >
          {text('book')}
        </Button>
      ),
    },
  ];
  return (
    <Card>
      <Stack spacing={1} sx={{ p: { xs: 1, sm: 2 } }}>
        <Typography variant="subtitle1" component="h2">
          {text('title')}
        </Typography>
        <Refusal error={error} testId="sessions-refusal" />
        <Grid
          label={text('title')}
          columns={columns}
          rows={rows}
          total={rows?.length}
          loading={loading}
          state={grid}
          onState={setGrid}
          rowKey={(row) => row.IdSesion}
          empty={text('none')}
          paged={false}
          testId="open-sessions"
        />
      </Stack>
    </Card>
  );
}
