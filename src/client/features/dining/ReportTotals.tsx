import { Box, Card, CardContent, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import type { Currency, ReportTotals as Totals } from './api.js';
import { formatMoney } from './texts.js';

const FIGURES = ['consumos', 'importe', 'compania', 'trabajador'] as const;

/** The report's totals over every meal the filters keep: the meals, the amount and who bears it. */
export function ReportTotals({ totals, currency }: { totals: Totals; currency: Currency | null }) {
  const translate = useTranslate();
  return (
    <Card data-testid="dining-report-totals">
      <CardContent
        component="dl"
        sx={{
          m: 0,
          display: 'grid',
          gap: 2,
          gridTemplateColumns: { xs: 'repeat(2, minmax(0, 1fr))', md: 'repeat(4, minmax(0, 1fr))' },
        }}
      >
        {FIGURES.map((figure) => (
          <Box key={figure} sx={{ minWidth: 0 }}>
            <Typography component="dt" variant="body2" color="text.secondary">
              {translate(`dining.screens.report.totals.${figure}`)}
            </Typography>
            <Typography
              component="dd"
              variant="h5"
              sx={{ m: 0, overflowWrap: 'anywhere' }}
              data-total={figure}
            >
              {figure === 'consumos' ? totals.consumos : formatMoney(totals[figure], currency)}
            </Typography>
          </Box>
        ))}
      </CardContent>
    </Card>
  );
}
