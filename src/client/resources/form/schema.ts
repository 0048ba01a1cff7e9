import type { UiSchema } from '@rjsf/utils';
import type { EntitySchema, ResourceMeta } from '../../../shared/schema/types.js';

export type FormMode = 'create' | 'edit';
type Translate = (key: string, options?: Record<string, unknown>) => string;
type Data = Record<string, unknown>;

/** Fields a form shows: on create, not the generated key nor the computed ones. */
export function formFields(meta: ResourceMeta, mode: FormMode): string[] {
  return Object.entries(meta.schema.properties)
    .filter(([, prop]) => mode === 'edit' || (!prop['x-generated'] && !prop.readOnly))
    .map(([field]) => field);
}

/**
 * The JSON Schema handed to the form: the entity's, limited to its fields, without its title and
 * its descriptions (they document the schema, in English; a field's help comes from the locales).
 */
export function formSchema(meta: ResourceMeta, mode: FormMode): EntitySchema {
  const fields = formFields(meta, mode);
  const { title: _title, description: _description, ...schema } = meta.schema;
  return {
    ...schema,
    title: '',
    properties: Object.fromEntries(
      fields.map((f) => {
        const { description: _about, ...prop } = meta.schema.properties[f];
        return [f, prop];
      }),
    ),
    required: (meta.schema.required ?? []).filter((f) => fields.includes(f)),
  };
}

/**
 * Values the session decides for a form: a contractor's company on its company-scoped records.
 * The server imposes them anyway; the form shows them, read-only.
 */
export function sessionValues(meta: ResourceMeta, companyId: number | null | undefined): Data {
  const field = meta.schema['x-scope']?.company;
  return field && field !== meta.primaryKey && companyId !== null && companyId !== undefined
    ? { [field]: companyId }
    : {};
}

/** Labels, widgets and read-only flags of every field, from the schema's x- keywords and the field rules. */

export function buildUiSchema(
  meta: ResourceMeta,
  mode: FormMode,
  translate: Translate,
  fixed: Data = {},
  readOnly: readonly string[] = [],
): UiSchema {
  const fields = formFields(meta, mode);
  const ui: UiSchema = {
    'ui:submitButtonOptions': {
      submitText: translate('ra.action.save'),
      props: { className: 'schema-form-submit' },
    },
    // The schema's titled sections (x-sections), with the fields this form shows.
    'ui:options': {
      sections: (meta.schema['x-sections'] ?? []).map((section) => ({
        name: section.name,
        title: translate(`resources.${meta.name}.sections.${section.name}`),
        fields: section.fields.filter((field) => fields.includes(field)),
      })),
    },
  };
  for (const field of fields) {
    const prop = meta.schema.properties[field];
    const entry: UiSchema = { 'ui:title': translate(`resources.${meta.name}.fields.${field}`) };
    // A field's help, in the user's language, where the locales give one.
    const help = translate(`resources.${meta.name}.help.${field}`, { _: '' });
    if (help) entry['ui:help'] = help;
    const options: Record<string, string | boolean | object> = {};
    const ref = prop['x-ref'];
    if (ref) {
      entry['ui:widget'] = prop['x-widget'] === 'ubigeo' ? 'ubigeo' : 'reference';
      options.reference = ref.resource;
      if (ref.filter) options.filter = ref.filter;
      if (prop.type === 'array') options.multiple = true;
    }
    if (prop.enum) {
      entry['ui:enumNames'] = Object.fromEntries(
        prop.enum.map((value) => [String(value), translate(`enums.${prop['x-enum']}.${value}`)]),
      );
    }
    const widget = prop['x-widget'];
    if (widget === 'textarea' || widget === 'password' || widget === 'color' || widget === 'image')
      entry['ui:widget'] = widget;
    if (widget === 'resource' || widget === 'field') entry['ui:widget'] = widget;
    if (prop['x-document']) {
      entry['ui:widget'] = 'document';
      options.typeField = prop['x-document'].type;
    }
    if (prop['x-upper']) options.upper = true;
    // A secret and its confirmation, side by side.
    if (widget === 'password') options.double = true;
    if (
      prop['x-generated'] ||
      (mode === 'edit' && field === meta.primaryKey) ||
      field in fixed ||
      readOnly.includes(field)
    )
      entry['ui:readonly'] = true;
    if (
      widget === 'textarea' ||
      (prop.type === 'string' && (prop.maxLength ?? 0) > 200) ||
      prop.type === 'array' ||
      widget === 'ubigeo'
    )
      options.wide = true;
    if (Object.keys(options).length) entry['ui:options'] = options;
    ui[field] = entry;
  }
  return ui;
}

/** What a record becomes in the form: its fields only, without the nulls the form would refuse. */
export function initialFormData(
  meta: ResourceMeta,
  mode: FormMode,
  record: Data | undefined,
  fixed: Data = {},
): Data {
  if (!record) return { ...fixed };
  const fields = formFields(meta, mode);
  return Object.fromEntries(
    Object.entries(record).filter(
      ([key, value]) => fields.includes(key) && value !== null && value !== undefined,
    ),
  );
}
