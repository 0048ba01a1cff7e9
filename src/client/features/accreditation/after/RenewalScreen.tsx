import UploadFileIcon from '@mui/icons-material/UploadFile';
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
  Typography,
} from '@mui/material';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslate } from 'react-admin';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { holdsContract } from '../../../../shared/accreditation.js';
import { Refusal } from '../../../components/Refusal.js';
import { formatDate } from '../../../format.js';
import { useConsoleTitle } from '../../../resources/ScreenTitle.js';
import { session } from '../../../session/store.js';
import { screenPath } from '../api.js';
import { DeleteSelected } from '../requests/DeleteSelected.js';
import { afterApi, KIND_OF_SEGMENT } from './api.js';
import { MassDecision } from './MassDecision.js';
import { RequestTable, toggled } from './tables.js';

/**
 * Requirement update (spec section 2): the requester sees what expires soon, picks an accredited
 * worker, vehicle or visit's visitor (or, for its company's own, the company) and the requirement
 * to renew, and completes the renewal on the request page
 * (values, files, send), and deletes incomplete ones together; the authoriser evaluates each on the evaluation page, or approves,
 * observes or rejects several at once (all or nothing).
 */
export default function RenewalScreen({ side }: { side: 'solicitante' | 'autorizador' }) {
  const translate = useTranslate();
  const entity = KIND_OF_SEGMENT[useParams().kind ?? 'persona'] ?? 'T';
  useConsoleTitle(translate(`accreditation.entities.${entity}`), translate('renewal.title'));
  const navigate = useNavigate();
  const client = useQueryClient();
  // A company renews its own requirements: the holder is the session's company.
  const company = entity === 'E' ? (session.profile()?.current.IdCompania ?? undefined) : undefined;
  const [holder, setHolder] = useState<number | ''>(company ?? '');
  const [requirement, setRequirement] = useState<number | ''>('');
  const [picked, setPicked] = useState<number[]>([]);
  const [observation, setObservation] = useState('');
  const requester = side === 'solicitante';
  const expiring = useQuery({
    queryKey: ['renewal', 'cards'],
    queryFn: afterApi.expiring,
    enabled: requester,
  });
  const holders = useQuery({
    queryKey: ['renewal', 'holders', entity],
    queryFn: () => afterApi.renewable(entity),
    enabled: requester && entity !== 'E',
  });
  const held = useQuery({
    queryKey: ['renewal', 'held', entity, holder],
    queryFn: () => afterApi.held(entity, holder as number),
    enabled: requester && holder !== '',
  });
  const renewals = useQuery({
    queryKey: ['renewal', 'list', side, entity],
    queryFn: () => afterApi.renewals(entity),
  });
  const renew = useMutation({
    mutationFn: () => afterApi.renew(entity, holder as number, requirement as number),
    onSuccess: (made) => navigate(screenPath('solicitante', entity, made.IdSolicitud, 'A')),
  });
  const decide = useMutation({
    mutationFn: (action: string) => afterApi.decideRenewals(picked, action, observation),
    onSuccess: () => {
      setPicked([]);
      setObservation('');
      void client.invalidateQueries({ queryKey: ['renewal'] });
    },
  });
  const card = (expiring.data ?? []).find((c) => c.IdEntidad === entity);
  const holderLabel = translate(
    entity === 'E' ? 'renewal.company' : entity === 'P' ? 'renewal.visitor' : 'demobilisation.holder',
  );
  return (
    <Stack spacing={2} sx={{ mt: 1 }} data-testid={`renewal-${side}`}>
      {requester && (
        <Card>
          <CardHeader title={translate('renewal.expiring')} />
          {expiring.isFetching && <LinearProgress aria-label={translate('ra.page.loading')} />}
          <CardContent>
            <Typography data-testid="expiring-counts">
              {translate('renewal.expired', { smart_count: card?.VENCIDOS ?? 0 })} ·{' '}
              {translate('renewal.soon', { smart_count: card?.POR_VENCER ?? 0 })}
            </Typography>
            <Stack direction="row" spacing={2} sx={{ mt: 2 }} useFlexGap flexWrap="wrap">
              <FormControl size="small" sx={{ minWidth: 280 }}>
                <InputLabel id="renewal-holder">{holderLabel}</InputLabel>
                <Select
                  labelId="renewal-holder"
                  label={holderLabel}
                  value={holder}
                  onChange={(event) => {
                    setHolder(Number(event.target.value));
                    setRequirement('');
                  }}
                >
                  {company !== undefined && (
                    <MenuItem value={company}>{session.profile()?.current.Compania}</MenuItem>
                  )}
                  {(holders.data ?? []).map((h) => (
                    <MenuItem key={h.IdAcreditacion} value={(h.IdPersona ?? h.IdVehiculo) as number}>
                      {h.Placa ?? `${h.Apellido ?? ''} ${h.Nombre ?? ''} (${h.Documento ?? ''})`}
                    </MenuItem>
                  ))}
                </Select>
              </FormControl>
              <FormControl size="small" sx={{ minWidth: 280 }} disabled={holder === ''}>
                <InputLabel id="renewal-requirement">{translate('renewal.requirement')}</InputLabel>
                <Select
                  labelId="renewal-requirement"
                  label={translate('renewal.requirement')}
                  value={requirement}
                  onChange={(event) => setRequirement(Number(event.target.value))}
                >
                  {(held.data ?? []).map((r) => (
                    <MenuItem key={r.IdRequisito} value={r.IdRequisito}>
                      {r.Requisito}
                      {r.FechaVencimiento ? ` — ${formatDate(r.FechaVencimiento)}` : ''}
                    </MenuItem>
                  ))}
                </Select>
              </FormControl>
              <Button
                variant="contained"
                disabled={holder === '' || requirement === '' || renew.isPending}
                onClick={() => renew.mutate()}
              >
                {translate('renewal.renew')}
              </Button>
              {holdsContract(entity) && (
                <Button
                  component={Link}
                  to={`/movilizacion/solicitante/masiva?tipo=A&entidad=${entity}`}
                  startIcon={<UploadFileIcon />}
                >
                  {translate('renewal.bulk')}
                </Button>
              )}
            </Stack>
            <Refusal error={renew.error} />
          </CardContent>
        </Card>
      )}
      <Card>
        <CardHeader
          title={translate('renewal.requests')}
          action={
            requester && (
              <DeleteSelected
                selected={picked}
                onSelected={setPicked}
                remove={(ids) => afterApi.removeMany('A', ids)}
                refresh={['renewal']}
              />
            )
          }
        />
        {renewals.isFetching && <LinearProgress aria-label={translate('ra.page.loading')} />}
        <CardContent>
          <RequestTable
            rows={renewals.data?.data ?? []}
            label={translate('renewal.requests')}
            holderLabel={holderLabel}
            endLabel={translate('accreditation.columns.FechaSolicitud')}
            date={(row) => row.FechaSolicitud}
            link={(row) => screenPath(side, entity, row.IdSolicitud, 'A')}
            testId="renewal-request"
            requirement
            picked={picked}
            onToggle={(id) => setPicked((list) => toggled(list, id))}
            pickable={(row) => row.EstadoAprobacion === (requester ? 'I' : 'P')}
          />
          {!requester && (
            <MassDecision
              picked={picked}
              rows={renewals.data?.data ?? []}
              observation={observation}
              onObservation={setObservation}
              decide={decide}
            />
          )}
        </CardContent>
      </Card>
    </Stack>
  );
}
