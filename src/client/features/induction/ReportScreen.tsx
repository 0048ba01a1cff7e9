import DownloadIcon from '@mui/icons-material/Download';
import { Button, LinearProgress, Stack } from '@mui/material';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useLocaleState, useNotify, useTranslate } from 'react-admin';
import { addDays, daysBetween, isIsoDate } from '../../../shared/dates.js';
import { DateInput } from '../../components/fields.js';
import { Refusal } from '../../components/Refusal.js';
import { ScreenHeader } from '../../components/ScreenHeader.js';
import { saveWorkbook } from '../../files.js';
import { useConsoleTitle } from '../../resources/ScreenTitle.js';
import { inductionApi, inLanguage, siteToday } from './api.js';
import { stepped } from './calendar.js';
import { ExpiringTable, PassedChart, ReportTotals, TallyTable } from './ReportParts.js';

const dated = (v: string | undefined): v is string => Boolean(v && isIsoDate(v));

/**
 * The trainer's report of a period (this month unless another is chosen): sessions, booked,
 * attended, passed and failed and the pass rate, per company and per course; the people passed
 * per day as a chart; the inductions that expire within 30 days; every booking as an Excel workbook.
 */
export default function ReportScreen() {
  const translate = useTranslate();
  const notify = useNotify();
  const [locale] = useLocaleState();
  const text = (key: string) => translate(`induction.screens.report.${key}`);
  const title = translate('app.menu.items.inductionReport');
  useConsoleTitle(title);
  const today = siteToday();
  const [from, setFrom] = useState<string | undefined>(`${today.slice(0, 8)}01`);
  const [to, setTo] = useState<string | undefined>(addDays(stepped('month', today, 1), -1));
  const ready = dated(from) && dated(to) && daysBetween(from, to) >= 0;
  const report = useQuery({
    queryKey: ['induction-report', from, to],
    queryFn: () => inductionApi.report(from as string, to as string),
    enabled: ready,
    placeholderData: keepPreviousData,
  });
  const excel = useMutation({
    mutationFn: () => inductionApi.reportExcel(from as string, to as string),
    onSuccess: (file) => {
      saveWorkbook(file);
      notify('app.export.done', { type: 'success' });
    },
  });
  const data = ready ? report.data : undefined;
  return (
    <Stack spacing={2} sx={{ mt: 1, minWidth: 0 }} data-testid="induction-report">
      <ScreenHeader title={title}>
        <DateInput id="induction-report-from" label={text('from')} value={from} onChange={setFrom} />
        <DateInput id="induction-report-to" label={text('to')} value={to} onChange={setTo} min={from} />
        <Button
          variant="outlined"
          startIcon={<DownloadIcon />}
          disabled={!ready || excel.isPending}
          onClick={() => excel.mutate()}
          data-testid="induction-report-excel"
        >
          {text('excel')}
        </Button>
      </ScreenHeader>
      {report.isFetching && <LinearProgress aria-label={translate('ra.page.loading')} />}
      <Refusal error={report.error ?? excel.error} />
      {data && <ReportTotals report={data} />}
      {data && <PassedChart report={data} />}
      {data && (
        <>
          <TallyTable
            title={text('byCompany')}
            testId="induction-report-companies"
            rows={data.porCompania}
            name={(r) => r.Compania}
            nameLabel={translate('induction.report.columns.Compania')}
          />
          <TallyTable
            title={text('byCourse')}
            testId="induction-report-courses"
            rows={data.porCurso}
            name={(r) => `${r.Codigo} · ${inLanguage(locale, r.Curso, r.CursoIngles)}`}
            nameLabel={translate('induction.report.columns.Curso')}
          />
        </>
      )}
      {data && <ExpiringTable rows={data.porVencer} />}
    </Stack>
  );
}
