import {
  Button,
  Card,
  CardContent,
  CardHeader,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  LinearProgress,
  List,
  ListItem,
  ListItemText,
  Stack,
  TextField,
} from '@mui/material';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslate } from 'react-admin';
import { useParams } from 'react-router-dom';
import type { RequestStatus } from '../../../../../workflows/request.machine.js';
import { useConsoleTitle } from '../../../resources/ScreenTitle.js';
import { StatusChip } from '../status.js';
import { afterApi, KIND_OF_SEGMENT } from './api.js';
import { MassDecision, Refusal } from './MassDecision.js';
import { AccreditedTable, RequestTable, toggled } from './tables.js';

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
  const pending = (requests.data?.data ?? []).filter((r) => r.EstadoAprobacion === 'P');
  return (
    <Stack spacing={2} sx={{ mt: 1 }} data-testid={`demobilisation-${side}`}>
      {side === 'solicitante' && (
        <Card>
          <CardHeader title={translate('demobilisation.accredited')} />
          {candidates.isFetching && <LinearProgress aria-label={translate('ra.page.loading')} />}
          <CardContent>
            <AccreditedTable
              rows={candidates.data ?? []}
              selected={selected}
              onToggle={(id) => setSelected((list) => toggled(list, id))}
              label={translate('demobilisation.accredited')}
            />
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
          <RequestTable
            rows={requests.data?.data ?? []}
            label={translate('demobilisation.requests')}
            endLabel={translate('accreditation.columns.FechaFin')}
            testId="demobilisation"
            picked={side === 'autorizador' ? picked : undefined}
            onToggle={(id) => setPicked((list) => toggled(list, id))}
            action={(row) => (
              <Button size="small" onClick={() => setShown(row.IdSolicitud)}>
                {translate('demobilisation.show')}
              </Button>
            )}
          />
          {side === 'autorizador' && (
            <MassDecision
              picked={picked.length}
              observation={observation}
              onObservation={setObservation}
              decide={decide}
              multiline
              pending={pending.map((r) => r.IdSolicitud)}
              onPick={setPicked}
            />
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
