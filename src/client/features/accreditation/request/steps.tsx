import { Alert, Box, Stack } from '@mui/material';
import type { ComponentType } from 'react';
import { useTranslate } from 'react-admin';
import type { WizardStep } from '../../../../../workflows/wizard.machine.js';
import { VEHICLE_FIELDS } from '../../../../shared/accreditation.js';
import { FieldsForm } from '../../../resources/form/FieldsForm.js';
import { PhotoPicker } from '../../../resources/form/widgets/ImageWidget.js';
import { accreditationApi, type Item } from '../api.js';
import { AdditionalData } from './AdditionalData.js';
import { CompanyData } from './CompanyData.js';
import { ADDITIONAL, GENERAL } from './fields.js';
import { History } from './History.js';
import { KnownHolder } from './KnownHolder.js';
import type { PreviewFile } from './PdfPreview.js';
import { Requirements } from './Requirements.js';
import type { RequestFormState } from './useRequestForm.js';
import { Visitors } from './Visitors.js';

export interface StepProps {
  form: RequestFormState;
  /** Opens a requirement's file in the preview. */
  onPreview: (file: PreviewFile) => void;
}

/** Step 1: the request's own fields (contract, profile, dates, and what the kind asks). */
function GeneralStep({ form }: StepProps) {
  return (
    <FieldsForm
      ref={form.forms.general}
      {...form.headerForm}
      fields={GENERAL[form.entity]}
      ui={{ IdPerfilAcreditacion: { 'ui:options': { filter: { IdEntidad: 'IdEntidad' } } } }}
      idPrefix="general"
    />
  );
}

/** Step 2: who the request is about: the company's data, the visitors, or the worker or vehicle. */
function HolderStep({ form }: StepProps) {
  const translate = useTranslate();
  const { entity, values, meta } = form;
  if (entity === 'E') return <CompanyData record={form.record} />;
  if (entity === 'P')
    return meta.visitor ? (
      <Visitors
        ref={form.forms.personal}
        meta={meta.visitor}
        visitors={values.visitors}
        onChange={values.setVisitors}
        disabled={form.disabled}
        errors={values.errors}
      />
    ) : null;
  if (!meta.holder) return null;
  return (
    <Stack spacing={2}>
      {entity === 'T' && (
        <PhotoPicker
          id="request-photo"
          label={translate('accreditation.form.photo')}
          value={values.photo ?? values.storedPhoto}
          onChange={(value) => values.setPhoto(value)}
          disabled={form.disabled}
        />
      )}
      <KnownHolder entity={entity} known={values.known} />
      <FieldsForm
        ref={form.forms.personal}
        {...form.holderForm}
        fields={entity === 'T' ? form.steps.personal : VEHICLE_FIELDS}
        idPrefix="personal"
      />
    </Stack>
  );
}

/** Step 3: the profile's requirements, each value and file, once the request exists. */
function RequirementsStep({ form, onPreview }: StepProps) {
  const translate = useTranslate();
  const { detail, values, entity } = form;
  if (!detail) return <Alert severity="info">{translate('accreditation.form.saveFirst')}</Alert>;
  const busy = values.busy;
  return (
    <Requirements
      detail={detail}
      edits={values.edits}
      onEdit={(key, value) => {
        values.setEdits((all) => ({ ...all, [key]: value }));
        values.setProblems(({ [key]: _gone, ...rest }) => rest);
      }}
      problems={values.problems}
      editable={form.editable && !busy}
      onAttach={form.actions.attach}
      onPreview={(item: Item) =>
        onPreview({
          title: `${item.Requisito} · ${item.Text}`,
          subtitle: form.holderLabel,
          name: item.NombreArchivo ?? `${item.Requisito}.pdf`,
          load: async () =>
            (await accreditationApi.download(entity, item.IdSolicitud, item.IdSecuencial)).file,
        })
      }
      visitorNames={form.visitorNames}
      uploading={busy?.startsWith('attach:') ? busy.slice(7) : undefined}
    />
  );
}

/** Step 4: the worker's further data (emergency contact, licence) and the request's place and note. */
function AdditionalStep({ form }: StepProps) {
  return (
    <>
      {form.entity === 'T' && form.meta.holder && (
        <FieldsForm
          ref={form.forms.additionalHolder}
          {...form.holderForm}
          fields={form.steps.additional}
          idPrefix="additionalHolder"
        />
      )}
      <FieldsForm
        ref={form.forms.additional}
        {...form.headerForm}
        fields={ADDITIONAL}
        idPrefix="additional"
      />
      <AdditionalData
        data={form.record?.DatosAdicionales ?? []}
        values={form.values}
        disabled={form.disabled}
      />
    </>
  );
}

/** Step 5: what is still missing or uncorrected before sending, and the request's history. */
function FinaliseStep({ form }: StepProps) {
  const translate = useTranslate();
  const { record, missing, uncorrected } = form;
  return (
    <Stack spacing={2} data-testid="finalise">
      {form.editable &&
        record &&
        (missing.length || uncorrected.length ? (
          <>
            {missing.length > 0 && (
              <Alert severity="warning" data-testid="missing">
                {translate('accreditation.form.missing', { smart_count: missing.length })}
                <Box component="ul" sx={{ m: 0, pl: 3 }}>
                  {missing.map((item) => (
                    <li key={item.IdSecuencial}>
                      {item.Requisito} · {item.Text}
                      {item.IdVisitaPersona ? ` (${form.visitorNames[item.IdVisitaPersona] ?? ''})` : ''}
                    </li>
                  ))}
                </Box>
              </Alert>
            )}
            {uncorrected.length > 0 && (
              <Alert severity="warning" data-testid="uncorrected">
                {translate('accreditation.form.uncorrected', { smart_count: uncorrected.length })}
                <Box component="ul" sx={{ m: 0, pl: 3 }}>
                  {uncorrected.map((item) => (
                    <li key={item.IdSecuencial}>
                      {item.Requisito} · {item.Text}: {item.Observacion}
                    </li>
                  ))}
                </Box>
              </Alert>
            )}
          </>
        ) : (
          <Alert severity="success">{translate('accreditation.form.ready')}</Alert>
        ))}
      {record && <History rows={record.historial} />}
    </Stack>
  );
}

/**
 * The wizard's steps (workflows/wizard.machine.ts names them), one component each. The steps
 * whose forms are checked when the wizard moves on stay drawn while hidden (their values and
 * checks live in their forms); the others are drawn only on their turn.
 */
export const STEPS: Record<WizardStep, { Component: ComponentType<StepProps>; kept: boolean }> = {
  general: { Component: GeneralStep, kept: true },
  personal: { Component: HolderStep, kept: true },
  requirements: { Component: RequirementsStep, kept: false },
  additional: { Component: AdditionalStep, kept: true },
  finalise: { Component: FinaliseStep, kept: false },
};
