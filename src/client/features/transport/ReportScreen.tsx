import DownloadIcon from '@mui/icons-material/Download';
import { Button, LinearProgress, Stack } from '@mui/material';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useNotify, useTranslate } from 'react-admin';
import { addDays, daysBetween, isIsoDate } from '../../../shared/dates.js';
import { DateInput } from '../../components/fields.js';
import { Refusal } from '../../components/Refusal.js';
import { ScreenHeader } from '../../components/ScreenHeader.js';
import { saveWorkbook } from '../../files.js';
import { useConsoleTitle } from '../../resources/ScreenTitle.js';
import { siteToday, transportApi } from './api.js';
import { ReportTotals, RouteTable, SeatsChart } from './ReportParts.js';

const dated = (v: string | undefined): v is string => Boolean(v && isIsoDate(v));

/** The first and last days of the month of a day. */
function monthOf(day: string) {
  const first = `${day.slice(0, 8)}01`;
  return { first, last: addDays(`${addDays(first, 32).slice(0, 8)}01`, -1) };
}

/**
 * The coordinator's transport report of a period (this month unless another is chosen, 62 days at
 * most): occupancy per route, the seats offered, booked and boarded per day as a chart, and every
 * trip as an Excel workbook.
 */
export default function ReportScreen() {
  const translate = useTranslate();
  const notify = useNotify();
  const text = (key: string) => translate(`transport.screens.report.${key}`);
  const title = translate('app.menu.items.transportReport');
  useConsoleTitle(title);
  const month = monthOf(siteToday());
  const [from, setFrom] = useState<string | undefined>(month.first);
  const [to, setTo] = useState<string | undefined>(month.last);
  const ready = dated(from) && dated(to) && daysBetween(from, to) >= 0;
  const report = useQuery({
    queryKey: ['transport-report', from, to],
    queryFn: () => transportApi.report(from as string, to as string),
    enabled: ready,
    placeholderData: keepPreviousData,
    retry: false,
  });
  const excel = useMutation({
    mutationFn: () => transportApi.reportExcel(from as string, to as string),
    onSuccess: (file) => {
      saveWorkbook(file);
      notify('app.export.done', { type: 'success' });
    },
  });
  const data = ready && !report.isError ? report.data : undefined;
  return (
    <Stack spacing={2} sx={{ mt: 1, minWidth: 0 }} data-testid="transport-report">
      <ScreenHeader title={title}>
        <DateInput id="transport-report-from" label={text('from')} value={from} onChange={setFrom} />
        <DateInput id="transport-report-to" label={text('to')} value={to} onChange={setTo} min={from} />
        <Button
          variant="outlined"
          startIcon={<DownloadIcon />}
          disabled={!ready || excel.isPending}
          onClick={() => excel.mutate()}
          data-testid="transport-report-excel"
        >
          {text('excel')}
        </Button>
      </ScreenHeader>
      {report.isFetching && <LinearProgress aria-label={translate('ra.page.loading')} />}
      <Refusal error={report.error ?? excel.error} />
      {data && <ReportTotals report={data} />}
      {data && <SeatsChart report={data} />}
      {data && <RouteTable rows={data.rutas} />}
    </Stack>
  );
}
