import DownloadIcon from '@mui/icons-material/Download';
import { Button, MenuItem, Stack, TextField, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useGetList, useTranslate } from 'react-admin';
import { BULK_ENTITIES, type BulkEntity, bulkApi, RENEWED } from './api.js';

/** What an upload is for: a mobilisation or a requirement update, of which holders, on which contract and profile. */
export interface BulkChoice {
  kind: 'M' | 'A';
  entity: BulkEntity;
  contract: number | '';
  profile: number | '';
  requirement: number | '';
}

interface Props {
  choice: BulkChoice;
  onChoice: (patch: Partial<BulkChoice>) => void;
  ready: boolean;
  busy: boolean;
  onDownload: () => void;
  onNext: () => void;
}

/** The first tab: the company's data for the upload (kind, holders, contract, profile, the renewed requirement) and its template. */
export function CompanyTab({ choice, onChoice, ready, busy, onDownload, onNext }: Props) {
  const translate = useTranslate();
  const { kind, entity, contract, profile, requirement } = choice;
  const contracts = useGetList('contract', {
    pagination: { page: 1, perPage: 500 },
    filter: { Activo: 'S' },
  });
  const profiles = useGetList('accreditation-profile', {
    pagination: { page: 1, perPage: 500 },
    filter: { IdEntidad: entity, Activo: 'S' },
  });
  const requirements = useQuery({
    queryKey: ['bulk-requirements', profile],
    queryFn: () => bulkApi.requirements(Number(profile)),
    enabled: kind === 'A' && profile !== '',
  });
  return (
    <Stack spacing={2} maxWidth={560}>
      <Typography variant="body2">{translate('bulk.chooseContract')}</Typography>
      <TextField
        select
        name="kind"
        label={translate('bulk.kind')}
        value={kind}
        onChange={(e) => {
          const next = e.target.value as 'M' | 'A';
          // A visit is not renewed from a file.
          const visit = next === 'A' && !RENEWED.includes(entity);
          onChoice({ kind: next, requirement: '', ...(visit ? { entity: 'T', profile: '' } : {}) });
        }}
      >
        {(['M', 'A'] as const).map((k) => (
          <MenuItem key={k} value={k}>
            {translate(`bulk.kinds.${k}`)}
          </MenuItem>
        ))}
      </TextField>
      <TextField
        select
        label={translate('resources.bulk-upload.fields.IdEntidad')}
        value={entity}
        onChange={(e) => {
          onChoice({ entity: e.target.value as BulkEntity, profile: '', requirement: '' });
        }}
      >
        {(kind === 'A' ? RENEWED : BULK_ENTITIES).map((e) => (
          <MenuItem key={e} value={e}>
            {translate(`enums.bulkEntity.${e}`)}
          </MenuItem>
        ))}
      </TextField>
      <TextField
        select
        name="IdContrato"
        label={translate('resources.bulk-upload.fields.IdContrato')}
        value={contract}
        onChange={(e) => onChoice({ contract: Number(e.target.value) })}
      >
        {(contracts.data ?? []).map((c) => (
          <MenuItem key={c.id} value={c.id}>
            {[c.NumeroContrato, c.Asunto].filter(Boolean).join(' — ')}
          </MenuItem>
        ))}
      </TextField>
      <TextField
        select
        name="IdPerfilAcreditacion"
        label={translate('resources.bulk-upload.fields.IdPerfilAcreditacion')}
        value={profile}
        onChange={(e) => {
          onChoice({ profile: Number(e.target.value), requirement: '' });
        }}
      >
        {(profiles.data ?? []).map((p) => (
          <MenuItem key={p.id} value={p.id}>
            {p.Descripcion}
          </MenuItem>
        ))}
      </TextField>
      {kind === 'A' && (
        <TextField
          select
          name="IdRequisito"
          label={translate('bulk.requirement')}
          value={requirement}
          disabled={profile === ''}
          onChange={(e) => onChoice({ requirement: Number(e.target.value) })}
        >
          {(requirements.data ?? []).map((r) => (
            <MenuItem key={r.IdRequisito} value={r.IdRequisito}>
              {r.Requisito}
            </MenuItem>
          ))}
        </TextField>
      )}
      <Stack direction="row" spacing={1}>
        <Button
          variant="contained"
          startIcon={<DownloadIcon />}
          disabled={!ready || busy}
          onClick={onDownload}
        >
          {translate('bulk.template')}
        </Button>
        <Button disabled={!ready} onClick={onNext}>
          {translate('bulk.tabs.file')}
        </Button>
      </Stack>
    </Stack>
  );
}
