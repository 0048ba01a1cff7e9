import {
  Box,
  Card,
  CardContent,
  Chip,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import { useTranslate } from 'react-admin';
import type { StayLine } from '../../../shared/hotel.js';
import { formatDate } from '../../format.js';

/**
 * A list of the dashboard's stays (arrivals, departures, overstays): who, from which company, in
 * which bed and when; for an overstay why (past its reservation or its accreditation). A sentence
 * when there is none; a long list scrolls inside its card.
 */
export function StayLines({
  id,
  title,
  lines,
  reasons = false,
}: {
  id: string;
  title: string;
  lines: StayLine[];
  reasons?: boolean;
}) {
  const translate = useTranslate();
  const field = (name: string) => translate(`resources.reservation.fields.${name}`);
  return (
    <Card data-testid={`dashboard-${id}`} data-count={lines.length} sx={{ height: '100%' }}>
      <CardContent sx={{ pb: 1 }}>
        <Typography variant="subtitle1" component="h2">
          {title}{' '}
          <Chip size="small" label={lines.length} color={lines.length && reasons ? 'warning' : 'default'} />
        </Typography>
      </CardContent>
      {lines.length ? (
        <Box sx={{ overflow: 'auto', maxHeight: 260 }} tabIndex={0} role="region" aria-label={title}>
          <Table size="small" stickyHeader aria-label={title}>
            <TableHead>
              <TableRow>
                <TableCell>{field('IdPersona')}</TableCell>
                <TableCell>{field('IdCompania')}</TableCell>
                <TableCell>{field('IdCama')}</TableCell>
                <TableCell>
                  {reasons ? translate('hotel.screens.dashboard.reason') : field('FechaFin')}
                </TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {lines.map((line) => (
                <TableRow
                  key={line.IdReserva}
                  data-reservation={line.IdReserva}
                  data-document={line.Documento}
                >
                  <TableCell>
                    {line.Persona}
                    <Typography
                      component="span"
                      variant="caption"
                      color="text.secondary"
                      sx={{ display: 'block' }}
                    >
                      {line.Documento}
                    </Typography>
                  </TableCell>
                  <TableCell>{line.Compania ?? ''}</TableCell>
                  <TableCell sx={{ whiteSpace: 'nowrap' }}>{line.Cama}</TableCell>
                  <TableCell>
                    {reasons && line.Motivo
                      ? translate(`hotel.screens.dashboard.reasons.${line.Motivo}`, {
                          date: formatDate(line.FechaFin),
                        })
                      : formatDate(line.FechaFin)}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </Box>
      ) : (
        <CardContent sx={{ pt: 0 }}>
          <Typography variant="body2" color="text.secondary">
            {translate('hotel.screens.dashboard.none')}
          </Typography>
        </CardContent>
      )}
    </Card>
  );
}
