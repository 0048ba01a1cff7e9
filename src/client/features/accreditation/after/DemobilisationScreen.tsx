import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  CardHeader,
  Checkbox,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  LinearProgress,
  List,
  ListItem,
  ListItemText,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  TextField,
} from '@mui/material';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslate } from 'react-admin';
import { useParams } from 'react-router-dom';
import type { RequestStatus } from '../../../../../workflows/request.machine.js';
import { formatDate } from '../../../format.js';
import { useConsoleTitle } from '../../../resources/ScreenTitle.js';
import { ApiRequestError } from '../../../session/http.js';
import { StatusChip } from '../status.js';
import { afterApi, KIND_OF_SEGMENT } from './api.js';

/** The refusal a call answered, with the rows that stopped a mass action. */
export function Refusal({ error }: { error: unknown }) {
  const translate = useTranslate();
  if (!error) return null;
  const known = error instanceof ApiRequestError ? error : undefined;
  const rows = Object.entries(
    ((known?.body as { errors?: Record<string, { message?: string }> } | undefined)?.errors ?? {}) as Record<
      string,
      { message?: string }
    >,
  );
  return (
    <Alert severity="error" data-testid="refusal">
      {known?.messageKey ? translate(known.messageKey, known.params) : String((error as Error).message)}
      {rows.length > 0 && (
        <ul>
          {rows.map(([field, problem]) => (
            <li key={field}>
              {field}: {problem.message}
            </li>
          ))}
        </ul>
      )}
    </Alert>
  );
}

/**
 * Demobilisation (spec section 2): the requester selects accredited workers or vehicles of its
 * company, writes the required observation and files one request each; the authoriser selects
 * pending ones and approves, observes or rejects them together (all or nothing). Each request's
 * record shows what its approval revoked.
 */
export default function DemobilisationScreen({ side }: { side: 'solicitante' | 'autorizador' }) {
  const translate = useTranslate();
  const entity = KIND_OF_SEGMENT[useParams().kind ?? 'persona'] ?? 'T';
  useConsoleTitle(translate(`accreditation.entities.${entity}`), translate('demobilisation.title'));
  const client = useQueryClient();
  const [selected, setSelected] = useState<number[]>([]);
  const [picked, setPicked] = useState<number[]>([]);
  const [observation, setObservation] = useState('');
  const [shown, setShown] = useState<number | undefined>();
  const candidates = useQuery({
    queryKey: ['demobilisation', 'candidates', entity],
    queryFn: () => afterApi.candidates(entity),
    enabled: side === 'solicitante',
  });
  const requests = useQuery({
    queryKey: ['demobilisation', 'list', side, entity],
    queryFn: () => afterApi.demobilisations(entity),
  });
  const record = useQuery({
    queryKey: ['demobilisation', 'record', shown],
    queryFn: () => afterApi.demobilisation(shown as number),
    enabled: shown !== undefined,
  });
  const refresh = () => client.invalidateQueries({ queryKey: ['demobilisation'] });
  const file = useMutation({
    mutationFn: () => afterApi.demobilise(entity, selected, observation),
    onSuccess: () => {
      setSelected([]);
      setObservation('');
      void refresh();
    },
  });
  const decide = useMutation({
    mutationFn: (action: string) => afterApi.decideDemobilisations(picked, action, observation),
    onSuccess: () => {
      setPicked([]);
      setObservation('');
      void refresh();
    },
  });
  const toggle = (list: number[], id: number) =>
    list.includes(id) ? list.filter((x) => x !== id) : [...list, id];
  const pending = (requests.data?.data ?? []).filter((r) => r.EstadoAprobacion === 'P');
  return (
    <Stack spacing={2} sx={{ mt: 1 }} data-testid={`demobilisation-${side}`}>
      {side === 'solicitante' && (
        <Card>
          <CardHeader title={translate('demobilisation.accredited')} />
          {candidates.isFetching && <LinearProgress aria-label={translate('ra.page.loading')} />}
          <CardContent>
            <Box sx={{ overflowX: 'auto' }}>
              <Table size="small" aria-label={translate('demobilisation.accredited')}>
                <TableHead>
                  <TableRow>
                    <TableCell padding="checkbox" />
                    <TableCell>{translate('demobilisation.holder')}</TableCell>
                    <TableCell>{translate('demobilisation.contract')}</TableCell>
                    <TableCell>{translate('demobilisation.until')}</TableCell>
                  </TableRow>
                </TableHead>
                <TableBody>
                  {(candidates.data ?? []).map((row) => (
                    <TableRow key={row.IdAcreditacion} data-testid={`candidate-${row.IdAcreditacion}`}>
                      <TableCell padding="checkbox">
                        <Checkbox
                          checked={selected.includes(row.IdAcreditacion)}
                          onChange={() => setSelected((list) => toggle(list, row.IdAcreditacion))}
                          slotProps={{
                            input: {
                              'aria-label': String(row.Documento || row.Placa || row.IdAcreditacion),
                            } as object,
                          }}
                        />
                      </TableCell>
                      <TableCell>
                        {row.Placa ?? `${row.Apellido ?? ''} ${row.Nombre ?? ''} (${row.Documento ?? ''})`}
                      </TableCell>
                      <TableCell>{row.NumeroContrato}</TableCell>
                      <TableCell>{formatDate(row.FechaFin)}</TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            </Box>
            <TextField
              label={translate('demobilisation.observation')}
              value={observation}
              onChange={(event) => setObservation(event.target.value)}
              required
              multiline
              minRows={2}
              fullWidth
              sx={{ mt: 2 }}
              inputProps={{ maxLength: 500 }}
            />
            <Refusal error={file.error} />
            <Button
              sx={{ mt: 2 }}
              variant="contained"
              disabled={!selected.length || !observation.trim() || file.isPending}
              onClick={() => file.mutate()}
            >
              {translate('demobilisation.file', { smart_count: selected.length })}
            </Button>
          </CardContent>
        </Card>
      )}
      <Card>
        <CardHeader title={translate('demobilisation.requests')} />
        {requests.isFetching && <LinearProgress aria-label={translate('ra.page.loading')} />}
        <CardContent>
          <Box sx={{ overflowX: 'auto' }}>
            <Table size="small" aria-label={translate('demobilisation.requests')}>
              <TableHead>
                <TableRow>
                  {side === 'autorizador' && <TableCell padding="checkbox" />}
                  <TableCell>{translate('accreditation.columns.NumeroSolicitud')}</TableCell>
                  <TableCell>{translate('demobilisation.holder')}</TableCell>
                  <TableCell>{translate('accreditation.columns.FechaFin')}</TableCell>
                  <TableCell>{translate('accreditation.columns.EstadoAprobacion')}</TableCell>
                  <TableCell />
                </TableRow>
              </TableHead>
              <TableBody>
                {(requests.data?.data ?? []).map((row) => (
                  <TableRow key={row.IdSolicitud} data-testid={`demobilisation-${row.IdSolicitud}`}>
                    {side === 'autorizador' && (
                      <TableCell padding="checkbox">
                        <Checkbox
                          disabled={row.EstadoAprobacion !== 'P'}
                          checked={picked.includes(row.IdSolicitud)}
                          onChange={() => setPicked((list) => toggle(list, row.IdSolicitud))}
                          slotProps={{ input: { 'aria-label': row.NumeroSolicitud } as object }}
                        />
                      </TableCell>
                    )}
                    <TableCell>{row.NumeroSolicitud}</TableCell>
                    <TableCell>
                      {row.Nombres} ({row.Documento})
                    </TableCell>
                    <TableCell>{formatDate(row.FechaFin)}</TableCell>
                    <TableCell>
                      <StatusChip status={row.EstadoAprobacion as RequestStatus} />
                    </TableCell>
                    <TableCell>
                      <Button size="small" onClick={() => setShown(row.IdSolicitud)}>
                        {translate('demobilisation.show')}
                      </Button>
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </Box>
          {side === 'autorizador' && (
            <>
              <TextField
                label={translate('demobilisation.reason')}
                value={observation}
                onChange={(event) => setObservation(event.target.value)}
                multiline
                minRows={2}
                fullWidth
                sx={{ mt: 2 }}
                inputProps={{ maxLength: 500 }}
              />
              <Refusal error={decide.error} />
              <Stack direction="row" spacing={1} sx={{ mt: 2 }}>
                <Button
                  variant="contained"
                  color="success"
                  disabled={!picked.length || decide.isPending}
                  onClick={() => decide.mutate('APROBAR')}
                >
                  {translate('demobilisation.approve', { smart_count: picked.length })}
                </Button>
                <Button
                  variant="outlined"
                  disabled={!picked.length || !observation.trim() || decide.isPending}
                  onClick={() => decide.mutate('OBSERVAR')}
                >
                  {translate('demobilisation.observe')}
                </Button>
                <Button
                  variant="outlined"
                  color="error"
                  disabled={!picked.length || !observation.trim() || decide.isPending}
                  onClick={() => decide.mutate('RECHAZAR')}
                >
                  {translate('demobilisation.reject')}
                </Button>
                <Button
                  disabled={!pending.length}
                  onClick={() => setPicked(pending.map((r) => r.IdSolicitud))}
                >
                  {translate('demobilisation.selectPending')}
                </Button>
              </Stack>
            </>
          )}
        </CardContent>
      </Card>
      <Dialog open={shown !== undefined} onClose={() => setShown(undefined)} fullWidth maxWidth="sm">
        <DialogTitle>{record.data?.NumeroSolicitud ?? translate('demobilisation.record')}</DialogTitle>
        <DialogContent>
          {record.isFetching && <LinearProgress aria-label={translate('ra.page.loading')} />}
          {record.data && (
            <>
              <StatusChip status={record.data.EstadoAprobacion as RequestStatus} />
              <p>{record.data.Observacion}</p>
              {record.data.ObservacionAutorizador && <p>{record.data.ObservacionAutorizador}</p>}
              <strong>{translate('demobilisation.revoked')}</strong>
              <List dense data-testid="revoked">
                {record.data.revocados.length === 0 && (
                  <ListItem>
                    <ListItemText primary={translate('demobilisation.nothingRevoked')} />
                  </ListItem>
                )}
                {record.data.revocados.map((r) => (
                  <ListItem key={`${r.Recurso}-${r.IdRegistro}`}>
                    <ListItemText
                      primary={translate(`resources.${r.Recurso}.name`, { smart_count: 1 })}
                      secondary={`#${r.IdRegistro}`}
                    />
                  </ListItem>
                ))}
              </List>
            </>
          )}
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setShown(undefined)}>{translate('ra.action.close')}</Button>
        </DialogActions>
      </Dialog>
    </Stack>
  );
}
