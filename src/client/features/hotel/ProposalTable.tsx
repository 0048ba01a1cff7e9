import {
  Box,
  Card,
  CardContent,
  Chip,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import { useTranslate } from 'react-admin';
import type { ProposalLine } from '../../../shared/hotel.js';

/** A mass reservation's proposal: how many were placed and not, and each person's bed or reason. */
export function ProposalTable({ lines, placed }: { lines: ProposalLine[]; placed: number }) {
  const translate = useTranslate();
  const field = (name: string) => translate(`resources.reservation.fields.${name}`);
  const label = translate('hotel.screens.mass.proposal');
  return (
    <Card data-testid="mass-proposal">
      <CardContent>
        <Stack direction="row" spacing={1} alignItems="center" useFlexGap flexWrap="wrap">
          <Typography variant="subtitle1" component="h2" sx={{ mr: 1 }}>
            {label}
          </Typography>
          <Chip
            color="success"
            label={translate('hotel.screens.mass.placed', { smart_count: placed })}
            data-testid="mass-placed"
            data-count={placed}
          />
          <Chip
            color={lines.length - placed ? 'warning' : 'default'}
            label={translate('hotel.screens.mass.unplaced', { smart_count: lines.length - placed })}
            data-testid="mass-unplaced"
            data-count={lines.length - placed}
          />
        </Stack>
      </CardContent>
      <Box sx={{ overflowX: 'auto' }} tabIndex={0} role="region" aria-label={label}>
        <Table size="small" aria-label={label}>
          <TableHead>
            <TableRow>
              <TableCell>{field('IdPersona')}</TableCell>
              <TableCell>{translate('hotel.screens.document')}</TableCell>
              <TableCell>{field('IdCompania')}</TableCell>
              <TableCell>{field('IdCama')}</TableCell>
              <TableCell>{translate('hotel.screens.room')}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {lines.map((line) => (
              <TableRow
                key={line.Documento}
                data-document={line.Documento}
                data-placed={line.IdCama !== null}
              >
                <TableCell>{line.Persona}</TableCell>
                <TableCell sx={{ whiteSpace: 'nowrap' }}>{line.Documento}</TableCell>
                <TableCell>{line.Compania ?? ''}</TableCell>
                {line.IdCama !== null ? (
                  <>
                    <TableCell sx={{ whiteSpace: 'nowrap' }}>{line.Cama}</TableCell>
                    <TableCell sx={{ whiteSpace: 'nowrap' }}>{line.Habitacion}</TableCell>
                  </>
                ) : (
                  <TableCell colSpan={2}>
                    <Typography variant="body2" color="warning.dark">
                      {line.Motivo}
                    </Typography>
                  </TableCell>
                )}
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </Box>
    </Card>
  );
}
