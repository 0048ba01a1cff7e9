import {
  Alert,
  Avatar,
  Box,
  Button,
  Card,
  CardContent,
  LinearProgress,
  Stack,
  Typography,
} from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslate } from 'react-admin';
import { Link, useParams } from 'react-router-dom';
import { COMPANY_FIELDS, type EntityCode } from '../../../../shared/accreditation.js';
import { formatDate } from '../../../format.js';
import { accreditationApi, type Detail, KIND_OF_SEGMENT, type RequestRecord, screenPath } from '../api.js';
import { History } from '../request/History.js';
import PdfPreview, { type PreviewFile } from '../request/PdfPreview.js';
import { RequestHeading } from '../request/RequestHeading.js';
import { Requirements } from '../request/Requirements.js';
import { DecisionBar, LineControls, ReasonDialog } from './parts.js';
import { useEvaluation } from './useEvaluation.js';

/** /movilizacion/autorizador/:kind/:id: a request evaluated requirement by requirement. */
export default function EvaluationPage() {
  const { kind = 'persona', id } = useParams();
  const entity = KIND_OF_SEGMENT[kind] as EntityCode;
  const requestId = Number(id);
  const translate = useTranslate();
  const record = useQuery({
    queryKey: ['accreditation', 'record', 'autorizador', requestId],
    queryFn: () => accreditationApi.record('autorizador', requestId),
  });
  const detail = useQuery({
    queryKey: ['accreditation', 'detail', 'autorizador', requestId],
    queryFn: () => accreditationApi.detail('autorizador', entity, requestId),
  });
  if (record.isError || detail.isError)
    return (
      <Alert
        severity="error"
        sx={{ mt: 2 }}
        action={
          <Button component={Link} to={screenPath('autorizador', entity)}>
            {translate('ra.action.back')}
          </Button>
        }
      >
        {(record.error ?? detail.error)?.message}
      </Alert>
    );
  if (!record.data || !detail.data)
    return <LinearProgress sx={{ mt: 2 }} aria-label={translate('ra.page.loading')} />;
  return (
    <Evaluation
      key={`${requestId}:${record.dataUpdatedAt}`}
      entity={entity}
      record={record.data}
      detail={detail.data}
    />
  );
}

/** The holder as the authoriser checks it: photo, document and names, or the vehicle's data. */
function Holder({ entity, record }: { entity: EntityCode; record: RequestRecord }) {
  const translate = useTranslate();
  const photo = useQuery({
    queryKey: ['accreditation', 'photo', record.IdSolicitud, record.ClaveFoto],
    queryFn: async () => {
      const file = await accreditationApi.photo(record.IdSolicitud);
      return `data:image/${file.file.startsWith('/9j') ? 'jpeg' : 'png'};base64,${file.file}`;
    },
    enabled: Boolean(record.ClaveFoto),
  });
  const fields =
    entity === 'T'
      ? [
          'Documento',
          'Apellido',
          'Nombre',
          'FechaNacimiento',
          'TelefonoMovil',
          'Email',
          'NumeroLicenciaConducir',
        ]
      : entity === 'V'
        ? ['Placa', 'Modelo', 'Serie', 'Anio', 'NumeroPasajeros']
        : entity === 'E'
          ? [...COMPANY_FIELDS]
          : ['MotivoVisita', 'NumeroVisitantes'];
  const resource = { T: 'person', V: 'vehicle', E: 'company', P: 'request' }[entity];
  return (
    <Card variant="outlined">
      <CardContent sx={{ display: 'flex', gap: 2, flexWrap: 'wrap' }}>
        {entity === 'T' && (
          <Avatar
            variant="rounded"
            src={photo.data}
            alt={translate('accreditation.form.photo')}
            sx={{ width: 90, height: 96 }}
          />
        )}
        <Box
          component="dl"
          sx={{
            m: 0,
            flex: 1,
            display: 'grid',
            gridTemplateColumns: { xs: '1fr', sm: 'repeat(3, minmax(0, 1fr))' },
            gap: 1,
          }}
        >
          {fields.map((field) => (
            <div key={field}>
              <Typography component="dt" variant="caption" color="text.secondary">
                {translate(`resources.${resource}.fields.${field}`)}
              </Typography>
              <Typography component="dd" variant="body2" sx={{ m: 0 }}>
                {field.startsWith('Fecha') ? formatDate(record[field]) : String(record[field] ?? '—')}
              </Typography>
            </div>
          ))}
        </Box>
        {entity === 'P' && (
          <Box sx={{ flexBasis: '100%' }}>
            <Typography variant="subtitle2" component="h2">
              {translate('accreditation.form.visitors')}
            </Typography>
            <Box component="ul" sx={{ m: 0, pl: 3 }}>
              {(record.Visitantes ?? []).map((v) => (
                <li key={v.IdVisitaPersona}>
                  {v.Documento} · {v.Apellido} {v.Nombre}
                </li>
              ))}
            </Box>
          </Box>
        )}
      </CardContent>
    </Card>
  );
}

/** The evaluation of one request: its heading, its holder, its lines with their controls, the decisions and history. */
function Evaluation(props: { entity: EntityCode; record: RequestRecord; detail: Detail }) {
  const translate = useTranslate();
  const form = useEvaluation(props);
  const { entity, record, detail, pending, busy } = form;
  const [preview, setPreview] = useState<PreviewFile>();
  const holder =
    entity === 'T'
      ? [record.Apellido, record.Nombre].filter(Boolean).join(' ')
      : entity === 'V'
        ? String(record.Placa ?? '')
        : String((entity === 'E' ? record.Compania : record.MotivoVisita) ?? '');
  return (
    <Stack spacing={2} sx={{ mt: 1 }} data-testid="evaluation" data-status={record.EstadoAprobacion}>
      <RequestHeading entity={entity} record={record} holder={holder} detail={detail} />
      {!pending && <Alert severity="info">{translate('accreditation.evaluation.notPending')}</Alert>}
      <Holder entity={entity} record={record} />
      <Card>
        {busy && <LinearProgress aria-label={translate('ra.page.loading')} />}
        <CardContent>
          <Requirements
            detail={detail}
            edits={form.edits}
            onEdit={(key, value) => form.setEdits((all) => ({ ...all, [key]: value }))}
            problems={form.problems}
            editable={pending && !busy}
            canType={(item) => item.TipoRequisito === 'A' && !item.readOnly}
            onPreview={(item) =>
              setPreview({
                title: `${item.Requisito} · ${item.Text}`,
                subtitle: holder,
                name: item.NombreArchivo ?? `${item.Requisito}.pdf`,
                load: async () =>
                  (await accreditationApi.download(entity, item.IdSolicitud, item.IdSecuencial)).file,
              })
            }
            visitorNames={Object.fromEntries(
              (record.Visitantes ?? []).map((v) => [
                v.IdVisitaPersona,
                `${v.Apellido ?? ''} ${v.Nombre ?? ''}`.trim(),
              ]),
            )}
            extra={(item) => <LineControls form={form} item={item} />}
          />
        </CardContent>
        <DecisionBar form={form} />
      </Card>
      <Card>
        <CardContent>
          <History rows={record.historial} />
        </CardContent>
      </Card>
      <PdfPreview file={preview} onClose={() => setPreview(undefined)} />
      <ReasonDialog form={form} />
    </Stack>
  );
}
