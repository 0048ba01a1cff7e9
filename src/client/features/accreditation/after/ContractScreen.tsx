import {
  Button,
  Card,
  CardContent,
  CardHeader,
  FormControl,
  InputLabel,
  LinearProgress,
  MenuItem,
  Select,
  Stack,
  Tab,
  Tabs,
  TextField,
} from '@mui/material';
import { DatePicker } from '@mui/x-date-pickers/DatePicker';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslate } from 'react-admin';
import { useParams } from 'react-router-dom';
import { Refusal } from '../../../components/Refusal.js';
import { formatDate } from '../../../format.js';
import { DATE_FORMAT, DatesProvider, fromDate, toDate } from '../../../resources/form/dates.js';
import { useConsoleTitle } from '../../../resources/ScreenTitle.js';
import { afterApi, type ContractKind, KIND_OF_SEGMENT } from './api.js';
import { MassDecision } from './MassDecision.js';
import { AccreditedTable, candidateNames, RequestTable, toggled } from './tables.js';

const KINDS: ContractKind[] = ['E', 'C'];

/**
 * Contract extension (E) and contract change (C) of accredited workers or vehicles (spec section 2):
 * the requester selects some of its company's accredited ones, gives the new end (and, for a
 * change, the other contract) and files one request each, all or nothing; the authoriser selects
 * pending ones and approves, observes or rejects them together. Approval moves the accreditation.
 */
export default function ContractScreen({ side }: { side: 'solicitante' | 'autorizador' }) {
  const translate = useTranslate();
  const entity = KIND_OF_SEGMENT[useParams().kind ?? 'persona'] ?? 'T';
  useConsoleTitle(translate(`accreditation.entities.${entity}`), translate('contractRequest.title'));
  const client = useQueryClient();
  const [kind, setKind] = useState<ContractKind>('E');
  const [selected, setSelected] = useState<number[]>([]);
  const [picked, setPicked] = useState<number[]>([]);
  const [end, setEnd] = useState<string | undefined>();
  const [contract, setContract] = useState<number | ''>('');
  const [observation, setObservation] = useState('');
  const candidates = useQuery({
    queryKey: ['contract-request', 'candidates', entity],
    queryFn: () => afterApi.candidates(entity),
    enabled: side === 'solicitante',
  });
  const contracts = useQuery({
    queryKey: ['contract-request', 'contracts'],
    queryFn: afterApi.contracts,
    enabled: side === 'solicitante' && kind === 'C',
  });
  const requests = useQuery({
    queryKey: ['contract-request', 'list', side, entity, kind],
    queryFn: () => afterApi.contractRequests(kind, entity),
  });
  const refresh = () => client.invalidateQueries({ queryKey: ['contract-request'] });
  const file = useMutation({
    mutationFn: () =>
      afterApi.fileContractRequests(kind, {
        IdEntidad: entity,
        Acreditaciones: selected,
        FechaFin: end ?? '',
        ...(kind === 'C' ? { IdContrato: Number(contract) } : {}),
        ...(observation.trim() ? { Observacion: observation } : {}),
      }),
    onSuccess: () => {
      setSelected([]);
      setObservation('');
      void refresh();
    },
  });
  const decide = useMutation({
    mutationFn: (action: string) => afterApi.decideContractRequests(kind, picked, action, observation),
    onSuccess: () => {
      setPicked([]);
      setObservation('');
      void refresh();
    },
  });
  const pending = (requests.data?.data ?? []).filter((r) => r.EstadoAprobacion === 'P');
  const ready = selected.length > 0 && Boolean(end) && (kind === 'E' || contract !== '') && !file.isPending;
  return (
    <Stack spacing={2} sx={{ mt: 1 }} data-testid={`contract-${side}`}>
      <Card>
        <Tabs
          value={kind}
          onChange={(_e, value: ContractKind) => {
            setKind(value);
            setPicked([]);
            file.reset();
            decide.reset();
          }}
          aria-label={translate('contractRequest.title')}
          variant="scrollable"
          allowScrollButtonsMobile
        >
          {KINDS.map((k) => (
            <Tab key={k} value={k} label={translate(`contractRequest.kinds.${k}`)} data-kind={k} />
          ))}
        </Tabs>
      </Card>
      {side === 'solicitante' && (
        <Card>
          <CardHeader title={translate('contractRequest.accredited')} />
          {candidates.isFetching && <LinearProgress aria-label={translate('ra.page.loading')} />}
          <CardContent>
            <AccreditedTable
              rows={candidates.data ?? []}
              selected={selected}
              onToggle={(id) => setSelected((list) => toggled(list, id))}
              label={translate('contractRequest.accredited')}
            />
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ mt: 2 }}>
              {kind === 'C' && (
                <FormControl sx={{ minWidth: 240 }}>
                  <InputLabel id="contract-target">{translate('contractRequest.newContract')}</InputLabel>
                  <Select
                    labelId="contract-target"
                    label={translate('contractRequest.newContract')}
                    value={contract}
                    onChange={(event) => setContract(event.target.value as number)}
                    data-testid="new-contract"
                  >
                    {(contracts.data ?? []).map((c) => (
                      <MenuItem key={c.IdContrato} value={c.IdContrato}>
                        {c.NumeroContrato} · {formatDate(c.FechaInicio)} – {formatDate(c.FechaFin)}
                      </MenuItem>
                    ))}
                  </Select>
                </FormControl>
              )}
              <DatesProvider>
                <DatePicker
                  label={translate('contractRequest.newEnd')}
                  format={DATE_FORMAT}
                  value={toDate(end)}
                  onChange={(date) => setEnd(fromDate(date))}
                  slotProps={{
                    textField: { required: true, id: 'contract-end', sx: { maxWidth: { sm: 260 } } },
                  }}
                />
              </DatesProvider>
            </Stack>
            <TextField
              label={translate('contractRequest.observation')}
              value={observation}
              onChange={(event) => setObservation(event.target.value)}
              multiline
              minRows={2}
              fullWidth
              sx={{ mt: 2 }}
              slotProps={{ htmlInput: { maxLength: 500 } }}
            />
            <Refusal error={file.error} names={candidateNames(candidates.data ?? [], selected)} />
            <Button sx={{ mt: 2 }} variant="contained" disabled={!ready} onClick={() => file.mutate()}>
              {translate(`contractRequest.file.${kind}`, { smart_count: selected.length })}
            </Button>
          </CardContent>
        </Card>
      )}
      <Card>
        <CardHeader title={translate(`contractRequest.requests.${kind}`)} />
        {requests.isFetching && <LinearProgress aria-label={translate('ra.page.loading')} />}
        <CardContent>
          <RequestTable
            rows={requests.data?.data ?? []}
            label={translate(`contractRequest.requests.${kind}`)}
            endLabel={translate('contractRequest.newEnd')}
            testId="contract-request"
            picked={side === 'autorizador' ? picked : undefined}
            onToggle={(id) => setPicked((list) => toggled(list, id))}
          />
          {side === 'autorizador' && (
            <MassDecision
              picked={picked}
              rows={requests.data?.data ?? []}
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
    </Stack>
  );
}
