import DownloadIcon from '@mui/icons-material/Download';
import { Alert, Button, Card, CardContent, Stack, Typography } from '@mui/material';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useLocale, useNotify, useTranslate } from 'react-admin';
import type {
  Attended,
  AttendedAuthoriser as Authoriser,
  AttendedMonth as Month,
  EfficiencyReport as Report,
  AttendedRequirement as Requirement,
} from '../../../../shared/efficiency.js';
import { FilterBar } from '../../../components/FilterBar.js';
import { Pick } from '../../../components/fields.js';
import { Grid, type GridColumn, useGridState } from '../../../components/grid/Grid.js';
import { Refusal } from '../../../components/Refusal.js';
import { ScreenHeader } from '../../../components/ScreenHeader.js';
import { downloadFile } from '../../../files.js';
import { useConsoleTitle } from '../../../resources/ScreenTitle.js';
import { apiCall, queryString } from '../../../session/http.js';
import { MonthCharts } from './MonthCharts.js';

const MONTHS = Array.from({ length: 12 }, (_, i) => i + 1);
const KINDS = ['M', 'D', 'A', 'E', 'C'];

/**
 * The efficiency of approval (spec section 2, /reporte): for a year and a month range, the
 * requests sent a month, the outcome of the decisions (approved, observed, rejected) and the
 * average and longest attention time, in charts and tables; also per authoriser and per
 * requirement (where do requests wait?), each exported to Excel.
 */
export default function EfficiencyScreen() {
  const translate = useTranslate();
  const notify = useNotify();
  const locale = useLocale();
  const r = (key: string, options?: Record<string, unknown>) => translate(`reports.${key}`, options);
  const title = r('title');
  useConsoleTitle(title);
  const now = new Date();
  const [year, setYear] = useState<number | ''>(now.getFullYear());
  const [from, setFrom] = useState<number | ''>(1);
  const [to, setTo] = useState<number | ''>(now.getMonth() + 1);
  const [kind, setKind] = useState<string>('');
  const [usersGrid, setUsersGrid] = useGridState(10);
  const [requirementsGrid, setRequirementsGrid] = useGridState(10);
  const ask = { Anio: year, MesDesde: from, MesHasta: to, TipoSolicitud: kind };
  const report = useQuery({
    queryKey: ['efficiency', ask],
    queryFn: () => apiCall<Report>('GET', `/api/reporte/eficiencia?${queryString(ask)}`),
    placeholderData: keepPreviousData,
    retry: false,
    enabled: year !== '' && from !== '' && to !== '',
  });
  const excel = useMutation({
    mutationFn: (view: string) =>
      downloadFile(
        `/api/reporte/eficiencia/excel?${queryString({ ...ask, Vista: view })}`,
        'eficiencia.xlsx',
      ),
    onSuccess: () => notify('app.export.done', { type: 'success' }),
  });
  const monthName = (mes: string) =>
    new Date(Date.UTC(Number(mes.slice(0, 4)), Number(mes.slice(5, 7)) - 1, 15)).toLocaleDateString(
      locale === 'en' ? 'en-GB' : 'es-PE',
      { month: 'short', timeZone: 'UTC' },
    );
  const data = report.data;
  const hoursOf = (v: number | null) =>
    v === null ? '—' : v.toLocaleString(locale === 'en' ? 'en-GB' : 'es-PE');
  const figures = <T extends Attended>(): GridColumn<T>[] => [
    { id: 'Decisiones', label: r('columns.Decisiones'), align: 'right' },
    { id: 'PorcentajeAprobadas', label: r('columns.PorcentajeAprobadas'), align: 'right' },
    { id: 'PorcentajeObservadas', label: r('columns.PorcentajeObservadas'), align: 'right' },
    { id: 'PorcentajeRechazadas', label: r('columns.PorcentajeRechazadas'), align: 'right' },
    {
      id: 'PromedioHoras',
      label: r('columns.PromedioHoras'),
      align: 'right',
      render: (x) => hoursOf(x.PromedioHoras),
    },
    {
      id: 'MaximoHoras',
      label: r('columns.MaximoHoras'),
      align: 'right',
      render: (x) => hoursOf(x.MaximoHoras),
    },
  ];
  const page = <T,>(rows: T[] | undefined, state: { page: number; perPage: number }) =>
    rows?.slice(state.page * state.perPage, (state.page + 1) * state.perPage);
  const exportButton = (view: string) => (
    <Button
      size="small"
      startIcon={<DownloadIcon />}
      disabled={excel.isPending || !data?.total.Decisiones}
      onClick={() => excel.mutate(view)}
      data-testid={`efficiency-excel-${view}`}
    >
      {r('export')}
    </Button>
  );
  const section = (heading: string, view: string, content: React.ReactNode) => (
    <Card sx={{ minWidth: 0 }}>
      <CardContent>
        <Stack direction="row" alignItems="center" sx={{ mb: 1 }}>
          <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600, flex: 1 }}>
            {heading}
          </Typography>
          {exportButton(view)}
        </Stack>
        {content}
      </CardContent>
    </Card>
  );
  const months = data?.meses ?? [];

  return (
    <Stack spacing={2} sx={{ mt: 1, minWidth: 0 }} data-testid="efficiency-report">
      <ScreenHeader title={title}>
        <Typography variant="body2" color="text.secondary" sx={{ flexBasis: '100%', order: 3 }}>
          {r('subtitle')}
        </Typography>
      </ScreenHeader>
      <FilterBar testId="efficiency-filters">
        <Pick
          id="efficiency-year"
          label={r('filters.year')}
          value={year}
          options={Array.from({ length: 6 }, (_, i) => now.getFullYear() - i).map((y) => ({
            value: y,
            label: String(y),
          }))}
          onChange={setYear}
          width={120}
        />
        <Pick
          id="efficiency-from"
          label={r('filters.from')}
          value={from}
          options={MONTHS.map((m) => ({ value: m, label: monthName(`2000-${String(m).padStart(2, '0')}`) }))}
          onChange={(m) => {
            setFrom(m);
            if (m !== '' && to !== '' && m > to) setTo(m);
          }}
          width={140}
        />
        <Pick
          id="efficiency-to"
          label={r('filters.to')}
          value={to}
          options={MONTHS.filter((m) => from === '' || m >= from).map((m) => ({
            value: m,
            label: monthName(`2000-${String(m).padStart(2, '0')}`),
          }))}
          onChange={setTo}
          width={140}
        />
        <Pick
          id="efficiency-kind"
          label={r('filters.kind')}
          value={kind}
          options={KINDS.map((k) => ({ value: k, label: r(`kinds.${k}`) }))}
          onChange={setKind}
          none={r('filters.all')}
          width={240}
        />
      </FilterBar>
      <Refusal error={report.error || excel.error} testId="efficiency-refusal" />
      {data && (
        <Alert severity={data.total.Decisiones ? 'info' : 'warning'} data-testid="efficiency-totals">
          {data.total.Decisiones
            ? r('totals', {
                requests: data.total.Solicitudes,
                decisions: data.total.Decisiones,
                average: hoursOf(data.total.PromedioHoras),
                longest: hoursOf(data.total.MaximoHoras),
              })
            : r('empty')}
        </Alert>
      )}
      {data &&
        section(
          r('sections.months'),
          'meses',
          <Stack spacing={2}>
            <MonthCharts months={months} monthName={monthName} />
            <Grid
              label={r('sections.months')}
              columns={[
                { id: 'Mes', label: r('columns.Mes'), render: (m: Month) => monthName(m.Mes) },
                { id: 'Solicitudes', label: r('columns.Solicitudes'), align: 'right' },
                ...figures<Month>(),
              ]}
              rows={months}
              total={months.length}
              state={{ page: 0, perPage: 12 }}
              onState={() => undefined}
              paged={false}
              rowKey={(m) => m.Mes}
              testId="efficiency-months"
            />
          </Stack>,
        )}
      {data &&
        section(
          r('sections.authorisers'),
          'autorizadores',
          <Grid
            label={r('sections.authorisers')}
            columns={[{ id: 'Nombre', label: r('columns.Nombre') }, ...figures<Authoriser>()]}
            rows={page(data.autorizadores, usersGrid)}
            total={data.autorizadores.length}
            state={usersGrid}
            onState={setUsersGrid}
            rowKey={(u) => u.IdUsuario}
            empty={r('empty')}
            testId="efficiency-authorisers"
          />,
        )}
      {data &&
        section(
          r('sections.requirements'),
          'requisitos',
          <Grid
            label={r('sections.requirements')}
            columns={[{ id: 'Requisito', label: r('columns.Requisito') }, ...figures<Requirement>()]}
            rows={page(data.requisitos, requirementsGrid)}
            total={data.requisitos.length}
            state={requirementsGrid}
            onState={setRequirementsGrid}
            rowKey={(q) => q.IdRequisito}
            empty={r('empty')}
            testId="efficiency-requirements"
          />,
        )}
    </Stack>
  );
}
