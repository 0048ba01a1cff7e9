import {
  Box,
  Card,
  CardContent,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useTranslate } from 'react-admin';
import type { AwayRow } from '../../../../shared/access.js';
import { formatDateTime } from '../../../format.js';
import { apiCall } from '../../../session/http.js';

const COLUMNS = ['Documento', 'NombreCompleto', 'Compania', 'Donde', 'Desde'] as const;

/**
 * The roll call's people away from the site but in the company's care now (on a bus on the road),
 * apart from those inside: shown only when there are some, refreshed with the roll call.
 */
export function AwayCard({ refreshMs }: { refreshMs: number }) {
  const translate = useTranslate();
  const away = useQuery({
    queryKey: ['roll-call-away'],
    queryFn: () => apiCall<AwayRow[]>('GET', '/api/acceso/evacuacion/fuera'),
    refetchInterval: refreshMs,
  });
  const rows = away.data ?? [];
  if (!rows.length) return null;
  const label = translate('headcount.away.title', { count: rows.length });
  return (
    <Card data-testid="roll-call-away">
      <CardContent>
        <Typography variant="h6" component="h2">
          {label}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          {translate('headcount.away.help')}
        </Typography>
      </CardContent>
      <Box sx={{ overflowX: 'auto' }} tabIndex={0} role="region" aria-label={label}>
        <Table size="small" aria-label={label}>
          <TableHead>
            <TableRow>
              {COLUMNS.map((c) => (
                <TableCell key={c}>{translate(`headcount.away.columns.${c}`)}</TableCell>
              ))}
            </TableRow>
          </TableHead>
          <TableBody>
            {rows.map((row) => (
              <TableRow key={row.IdPersona}>
                <TableCell>{row.Documento}</TableCell>
                <TableCell>{row.NombreCompleto}</TableCell>
                <TableCell>{row.Compania}</TableCell>
                <TableCell>{row.Donde}</TableCell>
                <TableCell>{row.Desde ? formatDateTime(row.Desde) : ''}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </Box>
    </Card>
  );
}
