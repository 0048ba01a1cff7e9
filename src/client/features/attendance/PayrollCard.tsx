import DownloadIcon from '@mui/icons-material/Download';
import LockIcon from '@mui/icons-material/Lock';
import {
  Box,
  Button,
  Card,
  CardContent,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import { useMutation } from '@tanstack/react-query';
import { useNotify, useTranslate } from 'react-admin';
import { formatDate, formatDateTime } from '../../format.js';
import { ApiRequestError } from '../../session/http.js';
import { attendanceApi, type PayrollPeriods } from './api.js';

export type Payroll = PayrollPeriods['planillas'][number];

/** A period's dates as dd/mm/yyyy – dd/mm/yyyy. */
export const periodText = (desde: string, hasta: string) => `${formatDate(desde)} – ${formatDate(hasta)}`;

/** A refusal's words for a notification: the server's message key with its parameters, else its message. */
export function useNotifyRefusal() {
  const notify = useNotify();
  return (error: unknown) => {
    if (error instanceof ApiRequestError && error.messageKey)
      notify(error.messageKey, { type: 'error', messageArgs: error.params });
    else
      notify(String((error as Error | undefined)?.message ?? 'ra.notification.http_error'), {
        type: 'error',
      });
  };
}

/**
 * A payroll with its periodicity, its current and previous periods, the button that closes the
 * previous one (off once it is closed), and its last closings, each with its Excel export.
 */
export function PayrollCard({ payroll, onClose }: { payroll: Payroll; onClose(): void }) {
  const translate = useTranslate();
  const notify = useNotify();
  const refused = useNotifyRefusal();
  const text = (key: string, options?: Record<string, unknown>) =>
    translate(`attendance.closingScreen.${key}`, options);
  const closings = payroll.cierres.map((c) => ({
    ...c,
    Desde: c.Desde.slice(0, 10),
    Hasta: c.Hasta.slice(0, 10),
  }));
  const closed = closings.some((c) => c.Desde === payroll.anterior.desde.slice(0, 10));
  const excel = useMutation({
    mutationFn: (desde: string) => attendanceApi.closingExcel(payroll.IdPlanilla, desde),
    onSuccess: () => notify('app.export.done', { type: 'success' }),
    onError: refused,
  });
  const fact = (label: string, value: string) => (
    <Box sx={{ minWidth: 0 }}>
      <Typography variant="caption" color="text.secondary" component="div">
        {label}
      </Typography>
      <Typography variant="body2">{value}</Typography>
    </Box>
  );
  return (
    <Card data-payroll={payroll.Codigo}>
      <CardContent sx={{ display: 'grid', gridTemplateColumns: 'minmax(0, 1fr)', gap: 2 }}>
        <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1 }}>
          <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600 }}>
            {payroll.Codigo}
          </Typography>
          <Typography variant="subtitle1" sx={{ flex: '1 1 auto', minWidth: 0 }}>
            {payroll.Descripcion}
          </Typography>
        </Box>
        <Box
          sx={{
            display: 'grid',
            gridTemplateColumns: { xs: 'minmax(0, 1fr)', sm: 'repeat(3, minmax(0, max-content))' },
            columnGap: 4,
            rowGap: 1,
            alignItems: 'center',
          }}
        >
          {fact(text('periodicity'), translate(`enums.payrollPeriod.${payroll.Periodicidad}`))}
          {fact(text('current'), periodText(payroll.actual.desde, payroll.actual.hasta))}
          {fact(text('previous'), periodText(payroll.anterior.desde, payroll.anterior.hasta))}
        </Box>
        <Box>
          <Button
            variant="contained"
            startIcon={<LockIcon />}
            disabled={closed}
            onClick={onClose}
            data-testid={`close-${payroll.Codigo}`}
            sx={{ width: { xs: '100%', sm: 'auto' } }}
          >
            {text('close')}
          </Button>
        </Box>
        <Typography variant="subtitle2" component="h3">
          {text('closings')}
        </Typography>
        {closings.length === 0 ? (
          <Typography variant="body2" color="text.secondary">
            {text('none')}
          </Typography>
        ) : (
          <Box
            sx={{ overflowX: 'auto', maxWidth: '100%' }}
            tabIndex={0}
            role="region"
            aria-label={`${text('closings')} ${payroll.Codigo}`}
          >
            <Table size="small" sx={{ '& td, & th': { whiteSpace: 'nowrap' } }}>
              <TableHead>
                <TableRow>
                  <TableCell>{text('period')}</TableCell>
                  <TableCell align="right">{text('people')}</TableCell>
                  <TableCell align="right">{text('days')}</TableCell>
                  <TableCell>{text('closedBy')}</TableCell>
                  <TableCell>{text('closedAt')}</TableCell>
                  <TableCell />
                </TableRow>
              </TableHead>
              <TableBody>
                {closings.map((c) => (
                  <TableRow key={c.Desde} data-closing={c.Desde}>
                    <TableCell>{periodText(c.Desde, c.Hasta)}</TableCell>
                    <TableCell align="right">{c.Personas}</TableCell>
                    <TableCell align="right">{c.Dias}</TableCell>
                    <TableCell>{String(c.CerradoPor ?? '—')}</TableCell>
                    <TableCell>{formatDateTime(c.CerradoEn)}</TableCell>
                    <TableCell align="right">
                      <Button
                        size="small"
                        startIcon={<DownloadIcon />}
                        disabled={excel.isPending && excel.variables === c.Desde}
                        onClick={() => excel.mutate(c.Desde)}
                        data-testid={`export-${payroll.Codigo}-${c.Desde}`}
                      >
                        {text('export')}
                      </Button>
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </Box>
        )}
      </CardContent>
    </Card>
  );
}
