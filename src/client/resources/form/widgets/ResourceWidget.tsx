import { Autocomplete, TextField } from '@mui/material';
import type { WidgetProps } from '@rjsf/utils';
import { useGetList, useTranslate } from 'react-admin';
import type { PropertySchema } from '../../../../shared/schema/types.js';
import { useMeta } from '../../../providers/meta.js';
import { PAGE_FORMS, screenProperty, useScreenChoices } from '../../screens.js';
import { autocompleteTexts, formValues } from './ReferenceWidget.js';

interface Choice {
  id: string;
  name: string;
}

function ChoiceSelect(props: WidgetProps & { choices: Choice[] }) {
  const { id, value, onChange, label, required, disabled, readonly, rawErrors, choices } = props;
  const translate = useTranslate();
  return (
    <Autocomplete<Choice>
      id={id}
      options={choices}
      value={choices.find((c) => c.id === value) ?? null}
      disabled={disabled || readonly}
      getOptionLabel={(c) => c.name}
      isOptionEqualToValue={(a, b) => a.id === b.id}
      onChange={(_event, choice) => onChange(choice?.id)}
      {...autocompleteTexts(translate)}
      renderInput={(params) => (
        <TextField {...params} label={label} required={required} error={(rawErrors?.length ?? 0) > 0} />
      )}
    />
  );
}

/**
 * A form of the console (the field rules' IdDato), as the form objects stand for them (System >
 * Form objects, kind F): a form object's name and code, for a screen or page the profile reaches.
 * A form object's own form (its Recurso) offers every such form, by its name.
 */
export function ResourceWidget(props: WidgetProps) {
  const translate = useTranslate();
  const { resources } = useMeta();
  const screens = useScreenChoices({
    only: (r) => !r.schema['x-readOnly'] && !r.schema['x-workflow'] && !r.schema['x-hidden'],
    withKey: true,
  });
  // The forms of pages whose records the profile reaches (the security page's, with the users screen).
  const pages = Object.entries(PAGE_FORMS)
    .filter(([, form]) => resources.some((r) => r.name === form.resource))
    .map(([id, form]) => ({ id, name: `${translate(form.labelKey)} (${id})` }));
  const forms = [...screens, ...pages];
  // The field rules' form (IdDato) binds to a form object; a form object's own Recurso names any form.
  const bound = props.name === 'IdDato';
  const { data: objects = [] } = useGetList(
    'form-object',
    {
      filter: { Tipo: 'F', Activo: 'S' },
      pagination: { page: 1, perPage: 500 },
      sort: { field: 'Codigo', order: 'ASC' },
    },
    { enabled: bound },
  );
  const choices = bound
    ? objects
        .filter((o) => forms.some((f) => f.id === o.Recurso))
        .map((o) => ({ id: String(o.Recurso), name: `${o.Objeto} (${o.Codigo})` }))
    : forms;
  return <ChoiceSelect {...props} choices={choices.sort((a, b) => a.name.localeCompare(b.name))} />;
}

/** A field of the form chosen above it (the field rules' Campo), by its label. */
export function FieldWidget(props: WidgetProps) {
  const translate = useTranslate();
  const { resources } = useMeta();
  const screen = screenProperty(props.registry.rootSchema.properties as Record<string, PropertySchema>);
  const chosen = screen ? formValues(props)[screen] : undefined;
  const page = typeof chosen === 'string' ? PAGE_FORMS[chosen] : undefined;
  const form = resources.find((r) => r.name === (page?.resource ?? chosen));
  const scope = new Set(Object.values(form?.schema['x-scope'] ?? {}));
  const choices = Object.entries(form?.schema.properties ?? {})
    .filter(([field, prop]) => !prop.readOnly && !prop['x-generated'] && !scope.has(field))
    .filter(([field]) => !page || page.fields.includes(field))
    .map(([field]) => ({
      id: field,
      name: `${translate(`resources.${form?.name}.fields.${field}`)} (${field})`,
    }));
  return <ChoiceSelect {...props} choices={choices} />;
}
