import { Alert, Box, Card, CardContent, Stack, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import type { EntityCode } from '../../../../shared/accreditation.js';
import { formatDate, formatDateTime } from '../../../format.js';
import type { Detail, RequestRecord } from '../api.js';
import { StatusChip } from '../status.js';

/**
 * A request's title (its number padded to 8 digits and its status badge), the authorisers'
 * observation in red, the rejection reason when the indiscipline flag is S, and its read-only
 * context: companies, contract, division, profile and dates.
 */
const CONTRACT_CONTEXT = new Set(['CompaniaMandante', 'Contrato', 'VigenciaContrato']);

export function RequestHeading({
  entity,
  record,
  holder,
  detail,
}: {
  entity: EntityCode;
  record?: RequestRecord;
  holder?: string;
  /** The request's lines: a renewal names the requirement it renews from them. */
  detail?: Detail;
}) {
  const translate = useTranslate();
  const kind = translate(`accreditation.entities.${entity}`);
  const renewal = record?.TipoSolicitud === 'A';
  const renewed = renewal ? [...new Set((detail?.[0] ?? []).map((item) => item.Requisito))].join(', ') : '';
  const all: Array<[string, string | null | undefined]> = record
    ? [
        ['CompaniaContratista', record.CompaniaContratista],
        ['CompaniaMandante', record.CompaniaMandante],
        ['Division', record.Division],
        ['Perfil', record.Perfil],
        ['Contrato', [record.NumeroContrato, record.Asunto].filter(Boolean).join(' · ')],
        [
          'VigenciaContrato',
          record.FechaInicioContrato
            ? `${formatDate(record.FechaInicioContrato)} – ${formatDate(record.FechaFinContrato)}`
            : null,
        ],
        ['Periodo', `${formatDate(record.FechaInicio)} – ${formatDate(record.FechaFin)}`],
        ['FechaSolicitud', formatDateTime(record.FechaSolicitud)],
      ]
    : [];
  // A company's own request is of the division, under no contract.
  const context = all.filter(([name]) => entity !== 'E' || !CONTRACT_CONTEXT.has(name));
  return (
    <Stack spacing={1.5}>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1.5, alignItems: 'center' }}>
        <Typography variant="h5" component="h1" data-testid="request-title">
          {record
            ? `${translate(renewal ? 'renewal.record' : 'accreditation.form.request')} ${translate('accreditation.form.number')} ${record.NumeroSolicitud}`
            : `${translate('accreditation.form.new')} · ${kind}`}
        </Typography>
        {record && <StatusChip status={record.EstadoAprobacion} size="medium" />}
        {holder && (
          <Typography color="text.secondary" sx={{ flexBasis: '100%' }}>
            {kind} · {holder}
          </Typography>
        )}
      </Box>
      {renewal && (
        <Alert severity="info" data-testid="renewal-of">
          {translate('renewal.renews', { requirement: renewed, holder: holder ?? '' })}
        </Alert>
      )}
      {record?.ObservacionAutorizador && record.EstadoAprobacion !== 'P' && (
        <Alert
          severity="warning"
          data-testid="authoriser-observation"
          sx={{ color: 'error.main', fontWeight: 500 }}
        >
          {translate('accreditation.form.authoriserObservation')}: {record.ObservacionAutorizador}
        </Alert>
      )}
      {record?.ExcedeDotacion === 'S' && (
        <Alert severity="warning" data-testid="over-endowment">
          {translate('accreditation.form.overEndowment')}
        </Alert>
      )}
      {record?.EstadoAprobacion === 'R' && record.IndisciplinaRechazo === 'S' && (
        <Alert severity="error" data-testid="rejection-reason">
          {translate('accreditation.form.indisciplineRejection')}: {record.MotivoRechazo}
        </Alert>
      )}
      {record && (
        <Card variant="outlined">
          <CardContent
            component="dl"
            sx={{
              m: 0,
              display: 'grid',
              gridTemplateColumns: {
                xs: '1fr',
                sm: 'repeat(2, minmax(0, 1fr))',
                lg: 'repeat(4, minmax(0, 1fr))',
              },
              gap: 1.5,
            }}
            aria-label={translate('accreditation.form.context')}
          >
            {context.map(([field, value]) => (
              <div key={field}>
                <Typography component="dt" variant="caption" color="text.secondary">
                  {translate(`accreditation.context.${field}`)}
                </Typography>
                <Typography component="dd" variant="body2" sx={{ m: 0 }}>
                  {value || '—'}
                </Typography>
              </div>
            ))}
          </CardContent>
        </Card>
      )}
    </Stack>
  );
}
