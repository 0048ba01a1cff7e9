import DoorFrontIcon from '@mui/icons-material/DoorFront';
import {
  Box,
  Button,
  Chip,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  LinearProgress,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
  useMediaQuery,
} from '@mui/material';
import type { Theme } from '@mui/material/styles';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useRecordContext, useTranslate } from 'react-admin';
import { formatDateTime } from '../../../format.js';
import { apiCall } from '../../../session/http.js';

interface Answer {
  Fecha: string;
  puertas: Array<{
    IdPuerta: number;
    Puerta: string;
    Zona: string | null;
    Permitido: 'S' | 'N';
    Mensaje: string;
  }>;
}

/**
 * On a person's or vehicle's access assignment: its effective access now, door by door of the
 * division, as the gate would decide an entry (allowed, or the reason it is not).
 */
export default function EffectiveAccessButton() {
  const record = useRecordContext();
  const translate = useTranslate();
  const [open, setOpen] = useState(false);
  const phone = useMediaQuery<Theme>((theme) => theme.breakpoints.down('sm'), { noSsr: true });
  const holder = record?.IdPersona
    ? `IdPersona=${record.IdPersona}`
    : record?.IdVehiculo
      ? `IdVehiculo=${record.IdVehiculo}`
      : '';
  const answer = useQuery({
    queryKey: ['effective-access', holder],
    queryFn: () => apiCall<Answer>('GET', `/api/acceso/accesoefectivo?${holder}`),
    enabled: open && Boolean(holder),
  });
  if (!holder) return null;
  return (
    <>
      <Button
        size="small"
        startIcon={<DoorFrontIcon />}
        onClick={() => setOpen(true)}
        className="effective-access"
      >
        {translate('effectiveAccess.open')}
      </Button>
      <Dialog open={open} onClose={() => setOpen(false)} maxWidth="md" fullWidth fullScreen={phone}>
        <DialogTitle>
          {translate('effectiveAccess.title')}
          {answer.data && ` · ${formatDateTime(answer.data.Fecha)}`}
        </DialogTitle>
        {answer.isFetching && <LinearProgress />}
        <DialogContent>
          <Box sx={{ overflowX: 'auto' }}>
            <Table size="small" data-testid="effective-access">
              <TableHead>
                <TableRow>
                  <TableCell>{translate('effectiveAccess.door')}</TableCell>
                  <TableCell>{translate('effectiveAccess.allowed')}</TableCell>
                  <TableCell>{translate('effectiveAccess.reason')}</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {(answer.data?.puertas ?? []).map((door) => (
                  <TableRow key={door.IdPuerta} data-door={door.IdPuerta}>
                    <TableCell>
                      {door.Puerta}
                      {door.Zona && (
                        <Typography variant="caption" color="text.secondary" component="div">
                          {translate('effectiveAccess.zone')}: {door.Zona}
                        </Typography>
                      )}
                    </TableCell>
                    <TableCell>
                      <Chip
                        size="small"
                        color={door.Permitido === 'S' ? 'success' : 'error'}
                        label={translate(
                          door.Permitido === 'S' ? 'effectiveAccess.yes' : 'effectiveAccess.no',
                        )}
                      />
                    </TableCell>
                    <TableCell>{door.Mensaje}</TableCell>
                  </TableRow>
                ))}
                {answer.isSuccess && !answer.data.puertas.length && (
                  <TableRow>
                    <TableCell colSpan={3}>{translate('effectiveAccess.none')}</TableCell>
                  </TableRow>
                )}
              </TableBody>
            </Table>
          </Box>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setOpen(false)}>{translate('ra.action.close')}</Button>
        </DialogActions>
      </Dialog>
    </>
  );
}
