import { Alert, Box, Button, Card, CardContent, LinearProgress, Stack, Tab, Tabs } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslate } from 'react-admin';
import { Link, useParams } from 'react-router-dom';
import { WIZARD_STEPS, type WizardStep } from '../../../../../workflows/wizard.machine.js';
import { type EntityCode, holdsContract } from '../../../../shared/accreditation.js';
import { accreditationApi, KIND_OF_SEGMENT, screenPath } from '../api.js';
import { stepLabel } from './fields.js';
import PdfPreview, { type PreviewFile } from './PdfPreview.js';
import { RequestActions } from './RequestActions.js';
import { RequestHeading } from './RequestHeading.js';
import { STEPS } from './steps.js';
import { useRequestForm } from './useRequestForm.js';
import type { FormProps } from './useRequestValues.js';

/** /movilizacion/solicitante/:kind/:id (or /nueva): a request made or edited step by step. */
export default function RequestPage() {
  const { kind = 'persona', id } = useParams();
  const entity = KIND_OF_SEGMENT[kind] as EntityCode;
  const requestId = id && id !== 'nueva' ? Number(id) : undefined;
  const translate = useTranslate();
  const record = useQuery({
    queryKey: ['accreditation', 'record', 'solicitante', requestId],
    queryFn: () => accreditationApi.record('solicitante', requestId as number),
    enabled: requestId !== undefined,
  });
  const detail = useQuery({
    queryKey: ['accreditation', 'detail', 'solicitante', requestId],
    queryFn: () => accreditationApi.detail('solicitante', entity, requestId as number),
    enabled: requestId !== undefined,
  });
  if (requestId !== undefined && (record.isError || detail.isError))
    return (
      <Alert
        severity="error"
        sx={{ mt: 2 }}
        action={
          <Button component={Link} to={screenPath('solicitante', entity)}>
            {translate('ra.action.back')}
          </Button>
        }
      >
        {(record.error ?? detail.error)?.message}
      </Alert>
    );
  if (requestId !== undefined && (!record.data || !detail.data))
    return <LinearProgress sx={{ mt: 2 }} aria-label={translate('ra.page.loading')} />;
  return <RequestForm key={requestId ?? 'new'} entity={entity} record={record.data} detail={detail.data} />;
}

/**
 * The request's wizard: its heading, the steps' tabs as the wizard machine allows them, the step
 * of the wizard's state (src/client/features/accreditation/request/steps.tsx) and the actions.
 */
function RequestForm(props: FormProps) {
  const translate = useTranslate();
  const form = useRequestForm(props);
  const [preview, setPreview] = useState<PreviewFile>();
  const { entity, record, meta, step } = form;
  if (!meta.request || (holdsContract(entity) && !meta.holder) || (entity === 'P' && !meta.visitor))
    return <Alert severity="error">{translate('accreditation.form.noAccess')}</Alert>;
  if (form.loading) return <LinearProgress aria-label={translate('ra.page.loading')} />;
  return (
    <Stack spacing={2} sx={{ mt: 1 }} data-testid="request-form" data-status={form.status ?? 'new'}>
      <RequestHeading entity={entity} record={record} holder={form.holderLabel} detail={form.detail} />
      <Card>
        <Tabs
          value={step}
          onChange={(_event, value: WizardStep) => form.sendWizard({ type: 'GOTO', step: value })}
          variant="scrollable"
          scrollButtons="auto"
          aria-label={translate('accreditation.form.steps')}
        >
          {WIZARD_STEPS.map((s, index) => (
            <Tab
              key={s}
              value={s}
              label={`${index + 1}. ${translate(stepLabel(s, entity))}`}
              disabled={!form.wizard.can({ type: 'GOTO', step: s }) && s !== step}
              data-step={s}
            />
          ))}
        </Tabs>
        {form.values.busy && <LinearProgress aria-label={translate('ra.page.loading')} />}
        <CardContent>
          {WIZARD_STEPS.map((s) => {
            const { Component, kept } = STEPS[s];
            if (kept)
              return (
                <Box key={s} hidden={step !== s}>
                  <Component form={form} onPreview={setPreview} />
                </Box>
              );
            return step === s ? <Component key={s} form={form} onPreview={setPreview} /> : null;
          })}
        </CardContent>
        <RequestActions form={form} />
      </Card>
      <PdfPreview file={preview} onClose={() => setPreview(undefined)} />
    </Stack>
  );
}
