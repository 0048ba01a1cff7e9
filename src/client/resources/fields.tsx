import type { ReactElement } from 'react';
import {
  AutocompleteInput,
  DateInput,
  FunctionField,
  NumberInput,
  ReferenceArrayField,
  ReferenceField,
  ReferenceInput,
  SelectField,
  SelectInput,
  TextField,
  TextInput,
  useRecordContext,
  useTranslate,
} from 'react-admin';
import type { PropertySchema } from '../../shared/schema/types.js';
import { formatDate, formatDateTime } from '../format.js';
import { screenProperty, useScreenChoices } from './screens.js';

export function enumChoices(prop: PropertySchema) {
  return (prop.enum ?? []).map((value) => ({ id: value, name: `enums.${prop['x-enum']}.${value}` }));
}

/** A screen's name in the user's language (a field rule's form, an audit row's screen). */
function ResourceNameField({ source }: { source: string; label?: string }) {
  const record = useRecordContext();
  const translate = useTranslate();
  const value = record?.[source];
  if (typeof value !== 'string' || !value) return <>—</>;
  return <>{translate(`resources.${value}.name`, { smart_count: 1, _: value })}</>;
}

/** A field's label in the user's language, on the screen the record's `resource` property names. */
function FieldNameField({ source, resource }: { source: string; resource: string; label?: string }) {
  const record = useRecordContext();
  const translate = useTranslate();
  const value = record?.[source];
  if (typeof value !== 'string' || !value) return <>—</>;
  return <>{translate(`resources.${record?.[resource]}.fields.${value}`, { _: value })}</>;
}

/** The list filter of a screen name: the screens of the console, by their names. */
function ResourceFilterInput({ source }: { source: string; alwaysOn?: boolean }) {
  const choices = useScreenChoices();
  return <SelectInput source={source} choices={choices} translateChoice={false} />;
}

/** The read-only view of one property, for lists and show pages. */
export function fieldFor(
  source: string,
  prop: PropertySchema,
  properties: Record<string, PropertySchema> = {},
): ReactElement {
  if (prop['x-widget'] === 'resource') return <ResourceNameField source={source} />;
  const screen = prop['x-widget'] === 'field' ? screenProperty(properties) : undefined;
  if (screen) return <FieldNameField source={source} resource={screen} />;
  const ref = prop['x-ref'];
  if (ref && prop.type === 'array')
    return <ReferenceArrayField source={source} reference={ref.resource} emptyText="—" />;
  if (ref) return <ReferenceField source={source} reference={ref.resource} link="show" emptyText="—" />;
  if (prop.enum) return <SelectField source={source} choices={enumChoices(prop)} emptyText="—" />;
  if (prop.format === 'date') return <FunctionField source={source} render={(r) => formatDate(r[source])} />;
  if (prop.format === 'date-time')
    return <FunctionField source={source} render={(r) => formatDateTime(r[source])} />;
  return <TextField source={source} emptyText="—" />;
}

/** The list filter input for one property. */
export function filterFor(source: string, prop: PropertySchema): ReactElement {
  if (prop['x-widget'] === 'resource') return <ResourceFilterInput key={source} source={source} />;
  const ref = prop['x-ref'];
  if (ref) {
    return (
      <ReferenceInput key={source} source={source} reference={ref.resource}>
        <AutocompleteInput />
      </ReferenceInput>
    );
  }
  if (prop.enum) return <SelectInput key={source} source={source} choices={enumChoices(prop)} />;
  if (prop.format === 'date') return <DateInput key={source} source={source} />;
  if (prop.type !== 'string') return <NumberInput key={source} source={source} />;
  return <TextInput key={source} source={source} />;
}
