import ChevronLeftIcon from '@mui/icons-material/ChevronLeft';
import ChevronRightIcon from '@mui/icons-material/ChevronRight';
import RefreshIcon from '@mui/icons-material/Refresh';
import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  IconButton,
  LinearProgress,
  Stack,
  Typography,
} from '@mui/material';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useLocaleState, useNotify, useTranslate } from 'react-admin';
import { addDays, siteDate } from '../../../shared/dates.js';
import { type PersonChoice, PersonPicker } from '../../components/PersonPicker.js';
import { Refusal } from '../../components/Refusal.js';
import { ScreenHeader } from '../../components/ScreenHeader.js';
import { useConsoleTitle } from '../../resources/ScreenTitle.js';
import { session } from '../../session/store.js';
import { attendanceApi } from './api.js';
import { DayDetail } from './DayDetail.js';
import { JustifyDialog } from './JustifyDialog.js';
import { hoursText, MonthCalendar } from './MonthCalendar.js';

const monthEnd = (month: string) => addDays(`${addDays(`${month}-28`, 4).slice(0, 7)}-01`, -1);
const shiftMonth = (month: string, by: number) => addDays(`${month}-15`, by * 30).slice(0, 7);

/**
 * People management (spec section 2 Attendance): a person's month as a calendar of daily results,
 * the month's totals, and a day with its markings. The client recomputes the month on demand; a
 * contractor's profile finds only its company's people.
 */
export default function PeopleScreen() {
  const translate = useTranslate();
  const notify = useNotify();
  const [locale] = useLocaleState();
  const title = translate('app.menu.items.peopleAttendance');
  useConsoleTitle(title);
  const contractor = session.profile()?.current.IdCompania != null;
  const [person, setPerson] = useState<PersonChoice | null>(null);
  const [month, setMonth] = useState<string>();
  const [day, setDay] = useState<string>();
  const client = useQueryClient();
  // Until another is chosen, this month at the site (not in UTC: a Lima evening is already tomorrow there).
  const shown = month ?? siteDate(session.siteCountry()).slice(0, 7);
  const days = useQuery({
    queryKey: ['attendance-days', person?.IdPersona, shown],
    queryFn: () => attendanceApi.days(person?.IdPersona as number, `${shown}-01`, monthEnd(shown)),
    enabled: person != null,
    placeholderData: keepPreviousData,
  });
  const compute = useMutation({
    mutationFn: () =>
      attendanceApi.compute({ desde: `${shown}-01`, hasta: monthEnd(shown), IdPersona: person?.IdPersona }),
    onSuccess: async () => {
      notify('attendance.screens.computed', { type: 'success' });
      await client.invalidateQueries({ queryKey: ['attendance-days', person?.IdPersona] });
    },
  });
  const [justifying, setJustifying] = useState(false);
  // The day is recomputed now (the server would also do it shortly), then read again.
  const refresh = async () => {
    if (person && day) await attendanceApi.compute({ desde: day, hasta: day, IdPersona: person.IdPersona });
    await client.invalidateQueries({ queryKey: ['attendance-days', person?.IdPersona] });
  };
  const remove = useMutation({
    mutationFn: (id: number) => attendanceApi.unjustify(id),
    onSuccess: async () => {
      notify('attendance.justify.removed', { type: 'success' });
      await refresh();
    },
  });
  const data = days.data;
  const totals = (data?.dias ?? []).reduce(
    (t, d) => ({
      worked: t.worked + d.MinutosTrabajados,
      late: t.late + d.MinutosTardanza,
      overtime: t.overtime + d.MinutosExtraAntes + d.MinutosExtraDespues,
      absences: t.absences + (d.Estado === 'ABSENT' ? 1 : 0),
    }),
    { worked: 0, late: 0, overtime: 0, absences: 0 },
  );
  const monthName = new Intl.DateTimeFormat(locale === 'en' ? 'en-GB' : 'es-PE', {
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  }).format(new Date(`${shown}-01T00:00:00Z`));
  const chosen = day && data?.dias.find((d) => d.Fecha.slice(0, 10) === day);
  return (
    <Stack spacing={2} sx={{ mt: 1, minWidth: 0 }} data-testid="attendance-people">
      <ScreenHeader title={title}>
        <Box sx={{ width: { xs: '100%', sm: 420 } }}>
          <PersonPicker
            id="attendance-person"
            value={person}
            onChange={(picked) => {
              setPerson(picked);
              setDay(undefined);
            }}
            find={attendanceApi.people}
            queryKey="attendance-people"
            label={translate('attendance.screens.person')}
            noneKey="attendance.screens.nobody"
          />
        </Box>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.5 }}>
          <IconButton
            aria-label={translate('attendance.screens.previousMonth')}
            onClick={() => {
              setMonth(shiftMonth(shown, -1));
              setDay(undefined);
            }}
          >
            <ChevronLeftIcon />
          </IconButton>
          <Typography sx={{ minWidth: 150, textAlign: 'center' }} data-testid="attendance-month">
            {monthName}
          </Typography>
          <IconButton
            aria-label={translate('attendance.screens.nextMonth')}
            onClick={() => {
              setMonth(shiftMonth(shown, 1));
              setDay(undefined);
            }}
          >
            <ChevronRightIcon />
          </IconButton>
        </Box>
        {!contractor && (
          <Button
            variant="outlined"
            startIcon={<RefreshIcon />}
            disabled={!person || compute.isPending}
            onClick={() => compute.mutate()}
          >
            {translate('attendance.screens.compute')}
          </Button>
        )}
      </ScreenHeader>
      {days.isFetching && <LinearProgress aria-label={translate('ra.page.loading')} />}
      <Refusal error={days.error ?? compute.error ?? remove.error} testId="attendance-refusal" />
      {!person && <Alert severity="info">{translate('attendance.screens.choosePerson')}</Alert>}
      {person && data && (
        <>
          <Card>
            <CardContent sx={{ display: 'flex', flexWrap: 'wrap', gap: 3 }} data-testid="attendance-totals">
              <Typography>
                {translate('attendance.screens.totals.worked')}: <strong>{hoursText(totals.worked)}</strong>
              </Typography>
              <Typography>
                {translate('attendance.screens.totals.late')}: <strong>{totals.late} min</strong>
              </Typography>
              <Typography>
                {translate('attendance.screens.totals.overtime')}:{' '}
                <strong>{hoursText(totals.overtime)}</strong>
              </Typography>
              <Typography>
                {translate('attendance.screens.totals.absences')}: <strong>{totals.absences}</strong>
              </Typography>
            </CardContent>
          </Card>
          <Card>
            <CardContent sx={{ overflowX: 'auto' }}>
              <MonthCalendar
                month={shown}
                days={data.dias}
                timeZone={data.zonaHoraria}
                selected={day}
                onSelect={setDay}
              />
            </CardContent>
          </Card>
          {day && (
            <DayDetail
              day={day}
              row={chosen || undefined}
              markings={data.marcaciones}
              justifications={data.justificaciones.filter((j) => j.Fecha === day)}
              timeZone={data.zonaHoraria}
              {...(!contractor && {
                onJustify: () => setJustifying(true),
                onRemove: (id: number) => remove.mutate(id),
              })}
            />
          )}
          {justifying && day && person && (
            <JustifyDialog
              person={person.IdPersona}
              day={day}
              suggested={
                chosen && chosen.Estado === 'ABSENT' ? 'F' : chosen && chosen.MinutosTardanza > 0 ? 'T' : 'H'
              }
              onClose={() => setJustifying(false)}
              onDone={async () => {
                setJustifying(false);
                notify('attendance.justify.saved', { type: 'success' });
                await refresh();
              }}
            />
          )}
        </>
      )}
    </Stack>
  );
}
