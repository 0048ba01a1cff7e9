import { Box, LinearProgress } from '@mui/material';
import Form from '@rjsf/mui';
import { type ErrorSchema, getDefaultFormState } from '@rjsf/utils';
import { useEffect, useMemo, useState } from 'react';
import { useNotify, useRecordContext, useSaveContext, useTranslate } from 'react-admin';
import { isSensitive } from '../../../shared/data-classes.js';
import type { FieldError } from '../../../shared/errors.js';
import type { FieldRule } from '../../../shared/rules.js';
import type { ResourceMeta } from '../../../shared/schema/types.js';
import { useMeta, useResourceMeta } from '../../providers/meta.js';
import { DatesProvider } from './dates.js';
import { serverErrorSchema } from './errors.js';
import { templates, useFieldRules, useFormParts, widgets } from './parts.js';
import { type FormMode, initialFormData, sessionValues } from './schema.js';
import { validator } from './validator.js';

type Data = Record<string, unknown>;

/**
 * The create and edit form of any entity: an rjsf form built from the entity's schema, with the
 * client's field rules on top, that saves through react-admin's save context (pessimistic), with
 * the server's field errors under each field.
 */
export default function SchemaForm({ mode }: { mode: FormMode }) {
  const meta = useResourceMeta();
  const translate = useTranslate();
  const rules = useFieldRules(meta.name);
  if (rules.isPending) return <LinearProgress sx={{ m: 2 }} aria-label={translate('ra.page.loading')} />;
  return <RuledForm mode={mode} rules={rules.data ?? []} />;
}

/** A form's values in one comparable text: keys in order, empty values left out. */
function sameData(data: unknown): string {
  return JSON.stringify(data ?? {}, (_key, value) =>
    value && typeof value === 'object' && !Array.isArray(value)
      ? Object.fromEntries(
          Object.keys(value)
            .filter((k) => value[k] !== undefined && value[k] !== null && value[k] !== '')
            .sort()
            .map((k) => [k, value[k]]),
        )
      : value,
  );
}

/** Scrolls a field of the form into the middle of the screen and puts the cursor in it. */
function focusField(field: string): void {
  // After the errors are drawn, which may move the field.
  requestAnimationFrame(() => {
    const element = document.getElementById(`root_${field}`);
    if (!element) return;
    // A date's id is on a hidden input: its first typed part takes the cursor instead.
    const target =
      element.getAttribute('aria-hidden') === 'true'
        ? (element.parentElement?.querySelector<HTMLElement>('[tabindex="0"]') ?? element)
        : element;
    target.scrollIntoView({ block: 'center' });
    target.focus({ preventScroll: true });
  });
}

function RuledForm({ mode, rules }: { mode: FormMode; rules: FieldRule[] }) {
  const meta = useResourceMeta();
  const record = useRecordContext();
  const { save, saving } = useSaveContext();
  const translate = useTranslate();
  const notify = useNotify();

  const { context } = useMeta();
  const fixed = useMemo(() => sessionValues(meta, context.companyId), [meta, context.companyId]);
  const [formData, setFormData] = useState<Data>(() => initialFormData(meta, mode, record, fixed));
  const [serverErrors, setServerErrors] = useState<ErrorSchema>({});
  // The field rules make fields required, and read-only once the record exists (as does a
  // record's locked state); the server enforces the same.
  const { schema, uiSchema, formContext, customValidate, transformErrors, translateString } = useFormParts(
    meta,
    mode,
    rules,
    record as Data | undefined,
    fixed,
    formData,
  );

  const onChange = ({ formData: next }: { formData?: Data }) => {
    const data = next ?? {};
    // A field the user touches loses the server's complaint about it.
    setServerErrors((errors) => {
      const kept = Object.entries(errors).filter(([field]) => data[field] === formData[field]);
      return kept.length === Object.keys(errors).length ? errors : (Object.fromEntries(kept) as ErrorSchema);
    });
    setFormData(data);
  };

  // The record as the form first shows it (its schema's defaults filled in): saving it unchanged
  // says so instead of writing (spec section 8: "No existen cambios").
  const [unchanged] = useState(() =>
    mode === 'edit'
      ? sameData(getDefaultFormState(validator, schema as never, initialFormData(meta, mode, record, fixed)))
      : undefined,
  );

  // The field to bring into view once the form is enabled again after saving.
  const [focusTarget, setFocusTarget] = useState<string>();
  useEffect(() => {
    if (!focusTarget || saving) return;
    focusField(focusTarget);
    setFocusTarget(undefined);
  }, [focusTarget, saving]);

  const onSubmit = async ({ formData: data }: { formData?: Data }) => {
    if (!save) return;
    if (unchanged !== undefined && sameData(data) === unchanged) {
      notify('app.form.noChanges', { type: 'info' });
      return;
    }
    setServerErrors({});
    const errors = (await save(withCleared(meta, record as Data | undefined, data ?? {}))) as
      | Record<string, FieldError>
      | undefined;
    if (errors && Object.keys(errors).length) {
      setServerErrors(serverErrorSchema(errors));
      // The first field the server refused, in the form's order, is brought into view and focused.
      setFocusTarget(Object.keys(schema.properties).find((field) => errors[field]));
      const elsewhere = Object.keys(errors).filter((field) => !Object.hasOwn(schema.properties, field));
      const detail = elsewhere.map((field) => `${field}: ${errors[field].message}`).join('; ');
      notify(detail ? `${translate('app.form.fixErrors')} (${detail})` : 'app.form.fixErrors', {
        type: 'warning',
      });
    }
  };

  return (
    <Box sx={{ p: 2 }} className="schema-form">
      <DatesProvider>
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
      </DatesProvider>
    </Box>
  );
}

/**
 * The values to save, with the sensitive fields the user emptied sent empty: the server keeps a
 * sensitive field a body leaves out (a list's record carries none), so clearing one must say so. (A
 * masked field came empty, so it is never among them.)
 */
function withCleared(meta: ResourceMeta, record: Data | undefined, data: Data): Data {
  const out = { ...data };
  for (const [field, prop] of Object.entries(meta.schema.properties))
    if (isSensitive(prop['x-dataClass']) && record?.[field] != null && out[field] === undefined)
      out[field] = null;
  return out;
}
