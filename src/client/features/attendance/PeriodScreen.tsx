import ChevronLeftIcon from '@mui/icons-material/ChevronLeft';
import ChevronRightIcon from '@mui/icons-material/ChevronRight';
import DownloadIcon from '@mui/icons-material/Download';
import { Alert, Box, Button, Card, CardContent, LinearProgress, Stack, Typography } from '@mui/material';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useNotify, useTranslate } from 'react-admin';
import { ATTENDANCE_MAX_DAYS, DAY_STATUSES, type DayStatus } from '../../../shared/attendance.js';
import { addDays, daysBetween, siteDate } from '../../../shared/dates.js';
import { FilterBar } from '../../components/FilterBar.js';
import { DateInput, Pick } from '../../components/fields.js';
import { Refusal } from '../../components/Refusal.js';
import { ScreenHeader } from '../../components/ScreenHeader.js';
import { useConsoleTitle } from '../../resources/ScreenTitle.js';
import { activeCompanies, restList } from '../../session/records.js';
import { session } from '../../session/store.js';
import { attendanceApi, type PeriodFilters } from './api.js';
import { ImportJustifications } from './ImportJustifications.js';
import { PeriodGrid, PeriodLegend } from './PeriodGrid.js';

const isDate = (v: string | undefined): v is string => Boolean(v && /^\d{4}-\d{2}-\d{2}$/.test(v));
const monthEnd = (day: string) => addDays(`${addDays(`${day.slice(0, 8)}28`, 4).slice(0, 7)}-01`, -1);
/** Most days drawn as columns: the server refuses longer periods anyway. */
const MOST_DAYS = 62;

/** The days from one date to another, both included. */
function datesOf(from: string, to: string): string[] {
  const dates: string[] = [];
  for (let d = from; d <= to && dates.length < MOST_DAYS; d = addDays(d, 1)) dates.push(d);
  return dates;
}

const staleChoices = { staleTime: 5 * 60_000, retry: false } as const;

/**
 * A period's attendance (spec section 2 Attendance): the people of a company, a payroll, a
 * division, with each day's result as a code on its colour and their totals, 50 people a page, and
 * the same as an Excel workbook. A contractor's profile sees its own company's people only.
 */
export default function PeriodScreen() {
  const translate = useTranslate();
  const notify = useNotify();
  const text = (key: string, options?: Record<string, unknown>) =>
    translate(`attendance.period.${key}`, options);
  const title = translate('app.menu.items.periodAttendance');
  useConsoleTitle(title);
  const contractor = session.profile()?.current.IdCompania != null;
  const today = siteDate(session.siteCountry());
  const [from, setFrom] = useState<string | undefined>(`${today.slice(0, 8)}01`);
  const [to, setTo] = useState<string | undefined>(monthEnd(today));
  const [company, setCompany] = useState<number | ''>('');
  const [payroll, setPayroll] = useState<number | ''>('');
  const [division, setDivision] = useState<number | ''>('');
  const [status, setStatus] = useState<DayStatus | ''>('');
  const [page, setPage] = useState(1);
  const filtering =
    <T,>(set: (value: T) => void) =>
    (value: T) => {
      set(value);
      setPage(1);
    };
  const companies = useQuery({
    queryKey: ['attendance-companies'],
    queryFn: activeCompanies,
    enabled: !contractor,
    ...staleChoices,
  });
  const payrolls = useQuery({
    queryKey: ['attendance-payroll-choices'],
    queryFn: () =>
      restList<{ IdPlanilla: number; Codigo: string; Descripcion: string }>(
        'payroll',
        { Activo: 'S' },
        '[0,99]',
      ),
    ...staleChoices,
  });
  const divisions = useQuery({
    queryKey: ['attendance-divisions'],
    queryFn: () => restList<{ IdDivision: number; Division: string }>('division', {}, '[0,99]'),
    ...staleChoices,
  });
  // The range is checked here first, so a date half typed never asks the server (it would refuse it).
  const span = isDate(from) && isDate(to) ? daysBetween(from, to) + 1 : undefined;
  const rangeProblem =
    span === undefined
      ? undefined
      : span < 1
        ? translate('attendance.reversedRange')
        : span > ATTENDANCE_MAX_DAYS
          ? translate('attendance.rangeTooLong', { max: ATTENDANCE_MAX_DAYS })
          : undefined;
  const ready = span !== undefined && !rangeProblem;
  const filters: PeriodFilters = {
    desde: from as string,
    hasta: to as string,
    ...(company !== '' && !contractor && { IdCompania: company }),
    ...(payroll !== '' && { IdPlanilla: payroll }),
    ...(division !== '' && { IdDivision: division }),
    ...(status !== '' && { Estado: status }),
  };
  const grid = useQuery({
    queryKey: ['attendance-period', filters, page],
    queryFn: async () => ({
      ...(await attendanceApi.period({ ...filters, pagina: page })),
      desde: filters.desde,
      hasta: filters.hasta,
    }),
    enabled: ready,
    placeholderData: keepPreviousData,
    retry: false,
  });
  const excel = useMutation({
    mutationFn: () => attendanceApi.periodExcel(filters),
    onSuccess: () => notify('app.export.done', { type: 'success' }),
  });
  const data = ready && !grid.isError ? grid.data : undefined;
  const first = data ? (data.pagina - 1) * data.porPagina : 0;
  const last = data ? first + data.personas.length : 0;
  return (
    <Stack spacing={2} sx={{ mt: 1, minWidth: 0 }} data-testid="attendance-period">
      <ScreenHeader title={title}>
        <Button
          variant="outlined"
          startIcon={<DownloadIcon />}
          disabled={!ready || excel.isPending || !data?.total}
          onClick={() => excel.mutate()}
          data-testid="attendance-period-excel"
        >
          {text('export')}
        </Button>
        {!contractor && <ImportJustifications />}
      </ScreenHeader>
      <FilterBar testId="attendance-period-filters">
        <DateInput id="period-from" label={text('from')} value={from} onChange={filtering(setFrom)} />
        <DateInput id="period-to" label={text('to')} value={to} onChange={filtering(setTo)} min={from} />
        {!contractor && (
          <Pick
            id="period-company"
            label={text('company')}
            value={company}
            options={(companies.data ?? []).map((c) => ({ value: c.IdCompania, label: c.Compania }))}
            onChange={filtering(setCompany)}
            none={text('any')}
            width={260}
          />
        )}
        <Pick
          id="period-payroll"
          label={text('payroll')}
          value={payroll}
          options={(payrolls.data ?? []).map((p) => ({
            value: p.IdPlanilla,
            label: `${p.Codigo} · ${p.Descripcion}`,
          }))}
          onChange={filtering(setPayroll)}
          none={text('any')}
          width={220}
        />
        <Pick
          id="period-division"
          label={text('division')}
          value={division}
          options={(divisions.data ?? []).map((d) => ({ value: d.IdDivision, label: d.Division }))}
          onChange={filtering(setDivision)}
          none={text('any')}
          width={200}
        />
        <Pick
          id="period-status"
          label={text('status')}
          value={status}
          options={DAY_STATUSES.map((s) => ({ value: s, label: translate(`attendance.status.${s}`) }))}
          onChange={filtering(setStatus)}
          none={text('any')}
          width={200}
        />
      </FilterBar>
      {grid.isFetching && <LinearProgress aria-label={translate('ra.page.loading')} />}
      {rangeProblem && (
        <Alert severity="warning" data-testid="attendance-period-range">
          {rangeProblem}
        </Alert>
      )}
      <Refusal error={(ready && grid.error) || excel.error} testId="attendance-period-refusal" />
      {data && data.total === 0 && (
        <Alert severity="info" data-testid="attendance-period-empty">
          {text('empty')}
        </Alert>
      )}
      {data && data.total > 0 && (
        <Card sx={{ minWidth: 0 }}>
          <CardContent sx={{ display: 'grid', gridTemplateColumns: 'minmax(0, 1fr)', gap: 2 }}>
            <PeriodGrid people={data.personas} dates={datesOf(data.desde, data.hasta)} />
            <Box
              sx={{
                display: 'flex',
                flexWrap: 'wrap',
                alignItems: 'center',
                justifyContent: 'flex-end',
                gap: 1,
              }}
              data-testid="attendance-period-pages"
            >
              <Typography variant="body2" sx={{ mr: 1 }}>
                {`${first + 1}–${last} · ${text('people', { count: data.total })}`}
              </Typography>
              <Button
                size="small"
                startIcon={<ChevronLeftIcon />}
                disabled={data.pagina <= 1 || grid.isFetching}
                onClick={() => setPage(data.pagina - 1)}
                data-testid="attendance-period-previous"
              >
                {text('previous')}
              </Button>
              <Button
                size="small"
                endIcon={<ChevronRightIcon />}
                disabled={last >= data.total || grid.isFetching}
                onClick={() => setPage(data.pagina + 1)}
                data-testid="attendance-period-next"
              >
                {text('next')}
              </Button>
            </Box>
            <PeriodLegend />
          </CardContent>
        </Card>
      )}
    </Stack>
  );
}
