import { Box, Stack, Typography } from '@mui/material';
import { BarChart } from '@mui/x-charts/BarChart';
import { LineChart } from '@mui/x-charts/LineChart';
import type { ReactNode } from 'react';
import { useTranslate } from 'react-admin';
import type { AttendedMonth as Month } from '../../../../shared/efficiency.js';
import { ChartTexts } from '../../../components/ChartTexts.js';

/** The report's months in three charts: requests and decisions, the decisions' outcomes, the attention time. */
export function MonthCharts({ months, monthName }: { months: Month[]; monthName: (mes: string) => string }) {
  const translate = useTranslate();
  const r = (key: string) => translate(`reports.${key}`);
  const chart = (label: string, node: ReactNode) => (
    <Box role="img" aria-label={label} sx={{ minWidth: 0, flex: '1 1 360px' }}>
      <Typography variant="body2" color="text.secondary">
        {label}
      </Typography>
      <ChartTexts noData={r('empty')}>{node}</ChartTexts>
    </Box>
  );
  return (
    <Stack direction={{ xs: 'column', md: 'row' }} spacing={2} useFlexGap flexWrap="wrap">
      {chart(
        r('charts.requests'),
        <BarChart
          height={260}
          xAxis={[{ scaleType: 'band', data: months.map((m) => monthName(m.Mes)) }]}
          yAxis={[{ tickMinStep: 1 }]}
          series={[
            { data: months.map((m) => m.Solicitudes), label: r('columns.Solicitudes') },
            { data: months.map((m) => m.Decisiones), label: r('columns.Decisiones') },
          ]}
          grid={{ horizontal: true }}
        />,
      )}
      {chart(
        r('charts.outcomes'),
        <BarChart
          height={260}
          xAxis={[{ scaleType: 'band', data: months.map((m) => monthName(m.Mes)) }]}
          yAxis={[{ tickMinStep: 1 }]}
          series={(['Aprobadas', 'Observadas', 'Rechazadas', 'Devueltas'] as const).map((key) => ({
            data: months.map((m) => m[key]),
            label: r(`columns.${key}`),
            stack: 'outcome',
          }))}
          grid={{ horizontal: true }}
        />,
      )}
      {chart(
        r('charts.attention'),
        <LineChart
          height={260}
          xAxis={[{ scaleType: 'point', data: months.map((m) => monthName(m.Mes)) }]}
          series={[
            {
              data: months.map((m) => m.PromedioHoras),
              label: r('charts.average'),
              connectNulls: true,
              curve: 'linear',
            },
            {
              data: months.map((m) => m.MaximoHoras),
              label: r('charts.longest'),
              connectNulls: true,
              curve: 'linear',
            },
          ]}
          grid={{ horizontal: true }}
        />,
      )}
    </Stack>
  );
}
