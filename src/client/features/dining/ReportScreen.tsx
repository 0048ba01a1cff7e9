import DownloadIcon from '@mui/icons-material/Download';
import { Alert, Button, LinearProgress, TextField } from '@mui/material';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useNotify, useTranslate } from 'react-admin';
import { daysBetween } from '../../../shared/dates.js';
import { FilterBar } from '../../components/FilterBar.js';
import { DateInput, Pick } from '../../components/fields.js';
import { useGridState } from '../../components/grid/Grid.js';
import { Refusal } from '../../components/Refusal.js';
import { ScreenHeader } from '../../components/ScreenHeader.js';
import { session } from '../../session/store.js';
import { useSettled } from '../../useSettled.js';
import { type DiningChoices, diningApi, type ReportFilters } from './api.js';
import { DiningScreen } from './DiningScreen.js';
import { ReportChart } from './ReportChart.js';
import { ReportRows } from './ReportRows.js';
import { ReportTotals } from './ReportTotals.js';

const isDate = (v: string | undefined): v is string => Boolean(v && /^\d{4}-\d{2}-\d{2}$/.test(v));

function ConsumptionReport({ choices, title }: { choices: DiningChoices; title: string }) {
  const translate = useTranslate();
  const notify = useNotify();
  const text = (key: string, options?: Record<string, unknown>) =>
    translate(`dining.screens.report.${key}`, options);
  // A contractor's profile sees its company's meals only: it has no company to choose.
  const contractor = session.profile()?.current.IdCompania != null;
  const [from, setFrom] = useState<string | undefined>(`${choices.hoy.slice(0, 8)}01`);
  const [to, setTo] = useState<string | undefined>(choices.hoy);
  const [room, setRoom] = useState<number | ''>('');
  const [service, setService] = useState<number | ''>('');
  const [company, setCompany] = useState<number | ''>('');
  const [documentText, setDocumentText] = useState('');
  const documentNo = useSettled(documentText.trim().toUpperCase());
  const [grid, setGrid] = useGridState(25);
  const filtering =
    <T,>(set: (value: T) => void) =>
    (value: T) => {
      set(value);
      setGrid((before) => ({ ...before, page: 0 }));
    };
  const services = choices.comedores.find((r) => r.IdComedor === room)?.servicios ?? [];
  const companies = useQuery({
    queryKey: ['dining-companies'],
    queryFn: diningApi.companies,
    enabled: !contractor,
    staleTime: 5 * 60_000,
  });
  const person = useQuery({
    queryKey: ['dining-person', documentNo],
    queryFn: () => diningApi.person(documentNo),
    enabled: documentNo !== '',
    staleTime: 60_000,
  });
  const range = isDate(from) && isDate(to) && daysBetween(from, to) >= 0;
  const personId = documentNo ? person.data : undefined;
  const filters: ReportFilters = {
    desde: from as string,
    hasta: to as string,
    ...(room !== '' && { IdComedor: room }),
    ...(service !== '' && { IdServicio: service }),
    ...(company !== '' && !contractor && { IdCompania: company }),
    ...(personId != null && { IdPersona: personId }),
  };
  const ready = range && (documentNo === '' || personId != null);
  const report = useQuery({
    queryKey: ['dining-report', filters, grid.page, grid.perPage],
    queryFn: () => diningApi.report(filters, { skip: grid.page * grid.perPage, take: grid.perPage }),
    enabled: ready,
    placeholderData: keepPreviousData,
  });
  const excel = useMutation({
    mutationFn: () => diningApi.excel(filters),
    onSuccess: () => notify('app.export.done', { type: 'success' }),
  });
  const data = ready ? report.data : undefined;
  return (
    <>
      <ScreenHeader title={title}>
        <Button
          variant="outlined"
          startIcon={<DownloadIcon />}
          disabled={!ready || excel.isPending || !data?.totalCount}
          onClick={() => excel.mutate()}
          data-testid="dining-report-excel"
        >
          {text('excel')}
        </Button>
      </ScreenHeader>
      <FilterBar testId="dining-report-filters">
        <DateInput id="report-from" label={text('from')} value={from} onChange={filtering(setFrom)} />
        <DateInput id="report-to" label={text('to')} value={to} onChange={filtering(setTo)} min={from} />
        <Pick
          id="report-room"
          label={translate('dining.screens.room')}
          value={room}
          options={choices.comedores.map((r) => ({ value: r.IdComedor, label: r.Descripcion }))}
          onChange={filtering((value: number | '') => {
            setRoom(value);
            setService('');
          })}
          none={translate('dining.screens.all')}
          width={280}
        />
        <Pick
          id="report-service"
          label={translate('dining.screens.service')}
          value={service}
          options={services.map((s) => ({ value: s.IdServicio, label: s.Descripcion }))}
          onChange={filtering(setService)}
          none={translate('dining.screens.all')}
          width={200}
        />
        {!contractor && (
          <Pick
            id="report-company"
            label={text('company')}
            value={company}
            options={(companies.data ?? []).map((c) => ({ value: c.IdCompania, label: c.Compania }))}
            onChange={filtering(setCompany)}
            none={text('allCompanies')}
            width={280}
          />
        )}
        <TextField
          id="report-document"
          size="small"
          label={text('document')}
          value={documentText}
          onChange={(event) => filtering(setDocumentText)(event.target.value)}
          sx={{ width: { xs: '100%', sm: 180 } }}
          slotProps={{ htmlInput: { maxLength: 20, autoComplete: 'off' } }}
        />
      </FilterBar>
      {(report.isFetching || person.isFetching) && (
        <LinearProgress aria-label={translate('ra.page.loading')} />
      )}
      {documentNo !== '' && person.data === null && (
        <Alert severity="info" data-testid="dining-report-unknown">
          {text('unknownDocument', { document: documentNo })}
        </Alert>
      )}
      <Refusal error={report.error ?? person.error ?? excel.error} />
      {data && <ReportTotals totals={data.totales} currency={data.moneda} />}
      {data && range && data.totalCount > 0 && <ReportChart report={data} from={from} to={to} />}
      {data && (
        <ReportRows
          rows={data.data}
          currency={data.moneda}
          total={data.totalCount}
          loading={report.isFetching}
          state={grid}
          onState={setGrid}
        />
      )}
    </>
  );
}

/**
 * The consumption report: the meals served within dates, a room, a service, a company (a
 * contractor's own only) and a person; their totals and who bears them, the meals per day and
 * service, the meals page by page, and the same as an Excel workbook.
 */
export default function ReportScreen() {
  const translate = useTranslate();
  const title = translate('app.menu.items.consumptionReport');
  return (
    <DiningScreen title={title} testId="dining-report">
      {(choices) => <ConsumptionReport choices={choices} title={title} />}
    </DiningScreen>
  );
}
