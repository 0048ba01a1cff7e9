import { Table, TableBody, TableCell, TableContainer, TableHead, TableRow, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import { formatDateTime } from '../../../format.js';
import type { HistoryRow } from '../api.js';
import { StatusChip } from '../status.js';

/** A request's history: who moved it from which status to which, when and why. */
export function History({ rows }: { rows: HistoryRow[] }) {
  const translate = useTranslate();
  return (
    <section aria-labelledby="request-history">
      <Typography id="request-history" variant="h6" component="h2" sx={{ fontSize: '1.05rem', mb: 1 }}>
        {translate('accreditation.history.title')}
      </Typography>
      <TableContainer sx={{ overflowX: 'auto' }}>
        <Table size="small">
          <TableHead>
            <TableRow>
              <TableCell>{translate('accreditation.history.when')}</TableCell>
              <TableCell>{translate('accreditation.history.who')}</TableCell>
              <TableCell>{translate('accreditation.history.event')}</TableCell>
              <TableCell>{translate('accreditation.history.status')}</TableCell>
              <TableCell>{translate('accreditation.history.reason')}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {rows.map((row, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: the history never reorders
              <TableRow key={index}>
                <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatDateTime(row.Fecha)}</TableCell>
                <TableCell>{row.IdUsuario}</TableCell>
                <TableCell>
                  {translate(`accreditation.history.events.${row.Evento}`, { _: row.Evento })}
                </TableCell>
                <TableCell>
                  <StatusChip status={row.EstadoNuevo} />
                </TableCell>
                <TableCell>{row.Motivo}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableContainer>
    </section>
  );
}
