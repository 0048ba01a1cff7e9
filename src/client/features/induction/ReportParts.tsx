import { Box, Card, CardContent, Typography } from '@mui/material';
import { BarChart } from '@mui/x-charts/BarChart';
import type { ReactNode } from 'react';
import { useLocaleState, useTranslate } from 'react-admin';
import { addDays, daysBetween } from '../../../shared/dates.js';
import { ChartTexts } from '../../components/ChartTexts.js';
import { Grid, type GridColumn, useGridState } from '../../components/grid/Grid.js';
import { formatDate } from '../../format.js';
import { type ExpiringInduction, type InductionReport, inLanguage, type Tally } from './api.js';

/** A pass rate as people read it: "85.7 %", or a dash when nobody was settled. */
export const rateText = (rate: number | null, locale: string) =>
  rate === null
    ? '—'
    : `${new Intl.NumberFormat(locale === 'en' ? 'en-GB' : 'es-PE', { maximumFractionDigits: 1 }).format(rate)} %`;

const FIGURES = [
  'sesiones',
  'reservados',
  'asistieron',
  'aprobados',
  'desaprobados',
  'tasaAprobacion',
] as const;

/** The period's figures: sessions, booked, attended, passed, failed and the pass rate. */
export function ReportTotals({ report }: { report: InductionReport }) {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  return (
    <Card data-testid="induction-report-totals">
      <CardContent
        component="dl"
        sx={{
          m: 0,
          display: 'grid',
          gap: 2,
          gridTemplateColumns: {
            xs: 'repeat(2, minmax(0, 1fr))',
            sm: 'repeat(3, minmax(0, 1fr))',
            md: 'repeat(6, minmax(0, 1fr))',
          },
        }}
      >
        {FIGURES.map((figure) => (
          <Box key={figure} sx={{ minWidth: 0 }}>
            <Typography component="dt" variant="body2" color="text.secondary">
              {translate(`induction.screens.report.figures.${figure}`)}
            </Typography>
            <Typography component="dd" variant="h5" sx={{ m: 0 }} data-figure={figure}>
              {figure === 'tasaAprobacion' ? rateText(report.tasaAprobacion, locale) : report[figure]}
            </Typography>
          </Box>
        ))}
      </CardContent>
    </Card>
  );
}

/** A titled card around a list of the report. */
function Section({ title, testId, children }: { title: string; testId: string; children: ReactNode }) {
  return (
    <Card data-testid={testId} sx={{ minWidth: 0 }}>
      <CardContent sx={{ pb: 0 }}>
        <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600 }}>
          {title}
        </Typography>
      </CardContent>
      {children}
    </Card>
  );
}

/** Booked, attended, passed, failed and the pass rate of each company or course. */
export function TallyTable<T extends Tally>({
  title,
  testId,
  rows,
  name,
  nameLabel,
}: {
  title: string;
  testId: string;
  rows: T[];
  name(row: T): string;
  nameLabel: string;
}) {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const [state, setState] = useGridState(1000);
  const figure = (id: keyof Tally): GridColumn<T> => ({
    id,
    label: translate(`induction.screens.report.figures.${id}`),
    align: 'right',
    render: (row) => (id === 'tasaAprobacion' ? rateText(row.tasaAprobacion, locale) : String(row[id])),
  });
  const columns: GridColumn<T>[] = [
    { id: 'name', label: nameLabel, render: name },
    figure('reservados'),
    figure('asistieron'),
    figure('aprobados'),
    figure('desaprobados'),
    figure('tasaAprobacion'),
  ];
  return (
    <Section title={title} testId={testId}>
      <Grid
        label={title}
        columns={columns}
        rows={rows}
        total={rows.length}
        state={state}
        onState={setState}
        rowKey={name}
        paged={false}
        empty={translate('induction.screens.report.noData')}
      />
    </Section>
  );
}

/** The valid inductions that end within 30 days of today, soonest first. */
export function ExpiringTable({ rows }: { rows: ExpiringInduction[] }) {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const [state, setState] = useGridState(1000);
  const title = translate('induction.screens.report.expiring');
  const columnLabel = (key: string) => translate(`induction.report.columns.${key}`);
  const columns: GridColumn<ExpiringInduction>[] = [
    { id: 'Persona', label: columnLabel('Persona') },
    { id: 'Documento', label: columnLabel('Documento') },
    { id: 'Compania', label: columnLabel('Compania') },
    {
      id: 'Curso',
      label: columnLabel('Curso'),
      render: (r) => `${r.Codigo} · ${inLanguage(locale, r.Curso, r.CursoIngles)}`,
    },
    {
      id: 'VenceEl',
      label: translate('induction.screens.report.until'),
      render: (r) => formatDate(r.VenceEl),
    },
  ];
  return (
    <Section title={title} testId="induction-report-expiring">
      <Grid
        label={title}
        columns={columns}
        rows={rows}
        total={rows.length}
        state={state}
        onState={setState}
        rowKey={(r) => r.IdRegistro}
        paged={false}
        empty={translate('induction.screens.report.noExpiring')}
      />
    </Section>
  );
}

/** The period's days (each one when it is short enough), with the people passed on each. */
function passedPerDay(report: InductionReport) {
  const counted = new Map(report.porDia.map((d) => [d.Fecha, d.aprobados]));
  const span = daysBetween(report.desde, report.hasta);
  const days =
    span <= 62
      ? Array.from({ length: span + 1 }, (_, i) => addDays(report.desde, i))
      : [...counted.keys()].sort();
  return days.map((Fecha) => ({ Fecha, aprobados: counted.get(Fecha) ?? 0 }));
}

/** A bar a day: the people who passed. */
export function PassedChart({ report }: { report: InductionReport }) {
  const translate = useTranslate();
  const text = (key: string) => translate(`induction.screens.report.${key}`);
  return (
    <Section title={text('perDay')} testId="induction-report-chart">
      <CardContent>
        <Box role="img" aria-label={text('chart')} sx={{ minWidth: 0 }}>
          <ChartTexts noData={text('noData')}>
            <BarChart
              height={260}
              dataset={passedPerDay(report)}
              xAxis={[
                {
                  scaleType: 'band',
                  dataKey: 'Fecha',
                  valueFormatter: (v: string) => formatDate(v).slice(0, 5),
                },
              ]}
              yAxis={[{ tickMinStep: 1 }]}
              series={[{ dataKey: 'aprobados', label: text('figures.aprobados'), color: '#2e7d32' }]}
              grid={{ horizontal: true }}
            />
          </ChartTexts>
        </Box>
      </CardContent>
    </Section>
  );
}
