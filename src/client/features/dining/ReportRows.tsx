import { Box, Card, CardContent, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import { Grid, type GridColumn, type GridState } from '../../components/grid/Grid.js';
import { formatDate } from '../../format.js';
import type { Currency, ReportRow } from './api.js';
import { formatMoney } from './texts.js';

/** The report's meals, a page at a time (the server's), newest first. */
export function ReportRows({
  rows,
  total,
  loading,
  state,
  onState,
  currency,
}: {
  currency: Currency | null;
  rows: ReportRow[] | undefined;
  total: number | undefined;
  loading: boolean;
  state: GridState;
  onState(state: GridState): void;
}) {
  const translate = useTranslate();
  const field = (key: string) => translate(`dining.report.${key}`);
  const amount = (key: 'ImporteTotal' | 'ImporteCompania' | 'ImporteTrabajador'): GridColumn<ReportRow> => ({
    id: key,
    label: field(key),
    align: 'right',
    render: (row) => <span style={{ whiteSpace: 'nowrap' }}>{formatMoney(row[key], currency)}</span>,
  });
  /** A text with a second, smaller line under it. */
  const twoLines = (first: string, second: string | null, minWidth?: number) => (
    <Box component="span" sx={{ display: 'inline-block', minWidth: { md: minWidth } }}>
      {first}
      <Typography component="span" variant="caption" color="text.secondary" sx={{ display: 'block' }}>
        {second}
      </Typography>
    </Box>
  );
  const columns: GridColumn<ReportRow>[] = [
    {
      id: 'Nombres',
      label: field('Nombres'),
      render: (row) => (
        <span data-meal={row.IdConsumo}>{twoLines(row.Nombres ?? '—', row.Documento, 170)}</span>
      ),
    },
    {
      id: 'Fecha',
      label: field('Fecha'),
      render: (row) => (
        <Box sx={{ whiteSpace: 'nowrap' }}>{twoLines(formatDate(row.Fecha), row.Hora.slice(0, 5))}</Box>
      ),
    },
    {
      id: 'Servicio',
      label: field('Servicio'),
      render: (row) => twoLines(row.Servicio ?? '—', row.Comedor, 140),
    },
    { id: 'Compania', label: field('Compania'), render: (row) => row.Compania ?? '—' },
    {
      id: 'Origen',
      label: field('Origen'),
      render: (row) => translate(`dining.screens.origin.${row.Origen}`, { _: row.Origen }),
    },
    amount('ImporteTotal'),
    amount('ImporteCompania'),
    amount('ImporteTrabajador'),
  ];
  const title = translate('dining.screens.report.rows');
  return (
    <Card data-testid="dining-report-rows">
      <CardContent sx={{ pb: 0 }}>
        <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600 }}>
          {title}
        </Typography>
      </CardContent>
      <Grid
        label={title}
        columns={columns}
        rows={rows}
        total={total}
        loading={loading}
        state={state}
        onState={onState}
        rowKey={(row) => row.IdConsumo}
        empty={translate('dining.screens.report.noMeals')}
        pageSizes={[25, 50, 100]}
      />
    </Card>
  );
}
