import type { FormValidation, RJSFValidationError, UiSchema } from '@rjsf/utils';
import { useQuery } from '@tanstack/react-query';
import { useCallback, useMemo, useRef } from 'react';
import { useLocale, useTranslate } from 'react-admin';
import { maskedOf } from '../../../shared/data-classes.js';
import { applyFieldRules, type FieldRule } from '../../../shared/rules.js';
import type { EntitySchema, ResourceMeta } from '../../../shared/schema/types.js';
import { apiFetch } from '../../session/http.js';
import { DateTimeWidget, DateWidget } from './dates.js';
import { localizeErrors } from './errors.js';
import { buildUiSchema, type FormMode, formSchema } from './schema.js';
import { formStrings } from './strings.js';
import { BaseInputTemplate, ObjectFieldTemplate } from './templates.js';
import ColorWidget from './widgets/ColorWidget.js';
import DocumentWidget, { type DocumentProblems } from './widgets/DocumentWidget.js';
import ImageWidget from './widgets/ImageWidget.js';
import PasswordWidget, { type Confirmations } from './widgets/PasswordWidget.js';
import ReferenceWidget from './widgets/ReferenceWidget.js';
import { FieldWidget, ResourceWidget } from './widgets/ResourceWidget.js';
import UbigeoWidget from './widgets/UbigeoWidget.js';

export const widgets = {
  reference: ReferenceWidget,
  ubigeo: UbigeoWidget,
  resource: ResourceWidget,
  field: FieldWidget,
  document: DocumentWidget,
  password: PasswordWidget,
  image: ImageWidget,
  color: ColorWidget,
  DateWidget,
  DateTimeWidget,
};
export const templates = { BaseInputTemplate, ObjectFieldTemplate };

type Data = Record<string, unknown>;

/**
 * The field rules of a form, read afresh each time the form opens: a rule an administrator
 * changes shows on the next load, without a rebuild.
 */
export function useFieldRules(resource: string, enabled = true) {
  return useQuery({
    queryKey: ['field-rules', resource],
    enabled,
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
 * A resource narrowed to some of its fields (a step of a wizard, a part of a bigger form): its
 * sections keep those fields, and conditions over fields it no longer has, like the closing of
 * the record to other fields, are left to the server.
 */
export function narrowMeta(meta: ResourceMeta, fields: readonly string[]): ResourceMeta {
  const kept = fields.filter((field) => Object.hasOwn(meta.schema.properties, field));
  // Its part of a bigger record: the other parts' values travel beside its own.
  const {
    allOf: _allOf,
    additionalProperties: _closed,
    ...schema
  } = meta.schema as EntitySchema & {
    allOf?: unknown;
    additionalProperties?: unknown;
  };
  return {
    ...meta,
    schema: {
      ...schema,
      properties: Object.fromEntries(kept.map((field) => [field, meta.schema.properties[field]])),
      required: (meta.schema.required ?? []).filter((field) => kept.includes(field)),
      'x-sections': meta.schema['x-sections']
        ?.map((section) => ({ ...section, fields: section.fields.filter((f) => kept.includes(f)) }))
        .filter((section) => section.fields.length),
    } as unknown as EntitySchema,
  };
}

/**
 * Everything an rjsf form of an entity needs besides its values: the schema with the field rules
 * applied (required, read-only once the record exists), labels and widgets, the checks of
 * secrets' confirmations and documents against their types, and messages in the console's
 * language, worded as the server words them.
 */
export function useFormParts(
  meta: ResourceMeta,
  mode: FormMode,
  rules: FieldRule[],
  record: Data | undefined,
  fixed: Data,
  formData: Data,
  extraUi: UiSchema = {},
) {
  const translate = useTranslate();
  const locale = useLocale();
  const ruled = useMemo(
    () => applyFieldRules(formSchema(meta, mode), rules, mode, record),
    [meta, mode, rules, record],
  );
  // biome-ignore lint/correctness/useExhaustiveDependencies: labels follow the language
  const uiSchema = useMemo(() => {
    const ui = buildUiSchema(meta, mode, translate, fixed, ruled.readOnly);
    // Sensitive data the profile may not read came empty: shown as protected, kept as stored.
    for (const field of maskedOf(record))
      if (ui[field])
        ui[field] = {
          ...ui[field],
          'ui:readonly': true,
          'ui:placeholder': translate('app.privacy.masked'),
          'ui:help': translate('app.privacy.maskedHelp'),
        };
    for (const [field, entry] of Object.entries(extraUi))
      ui[field] =
        typeof entry === 'object' && entry !== null && field in ui
          ? {
              ...ui[field],
              ...entry,
              'ui:options': { ...ui[field]['ui:options'], ...(entry as UiSchema)['ui:options'] },
            }
          : entry;
    return ui;
  }, [meta, mode, translate, locale, fixed, ruled.readOnly, extraUi, record]);
  // Each secret's confirmation, typed in its widget and checked before the form saves.
  const confirmations = useRef<Confirmations>({}).current;
  // Each document's problem against its type, found by its widget as the user types.
  const documentProblems = useRef<DocumentProblems>({}).current;
  const formContext = useMemo(
    () => ({ formData, mode, confirmations, documentProblems }),
    [formData, mode, confirmations, documentProblems],
  );
  const customValidate = useCallback(
    (data: Data | undefined, errors: FormValidation<Data>) => {
      for (const [field, prop] of Object.entries(meta.schema.properties)) {
        if (prop['x-widget'] !== 'password') continue;
        const secret = data?.[field];
        if (typeof secret === 'string' && secret !== '' && confirmations[field] !== secret)
          (errors[field] as FormValidation).addError(translate('app.form.secretMismatch'));
      }
      for (const [field, problem] of Object.entries(documentProblems))
        if (problem && errors[field])
          (errors[field] as FormValidation).addError(translate(problem.messageKey, problem.params));
      return errors;
    },
    [meta, translate, confirmations, documentProblems],
  );
  const transformErrors = useCallback(
    (errors: RJSFValidationError[]) => localizeErrors(errors, meta.schema, translate),
    [meta, translate],
  );
  const translateString = useMemo(() => formStrings(translate), [translate]);
  return {
    schema: ruled.schema,
    uiSchema,
    formContext,
    customValidate,
    transformErrors,
    translateString,
  };
}
