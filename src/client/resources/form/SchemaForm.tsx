import { Box, LinearProgress } from '@mui/material';
import Form from '@rjsf/mui';
import type { ErrorSchema, FormValidation, RJSFValidationError } from '@rjsf/utils';
import { useQuery } from '@tanstack/react-query';
import { useCallback, useMemo, useRef, useState } from 'react';
import { useLocale, useNotify, useRecordContext, useSaveContext, useTranslate } from 'react-admin';
import type { FieldError } from '../../../shared/errors.js';
import { applyFieldRules, type FieldRule } from '../../../shared/rules.js';
import { useMeta, useResourceMeta } from '../../providers/meta.js';
import { apiFetch } from '../../session/http.js';
import { localizeErrors, serverErrorSchema } from './errors.js';
import { buildUiSchema, type FormMode, formSchema, initialFormData, sessionValues } from './schema.js';
import { formStrings } from './strings.js';
import { BaseInputTemplate, ObjectFieldTemplate } from './templates.js';
import { validator } from './validator.js';
import DocumentWidget from './widgets/DocumentWidget.js';
import PasswordWidget, { type Confirmations } from './widgets/PasswordWidget.js';
import ReferenceWidget from './widgets/ReferenceWidget.js';
import { FieldWidget, ResourceWidget } from './widgets/ResourceWidget.js';
import UbigeoWidget from './widgets/UbigeoWidget.js';

const widgets = {
  reference: ReferenceWidget,
  ubigeo: UbigeoWidget,
  resource: ResourceWidget,
  field: FieldWidget,
  document: DocumentWidget,
  password: PasswordWidget,
};
const templates = { BaseInputTemplate, ObjectFieldTemplate };

type Data = Record<string, unknown>;

/**
 * The field rules of a form, read afresh each time the form opens: a rule an administrator
 * changes shows on the next load, without a rebuild.
 */
function useFieldRules(resource: string) {
  return useQuery({
    queryKey: ['field-rules', resource],
    staleTime: 0,
    gcTime: 0,
    queryFn: async (): Promise<FieldRule[]> => {
      const response = await apiFetch(`/api/SistemaReglaCampo/obtenerTodos?IdDato=${resource}&Activo=S`);
      if (!response.ok) return [];
      return ((await response.json()) as { result: FieldRule[] }).result;
    },
  });
}

/**
 * The create and edit form of any entity: an rjsf form built from the entity's schema, with the
 * client's field rules on top, that saves through react-admin's save context (pessimistic), with
 * the server's field errors under each field.
 */
export default function SchemaForm({ mode }: { mode: FormMode }) {
  const meta = useResourceMeta();
  const rules = useFieldRules(meta.name);
  if (rules.isPending) return <LinearProgress sx={{ m: 2 }} />;
  return <RuledForm mode={mode} rules={rules.data ?? []} />;
}

function RuledForm({ mode, rules }: { mode: FormMode; rules: FieldRule[] }) {
  const meta = useResourceMeta();
  const record = useRecordContext();
  const { save, saving } = useSaveContext();
  const translate = useTranslate();
  const locale = useLocale();
  const notify = useNotify();

  const { context } = useMeta();
  const fixed = useMemo(() => sessionValues(meta, context.companyId), [meta, context.companyId]);
  const [formData, setFormData] = useState<Data>(() => initialFormData(meta, mode, record, fixed));
  const [serverErrors, setServerErrors] = useState<ErrorSchema>({});

  // The field rules make fields required, and read-only once the record exists (as does a
  // record's locked state); the server enforces the same.
  const ruled = useMemo(
    () => applyFieldRules(formSchema(meta, mode), rules, mode, record as Data | undefined),
    [meta, mode, rules, record],
  );
  const schema = ruled.schema;
  // biome-ignore lint/correctness/useExhaustiveDependencies: labels follow the language
  const uiSchema = useMemo(
    () => buildUiSchema(meta, mode, translate, fixed, ruled.readOnly),
    [meta, mode, translate, locale, fixed, ruled.readOnly],
  );
  // Each secret's confirmation, typed in its widget and checked before the form saves.
  const confirmations = useRef<Confirmations>({}).current;
  const formContext = useMemo(() => ({ formData, mode, confirmations }), [formData, mode, confirmations]);
  const customValidate = useCallback(
    (data: Data | undefined, errors: FormValidation<Data>) => {
      for (const [field, prop] of Object.entries(meta.schema.properties)) {
        if (prop['x-widget'] !== 'password') continue;
        const secret = data?.[field];
        if (typeof secret === 'string' && secret !== '' && confirmations[field] !== secret)
          (errors[field] as FormValidation).addError(translate('app.form.secretMismatch'));
      }
      return errors;
    },
    [meta, translate, confirmations],
  );
  const transformErrors = useCallback(
    (errors: RJSFValidationError[]) => localizeErrors(errors, meta.schema, translate),
    [meta, translate],
  );
  const translateString = useMemo(() => formStrings(translate), [translate]);

  const onChange = ({ formData: next }: { formData?: Data }) => {
    const data = next ?? {};
    // A field the user touches loses the server's complaint about it.
    setServerErrors((errors) => {
      const kept = Object.entries(errors).filter(([field]) => data[field] === formData[field]);
      return kept.length === Object.keys(errors).length ? errors : (Object.fromEntries(kept) as ErrorSchema);
    });
    setFormData(data);
  };

  const onSubmit = async ({ formData: data }: { formData?: Data }) => {
    if (!save) return;
    setServerErrors({});
    const errors = (await save(data ?? {})) as Record<string, FieldError> | undefined;
    if (errors && Object.keys(errors).length) {
      setServerErrors(serverErrorSchema(errors));
      const elsewhere = Object.keys(errors).filter((field) => !Object.hasOwn(schema.properties, field));
      const detail = elsewhere.map((field) => `${field}: ${errors[field].message}`).join('; ');
      notify(detail ? `${translate('app.form.fixErrors')} (${detail})` : 'app.form.fixErrors', {
        type: 'warning',
      });
    }
  };

  return (
    <Box sx={{ p: 2 }} className="schema-form">
      <Form
        schema={schema as never}
        uiSchema={uiSchema}
        formData={formData}
        validator={validator}
        widgets={widgets}
        templates={templates}
        formContext={formContext}
        onChange={onChange}
        onSubmit={onSubmit}
        onError={() => notify('app.form.fixErrors', { type: 'warning' })}
        transformErrors={transformErrors}
        customValidate={customValidate as never}
        extraErrors={serverErrors}
        translateString={translateString}
        showErrorList={false}
        noHtml5Validate
        focusOnFirstError
        disabled={saving}
      />
    </Box>
  );
}
