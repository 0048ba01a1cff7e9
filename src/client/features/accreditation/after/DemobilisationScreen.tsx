import {
  Alert,
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
import { DatePicker } from '@mui/x-date-pickers/DatePicker';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { format } from 'date-fns';
import { useState } from 'react';
import { useTranslate } from 'react-admin';
import { useParams } from 'react-router-dom';
import type { RequestStatus } from '../../../../../workflows/request.machine.js';
import { requestNumber } from '../../../../shared/accreditation.js';
import { Refusal } from '../../../components/Refusal.js';
import { formatDate } from '../../../format.js';
import { DATE_FORMAT, DatesProvider, fromDate, toDate } from '../../../resources/form/dates.js';
import { useConsoleTitle } from '../../../resources/ScreenTitle.js';
import { DeleteSelected } from '../requests/DeleteSelected.js';
import { StatusChip } from '../status.js';
import { afterApi, KIND_OF_SEGMENT } from './api.js';
import { MassDecision } from './MassDecision.js';
import { AccreditedTable, candidateNames, holderName, RequestTable, toggled } from './tables.js';

/** An authoriser's decision once made: its action and whom it was for, with their dates. */
interface Decided {
  action: string;
  rows: Array<{ name: string; date: string }>;
}

/**
 * Demobilisation (spec section 2): the requester selects accredited workers or vehicles of its
 * company, writes the required observation and files one request each (and deletes incomplete
 * ones together, which a demobilisation, sent when filed, never is); the authoriser selects
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
  // The demobilisation's date: today unless another (today or later, within the accreditation).
  const today = format(new Date(), 'yyyy-MM-dd');
  const [date, setDate] = useState<string | undefined>(today);
  /** What the last call did, said once it is done. */
  const [done, setDone] = useState<{ filed?: { count: number; date: string }; decided?: Decided }>({});
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
    mutationFn: () => afterApi.demobilise(entity, selected, observation, date),
    onSuccess: () => {
      setDone({ filed: { count: selected.length, date: date ?? today } });
      setSelected([]);
      setObservation('');
      void refresh();
    },
  });
  const rows = requests.data?.data ?? [];
  const decide = useMutation({
    mutationFn: (action: string) => afterApi.decideDemobilisations(picked, action, observation),
    onSuccess: (_answer, action) => {
      setDone({
        decided: {
          action,
          rows: rows
            .filter((r) => picked.includes(r.IdSolicitud))
            .map((r) => ({ name: holderName(r), date: r.FechaFin })),
        },
      });
      setPicked([]);
      setObservation('');
      void refresh();
    },
  });
  const pending = rows.filter((r) => r.EstadoAprobacion === 'P');
  // The latest the date may be: the earliest end of the accreditations chosen.
  const chosenEnds = (candidates.data ?? [])
    .filter((c) => selected.includes(c.IdAcreditacion))
    .map((c) => c.FechaFin);
  const latest = chosenEnds.length ? chosenEnds.sort()[0] : undefined;
  const dateWrong =
    !date || date === 'invalid-date' || date < today || (latest !== undefined && date > latest);
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
            <DatesProvider>
              <DatePicker
                label={translate('demobilisation.date')}
                format={DATE_FORMAT}
                value={toDate(date)}
                minDate={toDate(today) ?? undefined}
                maxDate={toDate(latest) ?? undefined}
                onChange={(value) => setDate(fromDate(value))}
                slotProps={{
                  textField: {
                    required: true,
                    id: 'demobilisation-date',
                    sx: { mt: 2, maxWidth: { sm: 300 } },
                    error: dateWrong,
                    helperText: latest
                      ? translate('demobilisation.dateHelpUntil', { date: formatDate(latest) })
                      : translate('demobilisation.dateHelp'),
                  },
                }}
              />
            </DatesProvider>
            <Refusal error={file.error} names={candidateNames(candidates.data ?? [], selected)} />
            {done.filed && !file.error && (
              <Alert severity="success" sx={{ mt: 2 }} data-testid="demobilisation-filed">
                {translate('demobilisation.filed', {
                  smart_count: done.filed.count,
                  date: formatDate(done.filed.date),
                })}
              </Alert>
            )}
            <Button
              sx={{ mt: 2 }}
              variant="contained"
              disabled={!selected.length || !observation.trim() || dateWrong || file.isPending}
              onClick={() => file.mutate()}
            >
              {translate('demobilisation.file', { smart_count: selected.length })}
            </Button>
          </CardContent>
        </Card>
      )}
      <Card>
        <CardHeader
          title={translate('demobilisation.requests')}
          action={
            side === 'solicitante' && (
              <DeleteSelected
                selected={picked}
                onSelected={setPicked}
                remove={(ids) => afterApi.removeMany('D', ids)}
                refresh={['demobilisation']}
              />
            )
          }
        />
        {requests.isFetching && <LinearProgress aria-label={translate('ra.page.loading')} />}
        <CardContent>
          <RequestTable
            rows={requests.data?.data ?? []}
            label={translate('demobilisation.requests')}
            endLabel={translate('demobilisation.date')}
            testId="demobilisation"
            picked={picked}
            onToggle={(id) => setPicked((list) => toggled(list, id))}
            pickable={(row) => row.EstadoAprobacion === (side === 'autorizador' ? 'P' : 'I')}
            action={(row) => (
              <Button size="small" onClick={() => setShown(row.IdSolicitud)}>
                {translate('demobilisation.show')}
              </Button>
            )}
          />
          {side === 'autorizador' && (
            <MassDecision
              picked={picked}
              rows={rows}
              observation={observation}
              onObservation={setObservation}
              decide={decide}
              multiline
              pending={pending.map((r) => r.IdSolicitud)}
              onPick={setPicked}
              confirmApproval={{
                title: translate('demobilisation.confirmTitle', { smart_count: picked.length }),
                consequence: translate('demobilisation.confirmConsequence'),
                names: rows
                  .filter((r) => picked.includes(r.IdSolicitud))
                  .map((r) => `${holderName(r)} · ${formatDate(r.FechaFin)}`),
              }}
            />
          )}
          {side === 'autorizador' && done.decided && !decide.error && (
            <Alert severity="success" sx={{ mt: 2 }} data-testid="demobilisation-decided">
              {translate(`demobilisation.decided.${done.decided.action}`, {
                smart_count: done.decided.rows.length,
              })}
              {done.decided.action === 'APROBAR' && (
                <ul>
                  {done.decided.rows.map((r) => (
                    <li key={r.name}>
                      {translate('demobilisation.demobilisedOn', { name: r.name, date: formatDate(r.date) })}
                    </li>
                  ))}
                </ul>
              )}
            </Alert>
          )}
        </CardContent>
      </Card>
      <Dialog open={shown !== undefined} onClose={() => setShown(undefined)} fullWidth maxWidth="sm">
        <DialogTitle>
          {translate('demobilisation.record')}
          {shown !== undefined && ` ${requestNumber(shown)}`}
        </DialogTitle>
        <DialogContent>
          {record.isFetching && <LinearProgress aria-label={translate('ra.page.loading')} />}
          {record.data && (
            <>
              <StatusChip status={record.data.EstadoAprobacion as RequestStatus} />
              <p>
                {record.data.Nombres} ({record.data.Documento}) · {translate('demobilisation.date')}:{' '}
                {formatDate(record.data.FechaFin)}
              </p>
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
                      secondary={r.Descripcion}
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
