import { Box, Card, CardContent, Typography } from '@mui/material';
import { BarChart } from '@mui/x-charts/BarChart';
import { useTranslate } from 'react-admin';
import { addDays, daysBetween } from '../../../shared/dates.js';
import { ChartTexts } from '../../components/ChartTexts.js';
import { formatDate } from '../../format.js';
import type { Report } from './api.js';

/** Up to this many days the chart has a bar for every day of the range, meals or none. */
const EVERY_DAY = 62;

/** The meals per day (rows) and service (columns `s<IdServicio>`), and the services in order. */
export function mealsPerDay(report: Report, from: string, to: string) {
  const services = new Map<number, string>();
  for (const r of report.porDia) if (!services.has(r.IdServicio)) services.set(r.IdServicio, r.Servicio);
  const days =
    daysBetween(from, to) < EVERY_DAY
      ? Array.from({ length: daysBetween(from, to) + 1 }, (_, i) => addDays(from, i))
      : [...new Set(report.porDia.map((r) => r.Fecha))];
  const rows = new Map<string, Record<string, string | number>>(
    days.map((day) => [
      day,
      { Fecha: day, ...Object.fromEntries([...services.keys()].map((id) => [`s${id}`, 0])) },
    ]),
  );
  for (const r of report.porDia) {
    const row = rows.get(r.Fecha);
    if (row) row[`s${r.IdServicio}`] = r.consumos;
  }
  return { dataset: [...rows.values()], services: [...services.entries()] };
}

/** A bar a day, stacked by service. */
export function ReportChart({ report, from, to }: { report: Report; from: string; to: string }) {
  const translate = useTranslate();
  const text = (key: string) => translate(`dining.screens.report.${key}`);
  const { dataset, services } = mealsPerDay(report, from, to);
  return (
    <Card data-testid="dining-report-chart">
      <CardContent>
        <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600 }}>
          {text('perDay')}
        </Typography>
        <Box role="img" aria-label={text('chart')} sx={{ minWidth: 0 }}>
          <ChartTexts noData={translate('dining.screens.noData')}>
            <BarChart
              height={300}
              dataset={dataset}
              xAxis={[
                {
                  scaleType: 'band',
                  dataKey: 'Fecha',
                  valueFormatter: (v: string) => formatDate(v).slice(0, 5),
                },
              ]}
              yAxis={[{ tickMinStep: 1 }]}
              series={services.map(([id, name]) => ({
                dataKey: `s${id}`,
                label: name,
                stack: 'meals',
              }))}
              grid={{ horizontal: true }}
            />
          </ChartTexts>
        </Box>
      </CardContent>
    </Card>
  );
}
