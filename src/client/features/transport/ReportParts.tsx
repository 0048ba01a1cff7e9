import { Box, Card, CardContent, Typography } from '@mui/material';
import { BarChart } from '@mui/x-charts/BarChart';
import type { ReactNode } from 'react';
import { useLocaleState, useTranslate } from 'react-admin';
import { addDays, daysBetween } from '../../../shared/dates.js';
import { ChartTexts } from '../../components/ChartTexts.js';
import { type GridColumn, LocalGrid } from '../../components/grid/Grid.js';
import { formatDate } from '../../format.js';
import type { RouteOccupancy, TransportReport } from './api.js';

const R = 'transport.screens.report';
const FIGURES = ['viajes', 'asientos', 'reservados', 'abordados', 'noPresentados', 'ocupacion'] as const;
type Figure = (typeof FIGURES)[number];

/** A share of seats as people read it: "85.7 %". */
export const shareText = (share: number, locale: string) =>
  `${new Intl.NumberFormat(locale === 'en' ? 'en-GB' : 'es-PE', { maximumFractionDigits: 1 }).format(share)} %`;

/** The period's totals over its routes (the share of seats booked of those offered). */
export function totalsOf(report: TransportReport): Record<Figure, number> {
  const sum = (f: Exclude<Figure, 'ocupacion'>) => report.rutas.reduce((s, r) => s + r[f], 0);
  const asientos = sum('asientos');
  const reservados = sum('reservados');
  return {
    viajes: sum('viajes'),
    asientos,
    reservados,
    abordados: sum('abordados'),
    noPresentados: sum('noPresentados'),
    ocupacion: asientos ? Math.round((reservados / asientos) * 1000) / 10 : 0,
  };
}

/** A titled card of the report. */
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

/** The period's figures: trips, seats offered, booked, boarded, no-shows and the occupancy. */
export function ReportTotals({ report }: { report: TransportReport }) {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const totals = totalsOf(report);
  return (
    <Card data-testid="transport-report-totals">
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
        {FIGURES.map((f) => (
          <Box key={f} sx={{ minWidth: 0 }}>
            <Typography component="dt" variant="body2" color="text.secondary">
              {translate(`${R}.figures.${f}`)}
            </Typography>
            <Typography component="dd" variant="h5" sx={{ m: 0 }} data-figure={f}>
              {f === 'ocupacion' ? shareText(totals.ocupacion, locale) : totals[f]}
            </Typography>
          </Box>
        ))}
      </CardContent>
    </Card>
  );
}

/** Each route's trips, seats, booked, boarded, no-shows and occupancy. */
export function RouteTable({ rows }: { rows: RouteOccupancy[] }) {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const title = translate(`${R}.byRoute`);
  const figure = (f: Figure): GridColumn<RouteOccupancy> => ({
    id: f,
    label: translate(`${R}.figures.${f}`),
    align: 'right',
    render: (r) => (f === 'ocupacion' ? shareText(r.ocupacion, locale) : String(r[f])),
  });
  return (
    <Section title={title} testId="transport-report-routes">
      <LocalGrid
        label={title}
        columns={[{ id: 'Ruta', label: translate('resources.trip.fields.IdRuta') }, ...FIGURES.map(figure)]}
        rows={rows}
        perPage={100}
        paged={false}
        rowKey={(r) => r.IdRuta}
        empty={translate(`${R}.noData`)}
      />
    </Section>
  );
}

/** Every day of the period with its seats offered, booked and boarded (none on a day without trips). */
function perDay(report: TransportReport) {
  const counted = new Map(report.dias.map((d) => [d.Fecha, d]));
  const span = Math.max(0, daysBetween(report.desde, report.hasta));
  return Array.from({ length: span + 1 }, (_, i) => addDays(report.desde, i)).map((Fecha) => ({
    Fecha,
    asientos: counted.get(Fecha)?.asientos ?? 0,
    reservados: counted.get(Fecha)?.reservados ?? 0,
    abordados: counted.get(Fecha)?.abordados ?? 0,
  }));
}

/** A group of bars a day: the seats offered, booked and boarded. */
export function SeatsChart({ report }: { report: TransportReport }) {
  const translate = useTranslate();
  const text = (key: string) => translate(`${R}.${key}`);
  return (
    <Section title={text('perDay')} testId="transport-report-chart">
      <CardContent>
        <Box role="img" aria-label={text('chart')} sx={{ minWidth: 0 }}>
          <ChartTexts noData={text('noData')}>
            <BarChart
              height={260}
              dataset={perDay(report)}
              xAxis={[
                {
                  scaleType: 'band',
                  dataKey: 'Fecha',
                  valueFormatter: (v: string) => formatDate(v).slice(0, 5),
                },
              ]}
              yAxis={[{ tickMinStep: 1 }]}
              series={[
                { dataKey: 'asientos', label: text('figures.asientos'), color: '#b0bec5' },
                { dataKey: 'reservados', label: text('figures.reservados'), color: '#1976d2' },
                { dataKey: 'abordados', label: text('figures.abordados'), color: '#2e7d32' },
              ]}
              grid={{ horizontal: true }}
            />
          </ChartTexts>
        </Box>
      </CardContent>
    </Section>
  );
}
