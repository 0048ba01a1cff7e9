import { Autocomplete, TextField } from '@mui/material';
import type { WidgetProps } from '@rjsf/utils';
import { useTranslate } from 'react-admin';
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

/** A form of the console (the field rules' IdDato): its screens, by their names. */
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
  const choices = [...screens, ...pages].sort((a, b) => a.name.localeCompare(b.name));
  return <ChoiceSelect {...props} choices={choices} />;
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
