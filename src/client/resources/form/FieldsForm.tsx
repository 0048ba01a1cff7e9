import { Box } from '@mui/material';
import type CoreForm from '@rjsf/core';
import Form from '@rjsf/mui';
import type { UiSchema } from '@rjsf/utils';
import { forwardRef, useImperativeHandle, useMemo, useRef } from 'react';
import type { FieldError } from '../../../shared/errors.js';
import type { FieldRule } from '../../../shared/rules.js';
import type { ResourceMeta } from '../../../shared/schema/types.js';
import { DatesProvider } from './dates.js';
import { serverErrorSchema } from './errors.js';
import { narrowMeta, templates, useFormParts, widgets } from './parts.js';
import type { FormMode } from './schema.js';
import { validator } from './validator.js';

type Data = Record<string, unknown>;

export interface FieldsFormHandle {
  /** Checks the values as the form shows them, marks what is wrong and says whether all is right. */
  validate(): boolean;
}

interface FieldsFormProps {
  meta: ResourceMeta;
  /** The entity's fields this form shows, in their sections. */
  fields: readonly string[];
  mode: FormMode;
  value: Data;
  onChange(value: Data): void;
  rules?: FieldRule[];
  /** The stored record, for the field rules that lock fields once it exists. */
  record?: Data;
  /** Values the session or the screen decides: shown read-only. */
  fixed?: Data;
  /** The server's complaints, by field. */
  errors?: Record<string, FieldError>;
  disabled?: boolean;
  /** Per-field additions to the generated ui-schema (filters, widgets). */
  ui?: UiSchema;
  /** Tells apart the fields' ids when one screen holds several forms of the same entity. */
  idPrefix?: string;
}

/**
 * Part of an entity's form, controlled by the screen that holds it (a wizard's step, a visitor
 * among others): the same schema, field rules, widgets and messages as the entity's own form,
 * without its save button. The screen asks `validate()` before it goes on.
 */
export const FieldsForm = forwardRef<FieldsFormHandle, FieldsFormProps>(function FieldsForm(
  { meta, fields, mode, value, onChange, rules = [], record, fixed = {}, errors, disabled, ui, idPrefix },
  ref,
) {
  const narrowed = useMemo(() => narrowMeta(meta, fields), [meta, fields]);
  const parts = useFormParts(narrowed, mode, rules, record, fixed, value, ui);
  const uiSchema = useMemo(
    () => ({ ...parts.uiSchema, 'ui:submitButtonOptions': { norender: true } }),
    [parts.uiSchema],
  );
  const form = useRef<CoreForm>(null);
  useImperativeHandle(ref, () => ({ validate: () => form.current?.validateForm() ?? true }), []);
  return (
    <Box className="schema-form fields-form">
      <DatesProvider>
        <Form
          ref={form}
          schema={parts.schema as never}
          uiSchema={uiSchema}
          formData={value}
          validator={validator}
          widgets={widgets}
          templates={templates}
          formContext={parts.formContext}
          onChange={({ formData }) => onChange((formData ?? {}) as Data)}
          transformErrors={parts.transformErrors}
          customValidate={parts.customValidate as never}
          extraErrors={serverErrorSchema(errors)}
          translateString={parts.translateString}
          showErrorList={false}
          noHtml5Validate
          focusOnFirstError
          disabled={disabled}
          idPrefix={idPrefix}
        />
      </DatesProvider>
    </Box>
  );
});
